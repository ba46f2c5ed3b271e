/// A type that can be used as an SQL expression: values, columns, expressions.
public protocol SQLExpressible {
    /// The SQL expression of this value.
    var sqlExpression: SQLExpression { get }
}

/// A type that can be selected: columns, expressions, `AllColumns`...
public protocol SQLSelectable {
    /// What this value adds to the `SELECT` list of a request (`select(...)`).
    var sqlSelection: SQLSelection { get }
}

/// A type that can be used to sort: columns, expressions, orderings.
public protocol SQLOrderingTerm {
    /// What this value adds to the `ORDER BY` clause of a request (`order(...)`).
    var sqlOrdering: SQLOrdering { get }
}

/// An SQL expression that is not a plain value: columns, expressions, SQL literals.
///
/// Operators on these types build expressions (`Column("score") > 1000`).
public protocol SQLSpecificExpressible: SQLExpressible, SQLOrderingTerm, SQLSelectable {}

extension SQLSpecificExpressible {
    /// The expression, selected.
    public var sqlSelection: SQLSelection { .init(impl: .expression(sqlExpression)) }

    /// The expression, used as an ordering term.
    public var sqlOrdering: SQLOrdering { .init(impl: .expression(sqlExpression)) }
}
