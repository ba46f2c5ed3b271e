/// A common table expression, embedded in requests with `with(_:)`:
/// `WITH name AS (...) SELECT ...`.
///
/// ```swift
/// let cte = CommonTableExpression(named: "selectedName", sql: "SELECT 'Arthur'")
/// let request = Player.with(cte).filter(cte.contains(Column("name")))
/// ```
public struct CommonTableExpression<RowDecoder>: Sendable {
    let cte: SQLCTE

    /// The name of the common table expression.
    public var tableName: String { cte.tableName }

    /// Creates a common table expression from a request.
    ///
    /// - Parameters:
    ///   - recursive: whether the expression refers to itself (`WITH RECURSIVE`).
    ///   - tableName: the name that other parts of the query use.
    ///   - columns: the names of the columns, or nil for those of the request.
    ///   - request: the request whose rows the expression holds.
    public init(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil, request: some SQLSubqueryable
    ) {
        cte = SQLCTE(tableName: tableName, columns: columns, isRecursive: recursive, subquery: request.sqlSubquery)
    }

    /// Creates a common table expression from an SQL literal.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal sqlLiteral: SQL) {
        cte = SQLCTE(
            tableName: tableName, columns: columns, isRecursive: recursive,
            subquery: SQLSubquery(impl: .literal(sqlLiteral)))
    }

    /// Creates a common table expression from raw SQL and its arguments.
    public init(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil, sql: String,
        arguments: StatementArguments = StatementArguments()
    ) {
        self.init(
            recursive: recursive, named: tableName, columns: columns, literal: SQL(sql: sql, arguments: arguments))
    }

    /// A request for all rows of the common table expression. It does not
    /// embed the expression: the request that uses it does, with `with(_:)`
    /// (`cte.all().with(cte)` on its own).
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(query: SQLQuery(tableName: tableName, selection: [AllColumns()]))
    }

    /// An expression that tests whether the common table expression contains
    /// `element`: `element IN name`.
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .inTable(element.sqlExpression, tableName, negated: false))
    }
}

extension CommonTableExpression where RowDecoder == Row {
    /// Creates a common table expression of rows from a request: without an
    /// explicit type, it is a `CommonTableExpression<Row>`.
    public init(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil, request: some SQLSubqueryable
    ) {
        cte = SQLCTE(tableName: tableName, columns: columns, isRecursive: recursive, subquery: request.sqlSubquery)
    }

    /// Creates a common table expression of rows from an SQL literal.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal sqlLiteral: SQL) {
        cte = SQLCTE(
            tableName: tableName, columns: columns, isRecursive: recursive,
            subquery: SQLSubquery(impl: .literal(sqlLiteral)))
    }

    /// Creates a common table expression of rows from raw SQL and its arguments.
    public init(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil, sql: String,
        arguments: StatementArguments = StatementArguments()
    ) {
        self.init(
            recursive: recursive, named: tableName, columns: columns, literal: SQL(sql: sql, arguments: arguments))
    }
}
