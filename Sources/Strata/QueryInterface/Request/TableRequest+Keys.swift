extension TableRequest where Self: FilteredRequest & TypedRequest {
    /// Returns a request filtered by primary key: `WHERE "id" = 1`.
    ///
    /// It is a fatal error to use it on a table whose primary key has
    /// several columns.
    public func filter(key: some DatabaseValueConvertible) -> Self {
        filter(keys: [key])
    }

    /// Returns a request filtered by primary keys: `WHERE "id" IN (1, 2, 3)`.
    ///
    /// It is a fatal error to use it on a table whose primary key has
    /// several columns.
    public func filter<Keys>(keys: Keys) -> Self
    where Keys: Collection, Keys.Element: DatabaseValueConvertible {
        // NULL matches no row (SQLite allows NULL in some primary keys, and
        // `IS NULL` would match them).
        let values = keys.map(\.databaseValue).filter { !$0.isNull }
        if values.isEmpty { return none() }
        let tableName = databaseTableName
        return filterWhenConnected { db in
            let columns = try db.primaryKey(tableName).columns
            guard columns.count == 1 else {
                fatalError(
                    "Requesting by key requires a single-column primary key in the table \(tableName), "
                        + "which has the primary key \(columns)")
            }
            return values.contains(Column(columns[0]))
        }
    }

    /// Returns a request filtered by a primary or unique key, given as a
    /// dictionary of columns and values: `WHERE "email" = '...'`. A nil key
    /// matches no row.
    ///
    /// It is a fatal error when the columns are not a primary or unique key.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> Self {
        guard let key else { return none() }
        return filter(keys: [key])
    }

    /// Returns a request filtered by primary or unique keys, given as
    /// dictionaries of columns and values.
    ///
    /// It is a fatal error when the columns are not a primary or unique key.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        if keys.isEmpty { return none() }
        let keys = keys.map { key in
            Dictionary(key.map { ($0.key, $0.value?.databaseValue ?? .null) }, uniquingKeysWith: { $1 })
        }
        let tableName = databaseTableName
        return filterWhenConnected { db in
            var conditions: [SQLExpression] = []
            for key in keys {
                // Conditions follow the column order of the matched key.
                guard let columns = try db.uniqueKeyColumns(tableName, matching: key.keys) else {
                    fatalError(
                        "table \(tableName) has no unique key on column(s) "
                            + key.keys.sorted().joined(separator: ", "))
                }
                let values = columns.map { key[$0]! }
                // A key with a NULL value matches no row.
                if values.contains(where: \.isNull) { continue }
                let condition = zip(columns, values).map { column, value in Column(column) == value }
                conditions.append(condition.joined(operator: .and))
            }
            return conditions.joined(operator: .or)
        }
    }
}

extension TableRequest
where Self: FilteredRequest & TypedRequest, RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Returns a request filtered by primary key: `WHERE "id" = 1`.
    public func filter(id: RowDecoder.ID) -> Self {
        filter(key: id)
    }

    /// Returns a request filtered by primary keys: `WHERE "id" IN (1, 2)`.
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self {
        filter(keys: ids)
    }
}

extension TableRequest where Self: OrderedRequest {
    /// Returns a request sorted by primary key (the rowid for tables
    /// without explicit primary key).
    public func orderByPrimaryKey() -> Self {
        let tableName = databaseTableName
        return orderWhenConnected { db in
            try db.primaryKey(tableName).columns.map { Column($0) }
        }
    }
}

extension TableRequest where Self: AggregatingRequest {
    /// Returns a request grouped by primary key.
    public func groupByPrimaryKey() -> Self {
        let tableName = databaseTableName
        return groupWhenConnected { db in
            try db.primaryKey(tableName).columns.map { Column($0) }
        }
    }
}
