/// An expression that refers to a column: `Column("name")`, or the cases of a
/// `Columns` enum.
public protocol ColumnExpression: SQLSpecificExpressible {
    /// The unqualified name of the column.
    var name: String { get }
}

extension ColumnExpression {
    /// The column, as an expression.
    public var sqlExpression: SQLExpression {
        .init(impl: .column(name))
    }
}

extension ColumnExpression where Self: RawRepresentable, Self.RawValue == String {
    /// The raw value of a `String` enum is the column name.
    public var name: String { rawValue }
}

/// A column of a table.
///
/// ```swift
/// let nameColumn = Column("name")
/// let name: String = row[nameColumn]
/// ```
public struct Column: ColumnExpression, Sendable {
    /// The name of the column.
    public var name: String

    /// The hidden `rowid` column.
    public static let rowID = Column("rowid")

    /// The hidden `rank` column of full-text tables.
    public static let rank = Column("rank")

    /// Creates a column with a name.
    public init(_ name: String) {
        self.name = name
    }

    /// Creates a column named like a coding key.
    public init(_ codingKey: some CodingKey) {
        self.name = codingKey.stringValue
    }
}
