/// A column that contains JSON text.
///
/// ```swift
/// struct Player: FetchableRecord, TableRecord {
///     enum Columns {
///         static let address = JSONColumn("address")
///     }
/// }
///
/// // SELECT * FROM player WHERE address ->> 'country' = 'DE'
/// let germanPlayers = try Player.filter { $0.address["country"] == "DE" }.fetchAll(db)
/// ```
public struct JSONColumn: ColumnExpression, SQLJSONExpressible, Sendable {
    /// The name of the column.
    public var name: String

    /// Creates a column whose JSON content can be queried with `->`, `->>` and the JSON functions.
    public init(_ name: String) {
        self.name = name
    }

    /// A JSON column named like a coding key.
    public init(_ codingKey: some CodingKey) {
        self.name = codingKey.stringValue
    }
}

extension ColumnExpression where Self: SQLJSONExpressible {
    /// The column, as a JSON expression: your own column types that adopt
    /// ``SQLJSONExpressible`` are embedded as JSON by the JSON functions.
    public var sqlExpression: SQLExpression {
        SQLExpression(impl: .column(name)).asJSONValue
    }
}
