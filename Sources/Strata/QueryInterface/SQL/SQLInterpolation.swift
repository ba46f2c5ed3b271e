import Foundation

/// Builds ``SQL`` literals from string interpolations.
///
/// Interpolated values become statement arguments; expressions, selections and
/// subqueries embed their SQL; `\(identifier: name)` quotes an identifier.
public struct SQLInterpolation: StringInterpolationProtocol, Sendable {
    var elements: [SQL.Element]

    /// Creates an empty interpolation.
    public init(literalCapacity: Int, interpolationCount: Int) {
        elements = []
        elements.reserveCapacity(interpolationCount * 2 + 1)
    }

    /// Appends raw SQL text.
    public mutating func appendLiteral(_ sql: String) {
        if sql.isEmpty { return }
        if case .sql(let previous, let arguments)? = elements.last {
            elements[elements.count - 1] = .sql(previous + sql, arguments)
        } else {
            elements.append(.sql(sql, StatementArguments()))
        }
    }

    /// Appends raw SQL and its arguments: `\(sql: "name = ?", arguments: [name])`.
    public mutating func appendInterpolation(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements.append(.sql(sql, arguments))
    }

    /// Appends another literal.
    public mutating func appendInterpolation(_ sqlLiteral: SQL) {
        elements += sqlLiteral.elements
    }

    /// Appends another literal.
    public mutating func appendInterpolation(literal sqlLiteral: SQL) {
        elements += sqlLiteral.elements
    }

    /// Appends a quoted identifier: `\(identifier: "order")` gives `"order"`.
    public mutating func appendInterpolation(identifier: String) {
        appendLiteral(identifier.quotedDatabaseIdentifier)
    }

    /// Appends a value or expression; nil is NULL. Values are bound as arguments.
    /// A request is appended as is, as a subquery without parentheses.
    public mutating func appendInterpolation(_ expressible: (any SQLExpressible)?) {
        elements.append(.expression(expressible?.sqlExpression ?? .null))
    }

    /// Appends a string value, bound as an argument.
    public mutating func appendInterpolation<S>(_ string: S) where S: StringProtocol {
        elements.append(.expression(String(string).sqlExpression))
    }

    /// Appends an expression that is also selectable and orderable (columns,
    /// expressions). A request is appended as is, as a subquery without
    /// parentheses.
    public mutating func appendInterpolation(_ expressible: some SQLExpressible & SQLOrderingTerm & SQLSelectable) {
        elements.append(.expression(expressible.sqlExpression))
    }

    /// Appends a selection. A request is appended as is, as a subquery
    /// without parentheses.
    public mutating func appendInterpolation(_ selection: some SQLSelectable) {
        elements.append(.selection(selection.sqlSelection))
    }

    /// Appends a selection; nil is NULL. A request is appended as is, as a
    /// subquery without parentheses.
    public mutating func appendInterpolation(_ selection: (any SQLSelectable)?) {
        if let selection {
            elements.append(.selection(selection.sqlSelection))
        } else {
            elements.append(.expression(.null))
        }
    }

    /// Appends an ordering term. A request is appended as is, as a subquery
    /// without parentheses.
    public mutating func appendInterpolation(_ orderingTerm: some SQLOrderingTerm) {
        elements.append(.ordering(orderingTerm.sqlOrdering))
    }

    /// Appends an ordering term. A request is appended as is, as a subquery
    /// without parentheses.
    public mutating func appendInterpolation(_ orderingTerm: any SQLOrderingTerm) {
        elements.append(.ordering(orderingTerm.sqlOrdering))
    }

    /// Appends the SQL of a request as is, without parentheses: the literal
    /// writes them where SQL needs them (`SELECT * FROM (\(request))`).
    public mutating func appendInterpolation(_ subquery: some SQLSubqueryable) {
        elements.append(.subquery(subquery.sqlSubquery))
    }

    /// Appends a coding key as a quoted column name.
    public mutating func appendInterpolation(_ key: some CodingKey) {
        appendInterpolation(identifier: key.stringValue)
    }

    /// Appends a coding key as a quoted column name.
    public mutating func appendInterpolation(_ key: any CodingKey) {
        appendInterpolation(identifier: key.stringValue)
    }

    /// Appends a coding key that is also an expression (a `Columns` enum case) as a column.
    public mutating func appendInterpolation(_ key: some SQLExpressible & SQLOrderingTerm & SQLSelectable & CodingKey) {
        elements.append(.expression(key.sqlExpression))
    }

    /// Appends a list of values between parentheses: `\([1, 2, 3])` gives `(?,?,?)`.
    public mutating func appendInterpolation(_ sequence: some Sequence<any SQLExpressible>) {
        appendList(sequence.map(\.sqlExpression))
    }

    /// Appends a list of values between parentheses: `\([1, 2, 3])` gives `(?,?,?)`.
    public mutating func appendInterpolation(_ sequence: some Sequence<some SQLExpressible>) {
        appendList(sequence.map(\.sqlExpression))
    }

    /// Appends an expressible sequence (such as an array of values) as a list.
    public mutating func appendInterpolation<S>(_ expressible: S)
    where S: SQLExpressible, S: Sequence, S.Element: SQLExpressible {
        appendList(expressible.map(\.sqlExpression))
    }

    /// Appends a collation name.
    public mutating func appendInterpolation(_ collation: Database.CollationName) {
        appendLiteral(collation.rawValue)
    }

    /// Appends a collation name.
    public mutating func appendInterpolation(_ collation: DatabaseCollation) {
        appendLiteral(collation.name)
    }

    /// Appends `(a,b,c)`, or `(SELECT NULL WHERE NULL)` for an empty list
    /// (a list without any value, that stays valid SQL after `IN`).
    private mutating func appendList(_ expressions: [SQLExpression]) {
        if expressions.isEmpty {
            appendLiteral("(SELECT NULL WHERE NULL)")
            return
        }
        appendLiteral("(")
        for (i, expression) in expressions.enumerated() {
            if i > 0 { appendLiteral(",") }
            elements.append(.expression(expression))
        }
        appendLiteral(")")
    }
}
