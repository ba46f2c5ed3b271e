/// A column assignment in an `UPDATE` statement: `Column("score").set(to: 0)`,
/// `Column("score") += 1`.
public struct ColumnAssignment: Sendable {
    let columnName: String
    let value: SQLExpression

    /// `"column" = value`.
    func sql(_ context: SQLGenerationContext) throws -> String {
        try columnName.quotedDatabaseIdentifier + " = " + value.sql(context)
    }
}

extension ColumnExpression {
    /// Assigns a value or expression (nil is NULL) to the column.
    public func set(to value: (any SQLExpressible)?) -> ColumnAssignment {
        ColumnAssignment(columnName: name, value: value?.sqlExpression ?? .null)
    }

    /// Keeps the existing value of the column: `"column" = "column"`.
    public var noOverwrite: ColumnAssignment {
        ColumnAssignment(columnName: name, value: SQLExpression(impl: .column(name)))
    }

    /// The column, not qualified by any table alias.
    public var detached: SQLExpression {
        .unqualifiedIdentifier(name)
    }

    /// `"column" = "column" + value`.
    public static func += (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.updated(by: "+", value)
    }

    /// `"column" = "column" - value`.
    public static func -= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.updated(by: "-", value)
    }

    /// `"column" = "column" * value`.
    public static func *= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.updated(by: "*", value)
    }

    /// `"column" = "column" / value`.
    public static func /= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.updated(by: "/", value)
    }

    /// `"column" = "column" & value`.
    public static func &= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.updated(by: "&", value)
    }

    /// `"column" = "column" | value`.
    public static func |= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.updated(by: "|", value)
    }

    /// `"column" = "column" << value`.
    public static func <<= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.updated(by: "<<", value)
    }

    /// `"column" = "column" >> value`.
    public static func >>= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.updated(by: ">>", value)
    }

    /// `"column" = "column" <op> operand`: a new value computed from the current one.
    private func updated(by sqlOperator: String, _ operand: some SQLExpressible) -> ColumnAssignment {
        set(to: SQLExpression(impl: .binary(sqlOperator, sqlExpression, operand.sqlExpression)))
    }
}
