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
        if values.isEmpty { return matchingNoKey() }
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
    /// matches no row. The dictionary may hold other columns besides the
    /// key: they are tested too.
    ///
    /// It is a fatal error when the columns contain no primary or unique key.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> Self {
        guard let key else { return matchingNoKey() }
        return filter(keys: [key])
    }

    /// Returns a request filtered by primary or unique keys, given as
    /// dictionaries of columns and values (which may hold other columns
    /// besides the key).
    ///
    /// It is a fatal error when the columns contain no primary or unique key.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        if keys.isEmpty { return matchingNoKey() }
        let keys = keys.map { key in
            Dictionary(key.map { ($0.key, $0.value?.databaseValue ?? .null) }, uniquingKeysWith: { $1 })
        }
        let tableName = databaseTableName
        return filterWhenConnected { db in
            var conditions: [SQLExpression] = []
            for key in keys {
                // The dictionary must contain a unique key, and may give
                // other columns too: every given column is tested.
                guard let keyColumns = try db.uniqueKeyColumns(tableName, among: key.keys) else {
                    fatalError(
                        "table \(tableName) has no unique key on column(s) "
                            + key.keys.sorted().joined(separator: ", "))
                }
                // A NULL value in the unique key matches no row.
                if keyColumns.contains(where: { key[$0]!.isNull }) { continue }
                // Conditions follow the column order of the key, then the
                // other columns by name.
                let otherColumns = key.keys.filter { !keyColumns.contains($0) }.sorted()
                let condition = (keyColumns + otherColumns).map { column in Column(column) == key[column]! }
                conditions.append(condition.joined(operator: .and))
            }
            return conditions.joined(operator: .or)
        }
    }

    /// The request for no key, or for NULL keys: `WHERE 0`.
    private func matchingNoKey() -> Self {
        filter(SQLExpression.falseLiteral)
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
    /// Returns a request grouped by primary key: the INTEGER PRIMARY KEY
    /// column, the `rowid` of other rowid tables, or the primary key columns
    /// of WITHOUT ROWID tables (and of views).
    public func groupByPrimaryKey() -> Self {
        let tableName = databaseTableName
        return groupWhenConnected { db in
            guard try db.tableExists(tableName) else {
                return try db.primaryKey(tableName).columns.map { Column($0) }
            }
            return try SQLQuery.fastPrimaryKeyColumns(db, tableName: tableName).map { Column($0) }
        }
    }
}
