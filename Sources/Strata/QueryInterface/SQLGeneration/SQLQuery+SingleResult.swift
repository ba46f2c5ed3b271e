// When `fetchOne` can do without `LIMIT 1`.

extension SQLQuery {
    /// Whether a request for a single row needs `LIMIT 1`: not when it
    /// aggregates without grouping, nor when its filter pins a unique key of
    /// the table (primary key, rowid or unique index) with `=` or `IS`.
    func needsSingleResultLimit(_ db: Database) throws -> Bool {
        guard joins.isEmpty, trailingSelection.isEmpty else { return true }
        let hasGroups = try !(groups?.resolve(db).isEmpty ?? true)
        if hasGroups || !havings.isEmpty { return true }
        if try resolvedSelection(db).contains(where: { $0.expression?.isAggregate ?? false }) {
            return false
        }
        guard let filter = try resolvedFilter(db) else { return true }
        let pinned = Set(pinnedColumns(filter).map { $0.lowercased() })
        if pinned.isEmpty { return true }
        return try !db.table(tableName, hasUniqueKeyAmong: pinned)
    }

    /// The columns of this query's table that the filter compares with a
    /// value, through an `AND` chain of `=` and `IS` (`"id" IS NULL` pins
    /// the column too: it matches one row at most).
    private func pinnedColumns(_ filter: SQLExpression) -> [String] {
        switch filter.impl {
        case .associative(let op, let operands) where op.sql == "AND" || operands.count == 1:
            return operands.flatMap(pinnedColumns)
        case .binary("=", let lhs, let rhs), .binary("IS", let lhs, let rhs):
            if let column = ownColumn(lhs), rhs.isValue { return [column] }
            if let column = ownColumn(rhs), lhs.isValue { return [column] }
            return []
        default:
            return []
        }
    }

    private func ownColumn(_ expression: SQLExpression) -> String? {
        switch expression.impl {
        case .column(let name):
            return name
        case .qualifiedColumn(let name, let alias) where qualifyingAlias.map({ $0 === alias }) ?? false:
            return name
        default:
            return nil
        }
    }
}

extension SQLExpression {
    /// True for a value, NULL included.
    fileprivate var isValue: Bool {
        if case .databaseValue = impl { return true }
        return false
    }
}

extension Database {
    /// Whether `columns` (lowercased) contain the primary key, the rowid or
    /// a unique index of the table. False for views and unknown tables.
    func table(_ tableName: String, hasUniqueKeyAmong columns: Set<String>) throws -> Bool {
        guard try tableExists(tableName) else { return false }
        let primaryKey = try self.primaryKey(tableName)
        if Set(primaryKey.columns.map { $0.lowercased() }).isSubset(of: columns) { return true }
        if !(try isWithoutRowIDTable(tableName)), !columns.isDisjoint(with: ["rowid", "_rowid_", "oid"]) {
            return true
        }
        return try indexes(on: tableName).contains { index in
            index.isUnique && Set(index.columns.map { $0.lowercased() }).isSubset(of: columns)
        }
    }
}

extension Database {
    /// The columns of the primary key or of a unique index that `columns`
    /// contain (case-insensitive, in any order; other columns may be given
    /// too), in the order of the key, spelled as in `columns`. The primary
    /// key comes first. Nil when the columns contain no unique key.
    func uniqueKeyColumns(_ tableName: String, among columns: some Collection<String>) throws -> [String]? {
        let byLowercasedName = Dictionary(columns.map { ($0.lowercased(), $0) }, uniquingKeysWith: { $1 })
        func spelled(_ keyColumns: [String]) -> [String]? {
            guard !keyColumns.isEmpty else { return nil }
            let spelled = keyColumns.compactMap { byLowercasedName[$0.lowercased()] }
            return spelled.count == keyColumns.count ? spelled : nil
        }
        if let columns = spelled(try primaryKey(tableName).columns) { return columns }
        guard try tableExists(tableName) else { return nil }
        for index in try indexes(on: tableName) where index.isUnique {
            if let columns = spelled(index.columns) { return columns }
        }
        return nil
    }
}

extension Database {
    /// Whether the name is a view whose primary key is unknown (no schema source tells it).
    func isViewWithoutPrimaryKey(_ name: String) throws -> Bool {
        guard try viewExists(name) else { return false }
        return (try? primaryKey(name)) == nil
    }
}
