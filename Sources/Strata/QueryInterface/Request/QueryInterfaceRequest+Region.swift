extension QueryInterfaceRequest {
    /// The region read by the request. A request filtered by rowid (or by
    /// the INTEGER PRIMARY KEY that aliases it) only reads the rows with
    /// those rowids: `player(id,name)[1]`.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        // A request known to be empty (`none()`) reads nothing.
        if try query.fetchesNoRow(db) {
            return DatabaseRegion()
        }
        var region = try makePreparedRequest(db, forSingleResult: false).statement.databaseRegion
        if query.hasPrefetches {
            region.formUnion(try query.prefetchRegion(db))
        }
        guard query.joins.isEmpty, let filter = try query.resolvedFilter(db) else { return region }
        let primaryKey = try db.primaryKey(query.tableName)
        guard primaryKey.isRowID else { return region }
        let rowIDColumn = primaryKey.rowIDColumn ?? "rowid"
        guard let rowIDs = Self.rowIDs(in: filter, column: rowIDColumn) else { return region }
        return region.restricting(table: query.tableName, toRowIDs: rowIDs)
    }

    /// The rowids a filter restricts the rows to, or nil when it does not.
    private static func rowIDs(in filter: SQLExpression, column: String) -> Set<Int64>? {
        func isRowIDColumn(_ expression: SQLExpression) -> Bool {
            switch expression.impl {
            case .column(let name), .qualifiedColumn(let name, _):
                return name.caseInsensitiveCompare(column) == .orderedSame
            default:
                return false
            }
        }
        func rowID(_ expression: SQLExpression) -> Int64?? {
            guard case .databaseValue(let value) = expression.impl else { return nil }
            // NULL matches no row.
            return .some(Int64.fromDatabaseValue(value))
        }
        switch filter.impl {
        case .binary("=", let lhs, let rhs):
            if isRowIDColumn(lhs), let value = rowID(rhs) { return Set([value].compactMap { $0 }) }
            if isRowIDColumn(rhs), let value = rowID(lhs) { return Set([value].compactMap { $0 }) }
            return nil
        case .inList(let expression, let values, negated: false):
            guard isRowIDColumn(expression) else { return nil }
            var result = Set<Int64>()
            for value in values {
                guard let rowID = rowID(value) else { return nil }
                if let rowID { result.insert(rowID) }
            }
            return result
        case .associative(let op, let operands) where op.sql == "AND":
            var result: Set<Int64>?
            for operand in operands {
                if let rowIDs = rowIDs(in: operand, column: column) {
                    result = result.map { $0.intersection(rowIDs) } ?? rowIDs
                }
            }
            return result
        case .associative(let op, let operands) where op.sql == "OR" && !operands.isEmpty:
            // Each alternative must restrict the rowids.
            var result = Set<Int64>()
            for operand in operands {
                guard let rowIDs = rowIDs(in: operand, column: column) else { return nil }
                result.formUnion(rowIDs)
            }
            return result
        default:
            return nil
        }
    }
}

extension SQLQuery {
    /// Whether the filter is known to match no row: it is `false` (`none()`)
    /// or `0`, or an `AND` chain that contains one of them.
    func fetchesNoRow(_ db: Database) throws -> Bool {
        guard let filter = try resolvedFilter(db) else { return false }
        return filter.andOperands.contains { $0.isZeroLiteral || $0.isFalseValue }
    }
}
