/// An ordering term: an expression, ascending or descending.
public struct SQLOrdering: Sendable {
    enum Impl: Sendable {
        case expression(SQLExpression)
        case asc(SQLExpression)
        case desc(SQLExpression)
        case ascNullsLast(SQLExpression)
        case descNullsFirst(SQLExpression)
        case literal(SQL)
        case reversedLiteral(SQL)
    }

    let impl: Impl

    init(impl: Impl) {
        self.impl = impl
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .expression(let expression): return try expression.sql(context)
        case .asc(let expression): return try expression.sql(context) + " ASC"
        case .desc(let expression): return try expression.sql(context) + " DESC"
        case .ascNullsLast(let expression): return try expression.sql(context) + " ASC NULLS LAST"
        case .descNullsFirst(let expression): return try expression.sql(context) + " DESC NULLS FIRST"
        case .literal(let literal): return try literal.sql(context)
        case .reversedLiteral(let literal):
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "SQL literal orderings can't be reversed: \(try literal.sql(context))")
        }
    }

    /// The opposite ordering.
    var reversed: SQLOrdering {
        switch impl {
        case .expression(let expression), .asc(let expression): return SQLOrdering(impl: .desc(expression))
        case .desc(let expression): return SQLOrdering(impl: .asc(expression))
        case .ascNullsLast(let expression): return SQLOrdering(impl: .descNullsFirst(expression))
        case .descNullsFirst(let expression): return SQLOrdering(impl: .ascNullsLast(expression))
        case .literal(let literal): return SQLOrdering(impl: .reversedLiteral(literal))
        case .reversedLiteral(let literal): return SQLOrdering(impl: .literal(literal))
        }
    }

    /// The ordering where unqualified columns refer to `alias`.
    func qualified(with alias: TableAliasBase) -> SQLOrdering {
        switch impl {
        case .expression(let e): return SQLOrdering(impl: .expression(e.qualified(with: alias)))
        case .asc(let e): return SQLOrdering(impl: .asc(e.qualified(with: alias)))
        case .desc(let e): return SQLOrdering(impl: .desc(e.qualified(with: alias)))
        case .ascNullsLast(let e): return SQLOrdering(impl: .ascNullsLast(e.qualified(with: alias)))
        case .descNullsFirst(let e): return SQLOrdering(impl: .descNullsFirst(e.qualified(with: alias)))
        case .literal, .reversedLiteral: return self
        }
    }
}

extension SQLOrdering: SQLOrderingTerm {
    /// Returns self.
    public var sqlOrdering: SQLOrdering { self }
}

extension SQLSpecificExpressible {
    /// Ascending order: `expression ASC`.
    public var asc: SQLOrdering { SQLOrdering(impl: .asc(sqlExpression)) }

    /// Descending order: `expression DESC`.
    public var desc: SQLOrdering { SQLOrdering(impl: .desc(sqlExpression)) }

    /// Ascending order, NULL values last: `expression ASC NULLS LAST`.
    public var ascNullsLast: SQLOrdering { SQLOrdering(impl: .ascNullsLast(sqlExpression)) }

    /// Descending order, NULL values first: `expression DESC NULLS FIRST`.
    public var descNullsFirst: SQLOrdering { SQLOrdering(impl: .descNullsFirst(sqlExpression)) }
}
