/// A request built from raw SQL, which fetches rows, values or records.
///
/// ```swift
/// let request: SQLRequest<Player> = "SELECT * FROM player WHERE name = \(name)"
/// let players = try request.fetchAll(db)
/// ```
public struct SQLRequest<RowDecoder>: FetchRequest {
    /// The adapter applied to fetched rows.
    public var adapter: (any RowAdapter)?
    let sqlLiteral: SQL
    let cached: Bool

    /// Creates a request from raw SQL and its arguments.
    ///
    /// - Parameters:
    ///   - sql: the SQL of one statement.
    ///   - arguments: the values of its parameters.
    ///   - adapter: an adapter applied to fetched rows, if any.
    ///   - cached: whether the statement is kept in the connection's cache.
    public init(
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil,
        cached: Bool = false
    ) {
        self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter, cached: cached)
    }

    /// Creates a request from an SQL literal.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(storing: sqlLiteral, adapter: adapter, cached: cached)
    }

    /// The one initializer that stores the properties; the public ones,
    /// generic or of rows, call it.
    init(storing sqlLiteral: SQL, adapter: (any RowAdapter)?, cached: Bool) {
        self.sqlLiteral = sqlLiteral
        self.adapter = adapter
        self.cached = cached
    }

    /// Compiles the request.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws
        -> PreparedRequest
    {
        let (sql, arguments) = try sqlLiteral.build(db)
        let statement = cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return PreparedRequest(statement: statement, adapter: adapter)
    }

    /// The number of rows: `SELECT COUNT(*) FROM (sql)`.
    ///
    /// - Complexity: Runs one SQL statement that counts in the database; allocates nothing per row.
    public func fetchCount(_ db: Database) throws -> Int {
        try defaultFetchCount(db)
    }

    /// The request as a subquery.
    public var sqlSubquery: SQLSubquery { SQLSubquery(impl: .literal(sqlLiteral)) }
}

extension SQLRequest where RowDecoder == Row {
    /// Creates a request of rows from raw SQL and its arguments: without an
    /// explicit type, `SQLRequest(sql: "...")` is an `SQLRequest<Row>`.
    public init(
        sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil,
        cached: Bool = false
    ) {
        self.init(storing: SQL(sql: sql, arguments: arguments), adapter: adapter, cached: cached)
    }

    /// Creates a request of rows from an SQL literal: without an explicit
    /// type, `SQLRequest(literal: ...)` is an `SQLRequest<Row>`.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(storing: sqlLiteral, adapter: adapter, cached: cached)
    }
}

extension SQLRequest: ExpressibleByStringInterpolation {
    /// Creates an uncached request without arguments from a string literal:
    /// `let request: SQLRequest<Player> = "SELECT * FROM player"`.
    public init(stringLiteral: String) {
        self.init(sql: stringLiteral)
    }

    /// Creates an uncached request without arguments from a one-scalar literal.
    public init(unicodeScalarLiteral: String) {
        self.init(sql: unicodeScalarLiteral)
    }

    /// Creates an uncached request without arguments from a one-character literal.
    public init(extendedGraphemeClusterLiteral: String) {
        self.init(sql: extendedGraphemeClusterLiteral)
    }

    /// A request built from an interpolated string.
    public init(stringInterpolation sqlInterpolation: SQLInterpolation) {
        self.init(literal: SQL(stringInterpolation: sqlInterpolation))
    }
}
