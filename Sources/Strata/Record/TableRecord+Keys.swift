extension TableRecord {
    /// A request filtered by primary key: `WHERE "id" = 1`.
    public static func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// A request filtered by primary keys: `WHERE "id" IN (1, 2)`.
    public static func filter(keys: some Collection<some DatabaseValueConvertible>) -> QueryInterfaceRequest<Self> {
        all().filter(keys: Array(keys))
    }

    /// A request filtered by a primary or unique key given as a dictionary.
    public static func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// A request filtered by primary or unique keys given as dictionaries.
    public static func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<Self> {
        all().filter(keys: keys)
    }

    /// A request sorted by primary key.
    public static func orderByPrimaryKey() -> QueryInterfaceRequest<Self> {
        all().orderByPrimaryKey()
    }

    /// Deletes the row with the primary key; returns whether a row was deleted.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public static func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        // A NULL key matches no row: no statement runs.
        if key.databaseValue.isNull { return false }
        return try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the row with the primary or unique key; returns whether a row was deleted.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public static func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the rows with the primary keys; returns the number of deleted rows.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public static func deleteAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Int {
        try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the rows with the primary or unique keys; returns the number of deleted rows.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public static func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        try filter(keys: keys).deleteAll(db)
    }

    /// Whether a row has the primary key.
    ///
    /// - Complexity: Runs one SQL statement, and reads one row at most.
    public static func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        if key.databaseValue.isNull { return false }
        return try !filter(key: key).isEmpty(db)
    }

    /// Whether a row has the primary or unique key.
    ///
    /// - Complexity: Runs one SQL statement, and reads one row at most.
    public static func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// A request filtered by primary key: `WHERE "id" = 1`.
    public static func filter(id: ID) -> QueryInterfaceRequest<Self> {
        all().filter(id: id)
    }

    /// A request filtered by primary keys: `WHERE "id" IN (1, 2)`.
    public static func filter(ids: some Collection<ID>) -> QueryInterfaceRequest<Self> {
        all().filter(ids: ids)
    }

    /// Deletes the row with the primary key; returns whether a row was deleted.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public static func deleteOne(_ db: Database, id: ID) throws -> Bool {
        // A NULL key matches no row: no statement runs.
        if id.databaseValue.isNull { return false }
        return try filter(id: id).deleteAll(db) > 0
    }

    /// Deletes the rows with the primary keys; returns the number of deleted rows.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public static func deleteAll(_ db: Database, ids: some Collection<ID>) throws -> Int {
        try filter(ids: ids).deleteAll(db)
    }

    /// Whether a row has the primary key.
    ///
    /// - Complexity: Runs one SQL statement, and reads one row at most.
    public static func exists(_ db: Database, id: ID) throws -> Bool {
        if id.databaseValue.isNull { return false }
        return try !filter(id: id).isEmpty(db)
    }
}

extension FetchableRecord where Self: TableRecord {
    /// The record with the primary key, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    public static func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Self? {
        try filter(key: key).fetchOne(db)
    }

    /// The record with the primary or unique key, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    public static func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]?) throws -> Self? {
        try filter(key: key).fetchOne(db)
    }

    /// The records with the primary keys.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    public static func fetchAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws
        -> [Self]
    {
        try filter(keys: keys).fetchAll(db)
    }

    /// The records with the primary or unique keys.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    public static func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> [Self] {
        try filter(keys: keys).fetchAll(db)
    }

    /// A cursor over the records with the primary keys.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public static func fetchCursor(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws
        -> RecordCursor<Self>
    {
        try filter(keys: keys).fetchCursor(db)
    }

    /// A cursor over the records with the primary or unique keys.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public static func fetchCursor(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws
        -> RecordCursor<Self>
    {
        try filter(keys: keys).fetchCursor(db)
    }

    /// The record with the primary key, or ``RecordError/recordNotFound(databaseTableName:key:)``.
    ///
    /// ```swift
    /// let country = try Country.find(db, key: "FR")
    /// ```
    public static func find(_ db: Database, key: some DatabaseValueConvertible) throws -> Self {
        guard let record = try fetchOne(db, key: key) else {
            throw recordNotFound(db, key: key)
        }
        return record
    }

    /// The record with the primary or unique key, or
    /// ``RecordError/recordNotFound(databaseTableName:key:)``.
    ///
    /// ```swift
    /// let player = try Player.find(db, key: ["email": "arthur@example.com"])
    /// ```
    public static func find(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self {
        guard let record = try fetchOne(db, key: key) else {
            throw recordNotFound(key: key)
        }
        return record
    }
}

extension FetchableRecord where Self: TableRecord & Identifiable, ID: DatabaseValueConvertible {
    /// The record with the primary key, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    public static func fetchOne(_ db: Database, id: ID) throws -> Self? {
        try filter(id: id).fetchOne(db)
    }

    /// The records with the primary keys.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    public static func fetchAll(_ db: Database, ids: some Collection<ID>) throws -> [Self] {
        try filter(ids: ids).fetchAll(db)
    }

    /// A cursor over the records with the primary keys.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public static func fetchCursor(_ db: Database, ids: some Collection<ID>) throws -> RecordCursor<Self> {
        try filter(ids: ids).fetchCursor(db)
    }

    /// The record with the primary key, or ``RecordError/recordNotFound(databaseTableName:key:)``.
    ///
    /// ```swift
    /// let player = try Player.find(db, id: 42)
    /// ```
    public static func find(_ db: Database, id: ID) throws -> Self {
        guard let record = try fetchOne(db, id: id) else {
            throw recordNotFound(db, id: id)
        }
        return record
    }
}

extension FetchableRecord where Self: TableRecord & Hashable {
    /// The set of records with the primary keys.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    public static func fetchSet(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws
        -> Set<Self>
    {
        try filter(keys: keys).fetchSet(db)
    }

    /// The set of records with the primary or unique keys.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    public static func fetchSet(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Set<Self> {
        try filter(keys: keys).fetchSet(db)
    }
}

extension FetchableRecord where Self: TableRecord & Hashable & Identifiable, ID: DatabaseValueConvertible {
    /// The set of records with the primary keys.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    public static func fetchSet(_ db: Database, ids: some Collection<ID>) throws -> Set<Self> {
        try filter(ids: ids).fetchSet(db)
    }
}

extension TableRecord {
    /// A request that selects the primary key, and fetches `PrimaryKey`.
    public static func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self)
        -> QueryInterfaceRequest<PrimaryKey>
    {
        all().selectPrimaryKey(as: type)
    }
}

extension TableRecord {
    /// A request that selects the primary key, and fetches ids.
    public static func selectID() -> QueryInterfaceRequest<Self.ID> where Self: Identifiable {
        all().selectID()
    }
}
