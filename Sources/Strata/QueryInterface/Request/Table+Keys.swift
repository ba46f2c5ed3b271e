extension Table {
    /// A request filtered by primary key: `WHERE "id" = 1`.
    public func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(key: key)
    }

    /// A request filtered by primary keys: `WHERE "id" IN (1, 2)`.
    public func filter(keys: some Collection<some DatabaseValueConvertible>) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(keys: Array(keys))
    }

    /// A request filtered by a primary or unique key given as a dictionary.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(key: key)
    }

    /// A request filtered by primary or unique keys given as dictionaries.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(keys: keys)
    }

    /// A request sorted by primary key.
    public func orderByPrimaryKey() -> QueryInterfaceRequest<RowDecoder> {
        all().orderByPrimaryKey()
    }

    /// Deletes the row with the primary key; returns whether a row was deleted.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        // A NULL key matches no row: no statement runs.
        if key.databaseValue.isNull { return false }
        return try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the row with the primary or unique key; returns whether a row was deleted.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the rows with the primary keys; returns the number of deleted rows.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public func deleteAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Int {
        try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the rows with the primary or unique keys; returns the number of deleted rows.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        try filter(keys: keys).deleteAll(db)
    }

    /// Whether a row has the primary key.
    ///
    /// - Complexity: Runs one SQL statement, and reads one row at most.
    public func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        if key.databaseValue.isNull { return false }
        return try !filter(key: key).isEmpty(db)
    }

    /// Whether a row has the primary or unique key.
    ///
    /// - Complexity: Runs one SQL statement, and reads one row at most.
    public func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// A request filtered by primary key.
    public func filter(id: RowDecoder.ID) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(id: id)
    }

    /// A request filtered by primary keys.
    public func filter(ids: some Collection<RowDecoder.ID>) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(ids: ids)
    }

    /// Deletes the row with the primary key; returns whether a row was deleted.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public func deleteOne(_ db: Database, id: RowDecoder.ID) throws -> Bool {
        // A NULL key matches no row: no statement runs.
        if id.databaseValue.isNull { return false }
        return try filter(id: id).deleteAll(db) > 0
    }

    /// Deletes the rows with the primary keys; returns the number of deleted rows.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public func deleteAll(_ db: Database, ids: some Collection<RowDecoder.ID>) throws -> Int {
        try filter(ids: ids).deleteAll(db)
    }

    /// Whether a row has the primary key.
    ///
    /// - Complexity: Runs one SQL statement, and reads one row at most.
    public func exists(_ db: Database, id: RowDecoder.ID) throws -> Bool {
        if id.databaseValue.isNull { return false }
        return try !filter(id: id).isEmpty(db)
    }
}

extension Table {
    /// A request that selects the primary key, and fetches `PrimaryKey`.
    public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self)
        -> QueryInterfaceRequest<PrimaryKey>
    {
        all().selectPrimaryKey(as: type)
    }
}

extension Table {
    /// A request that selects the primary key, and fetches ids.
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> where RowDecoder: Identifiable {
        all().selectID()
    }
}
