/// An SQL expression: a value, a column, an SQL literal, an operation...
///
/// Build expressions from columns, values and operators rather than directly.
public struct SQLExpression: Sendable {
    indirect enum Impl: Sendable {
        /// A value, bound as a statement argument.
        case databaseValue(DatabaseValue)
        /// An SQL literal, such as `SQL("DATE(\(value))")`.
        case literal(SQL)
        /// An unqualified column.
        case column(String)
        /// A function call: `name(arguments)`.
        case function(String, [SQLExpression])
    }

    let impl: Impl

    init(impl: Impl) {
        self.impl = impl
    }

    /// The NULL expression.
    static let null = SQLExpression(impl: .databaseValue(.null))

    /// The SQL of the expression, appending its arguments to the context.
    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .databaseValue(let dbValue):
            if dbValue.isNull { return "NULL" }
            return context.append(argument: dbValue)
        case .literal(let literal):
            return try literal.sql(context)
        case .column(let name):
            return name.quotedDatabaseIdentifier
        case .function(let name, let arguments):
            return try name + "(" + arguments.map { try $0.sql(context) }.joined(separator: ", ") + ")"
        }
    }
}

extension SQLExpression: SQLSpecificExpressible {
    /// Returns self.
    public var sqlExpression: SQLExpression { self }
}

/// A selected result column.
public struct SQLSelection: Sendable {
    enum Impl: Sendable {
        case expression(SQLExpression)
        case literal(SQL)
        case allColumns
    }

    let impl: Impl

    init(impl: Impl) {
        self.impl = impl
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .expression(let expression): return try expression.sql(context)
        case .literal(let literal): return try literal.sql(context)
        case .allColumns: return "*"
        }
    }
}

extension SQLSelection: SQLSelectable {
    /// Returns self.
    public var sqlSelection: SQLSelection { self }
}

/// An ordering term: an expression, ascending or descending.
public struct SQLOrdering: Sendable {
    enum Impl: Sendable {
        case expression(SQLExpression)
        case literal(SQL)
    }

    let impl: Impl

    init(impl: Impl) {
        self.impl = impl
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .expression(let expression): return try expression.sql(context)
        case .literal(let literal): return try literal.sql(context)
        }
    }
}

extension SQLOrdering: SQLOrderingTerm {
    /// Returns self.
    public var sqlOrdering: SQLOrdering { self }
}

/// A subquery: the SQL of a request embedded in another one.
public struct SQLSubquery: Sendable {
    enum Impl: Sendable {
        case literal(SQL)
    }

    let impl: Impl

    init(impl: Impl) {
        self.impl = impl
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .literal(let literal): return try literal.sql(context)
        }
    }
}

/// A type that can be embedded as a subquery: requests, SQL literals.
public protocol SQLSubqueryable: SQLSpecificExpressible {
    /// The subquery.
    var sqlSubquery: SQLSubquery { get }
}

extension SQLSubqueryable {
    /// The subquery, between parentheses, as an expression.
    public var sqlExpression: SQLExpression {
        .init(impl: .literal(SQL(elements: [.subquery(sqlSubquery)])))
    }
}

extension SQLSubquery: SQLSubqueryable {
    /// Returns self.
    public var sqlSubquery: SQLSubquery { self }
}
