/// An SQL literal: SQL text with embedded values, expressions and requests.
///
/// Interpolated values are bound as statement arguments, never spliced in:
///
/// ```swift
/// let name = "O'Brien"
/// try db.execute(literal: "UPDATE player SET name = \(name) WHERE id = \(id)")
/// // UPDATE player SET name = ? WHERE id = ? with arguments ["O'Brien", 1]
/// ```
public struct SQL: Sendable {
    enum Element: Sendable {
        case sql(String, StatementArguments)
        case expression(SQLExpression)
        case selection(SQLSelection)
        case ordering(SQLOrdering)
        case subquery(SQLSubquery)

        var isEmpty: Bool {
            if case .sql(let sql, let arguments) = self {
                return sql.isEmpty && arguments.isEmpty
            }
            return false
        }

        func sql(_ context: SQLGenerationContext) throws -> String {
            switch self {
            case .sql(let sql, let arguments):
                if !context.append(arguments: arguments) {
                    throw DatabaseError(
                        resultCode: .SQLITE_MISUSE,
                        message: "conflicting named arguments in SQL literal",
                        sql: sql)
                }
                return sql
            case .expression(let expression):
                if let subquery = expression.topLevelSubquery { return try subquery.sql(context) }
                return try expression.sql(context)
            case .selection(let selection):
                if case .expression(let expression) = selection.impl, let subquery = expression.topLevelSubquery {
                    return try subquery.sql(context)
                }
                return try selection.sql(context)
            case .ordering(let ordering):
                if case .expression(let expression) = ordering.impl, let subquery = expression.topLevelSubquery {
                    return try subquery.sql(context)
                }
                return try ordering.sql(context)
            case .subquery(let subquery):
                // As is: the literal writes any parentheses around it.
                return try subquery.sql(context)
            }
        }
    }

    /// The pieces of the literal, in order.
    var elements: [Element]

    init(elements: [Element]) {
        self.elements = elements
    }

    /// Creates a literal from raw SQL and its arguments.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements = [.sql(sql, arguments)]
    }

    /// Creates a literal from an expression.
    public init(_ expression: some SQLSpecificExpressible) {
        elements = [.expression(expression.sqlExpression)]
    }

    /// True when the literal holds no SQL and no argument.
    public var isEmpty: Bool {
        !elements.contains { !$0.isEmpty }
    }

    /// The literal as raw SQL and arguments, ready to be executed.
    public func build(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        let context = SQLGenerationContext(db)
        return try (sql(context), context.arguments)
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        try elements.reduce(into: "") { result, element in
            result += try element.sql(context)
        }
    }

    /// Appends a literal.
    public mutating func append(literal sqlLiteral: SQL) {
        elements += sqlLiteral.elements
    }

    /// Appends raw SQL and its arguments.
    public mutating func append(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements.append(.sql(sql, arguments))
    }

    /// Concatenates two literals.
    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        SQL(elements: lhs.elements + rhs.elements)
    }

    /// Appends a literal.
    public static func += (lhs: inout SQL, rhs: SQL) {
        lhs.elements += rhs.elements
    }
}

extension SQL: SQLSpecificExpressible {
    /// The literal as an expression.
    public var sqlExpression: SQLExpression { .init(impl: .literal(self)) }

    /// The literal as a selection.
    public var sqlSelection: SQLSelection { .init(impl: .literal(self)) }

    /// The literal as an ordering term.
    public var sqlOrdering: SQLOrdering { .init(impl: .literal(self)) }
}

extension SQL: ExpressibleByStringInterpolation {
    /// Creates a literal of raw SQL without arguments from a string literal: `let sql: SQL = "..."`.
    /// A literal with interpolations goes through `init(stringInterpolation:)` instead.
    public init(stringLiteral: String) {
        self.init(sql: stringLiteral)
    }

    /// Creates a literal of raw SQL without arguments from a one-scalar literal.
    public init(unicodeScalarLiteral: String) {
        self.init(sql: unicodeScalarLiteral)
    }

    /// Creates a literal of raw SQL without arguments from a one-character literal.
    public init(extendedGraphemeClusterLiteral: String) {
        self.init(sql: extendedGraphemeClusterLiteral)
    }

    /// A literal built by string interpolation.
    public init(stringInterpolation sqlInterpolation: SQLInterpolation) {
        self.init(elements: sqlInterpolation.elements)
    }
}

extension Sequence where Element == SQL {
    /// Joins literals with a separator: `[a, b].joined(separator: ", ")`.
    public func joined(separator: String = "") -> SQL {
        SQL.joining(self, separator: separator, elementCount: underestimatedCount)
    }
}

extension Collection where Element == SQL {
    /// Joins literals with a separator: `[a, b].joined(separator: ", ")`.
    public func joined(separator: String = "") -> SQL {
        SQL.joining(self, separator: separator, elementCount: count)
    }
}

extension SQL {
    /// The literals, separated by `separator`.
    fileprivate static func joining(_ literals: some Sequence<SQL>, separator: String, elementCount: Int) -> SQL {
        var result: [SQL.Element] = []
        result.reserveCapacity(elementCount * (separator.isEmpty ? 1 : 2))
        var first = true
        for literal in literals {
            if first {
                first = false
            } else if !separator.isEmpty {
                result.append(.sql(separator, StatementArguments()))
            }
            result += literal.elements
        }
        return SQL(elements: result)
    }
}

/// Returns `count` question marks separated by commas (`"?,?,?"`), to write the parameters of
/// an `IN (...)` list or a `VALUES (...)` clause in raw SQL.
public func databaseQuestionMarks(count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ",")
}

extension SQL {
    /// True for the literal `0`, without arguments.
    var isZeroLiteral: Bool {
        guard elements.count == 1, case .sql("0", let arguments) = elements[0] else { return false }
        return arguments.isEmpty
    }
}
