/// A selected result column: an expression, `*`, an aliased expression...
public struct SQLSelection: Sendable {
    enum Impl: Sendable {
        case expression(SQLExpression)
        case aliasedExpression(SQLExpression, String)
        case literal(SQL)
        case allColumns
        case qualifiedAllColumns(TableAliasBase)
        case allColumnsExcluding([String])
    }

    let impl: Impl

    init(impl: Impl) {
        self.impl = impl
    }

    /// The SQL of the selection, outside of any request.
    func sql(_ context: SQLGenerationContext) throws -> String {
        try sql(context, source: nil)
    }

    /// The SQL of the selection in a request whose table is `source`.
    ///
    /// When the source has an explicit alias name, `*` and unqualified
    /// columns are qualified with it.
    func sql(_ context: SQLGenerationContext, source: TableAliasBase?) throws -> String {
        let qualifier = source.flatMap { $0.isQualifying ? $0 : nil }
        switch impl {
        case .expression(let expression):
            let expression = expression.qualifiedIfNeeded(qualifier)
            return try expression.sql(context)
        case .aliasedExpression(let expression, let key):
            let expression = expression.qualifiedIfNeeded(qualifier)
            return try expression.sql(context) + " AS " + key.quotedDatabaseIdentifier
        case .literal(let literal):
            return try literal.sql(context)
        case .allColumns:
            return try Self.allColumnsSQL(qualifier)
        case .qualifiedAllColumns(let alias):
            return try context.qualifier(alias).quotedDatabaseIdentifier + ".*"
        case .allColumnsExcluding(let excluded):
            guard let source, let tableName = source.tableName else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE, message: "AllColumnsExcluding can only be used in a table request")
            }
            let excludedSet = Set(excluded.map { $0.lowercased() })
            let allColumns = try context.db.cachedStatement(sql: "SELECT * FROM \(tableName.quotedDatabaseIdentifier)")
                .columnNames
            let columns = allColumns.filter { !excludedSet.contains($0.lowercased()) }
            // Excluding nothing (or only unknown columns) selects `*`.
            if columns.count == allColumns.count {
                return try Self.allColumnsSQL(qualifier)
            }
            return
                try columns
                .map { try SQLExpression(impl: .column($0)).qualifiedIfNeeded(qualifier).sql(context) }
                .joined(separator: ", ")
        }
    }

    /// `*`, or `"alias".*`.
    private static func allColumnsSQL(_ qualifier: TableAliasBase?) throws -> String {
        guard let qualifier else { return "*" }
        return try qualifier.qualifier().quotedDatabaseIdentifier + ".*"
    }

    /// True if the selection is `*` (possibly qualified).
    var isAllColumns: Bool {
        switch impl {
        case .allColumns, .qualifiedAllColumns: return true
        default: return false
        }
    }

    /// The selected expression, when the selection is a single expression.
    var expression: SQLExpression? {
        switch impl {
        case .expression(let expression): return expression
        case .aliasedExpression(let expression, _): return expression
        default: return nil
        }
    }
}

extension SQLExpression {
    /// The expression qualified with the alias, or itself without alias.
    /// (Not `alias.map(...) ?? self`: on optional expressions, `??` is the
    /// SQL `IFNULL` operator.)
    func qualifiedIfNeeded(_ alias: TableAliasBase?) -> SQLExpression {
        guard let alias else { return self }
        return qualified(with: alias)
    }
}

extension SQLSelection: SQLSelectable {
    /// Returns self.
    public var sqlSelection: SQLSelection { self }
}

/// All columns of a table: `*`.
public struct AllColumns: Sendable {
    /// Creates the `*` selection.
    public init() {}
}

extension AllColumns: SQLSelectable {
    /// The `*` selection.
    public var sqlSelection: SQLSelection { SQLSelection(impl: .allColumns) }
}

/// All columns of a table but some: `SELECT a, b` for a table `(a, b, c)`
/// when `c` is excluded.
public struct AllColumnsExcluding: Sendable {
    let excludedColumns: [String]

    /// Creates a selection of all columns but the excluded ones.
    public init(_ excludedColumns: some Collection<String>) {
        self.excludedColumns = Array(excludedColumns)
    }
}

extension AllColumnsExcluding: SQLSelectable {
    /// The selection of the remaining columns.
    public var sqlSelection: SQLSelection { SQLSelection(impl: .allColumnsExcluding(excludedColumns)) }
}

extension SQLSelectable where Self == AllColumns {
    /// All columns: `*`.
    public static var allColumns: AllColumns { AllColumns() }
}

extension SQLSelectable where Self == AllColumnsExcluding {
    /// All columns but the excluded ones.
    public static func allColumns(excluding excludedColumns: some Collection<String>) -> Self {
        AllColumnsExcluding(excludedColumns)
    }

    /// All columns but the excluded ones.
    public static func allColumns(excluding excludedColumns: some Collection<any ColumnExpression>) -> Self {
        AllColumnsExcluding(excludedColumns.map(\.name))
    }
}

extension SQLSelectable where Self == Column {
    /// The hidden `rowid` column.
    public static var rowID: Column { Column.rowID }
}

extension SQLExpressible where Self == Column {
    /// The hidden `rowid` column.
    public static var rowID: Column { Column.rowID }
}

extension SQLSpecificExpressible {
    /// The expression, selected under the name `key`: `expression AS key`.
    public func forKey(_ key: String) -> SQLSelection {
        sqlExpression.aliased(key)
    }

    /// The expression, selected under the name of the coding key.
    public func forKey(_ key: some CodingKey) -> SQLSelection {
        sqlExpression.aliased(key.stringValue)
    }
}
