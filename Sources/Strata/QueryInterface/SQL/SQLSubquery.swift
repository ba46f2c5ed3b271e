/// A subquery: the SQL of a request embedded in another one.
public struct SQLSubquery: Sendable {
    enum Impl: Sendable {
        case literal(SQL)
        case query(SQLQuery)
    }

    let impl: Impl

    init(impl: Impl) {
        self.impl = impl
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .literal(let literal): return try literal.sql(context)
        case .query(let query): return try query.sql(context)
        }
    }
}

/// A type that can be embedded as a subquery: requests, SQL literals.
public protocol SQLSubqueryable: SQLSpecificExpressible {
    /// The SQL this value contributes when embedded in another request: in `IN (...)`,
    /// `EXISTS (...)`, or as a scalar subquery.
    var sqlSubquery: SQLSubquery { get }
}

extension SQLSubqueryable {
    /// The subquery, between parentheses, as an expression.
    public var sqlExpression: SQLExpression {
        SQLExpression(impl: .subquery(sqlSubquery))
    }

    /// An expression that tests whether the subquery returns `element`:
    /// `element IN (subquery)`.
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .inSubquery(element.sqlExpression, sqlSubquery, negated: false))
    }

    /// An expression that tests whether the subquery returns any row:
    /// `EXISTS (subquery)`.
    ///
    /// - Complexity: Runs one SQL statement, and reads one row at most.
    public func exists() -> SQLExpression {
        SQLExpression(impl: .exists(sqlSubquery, negated: false))
    }
}

extension SQLSubquery: SQLSubqueryable {
    /// Returns self.
    public var sqlSubquery: SQLSubquery { self }
}
