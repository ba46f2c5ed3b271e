/// A foreign key, as returned by ``Database/foreignKeys(on:in:)``.
public struct ForeignKeyInfo: Sendable {
    /// The identifier of the foreign key in its table (`PRAGMA foreign_key_list`).
    public var id: Int

    /// The referenced table.
    public let destinationTable: String

    /// The pairs of origin and referenced columns, in key order.
    public let mapping: [(origin: String, destination: String)]

    /// The columns of the table that holds the foreign key.
    public var originColumns: [String] { mapping.map(\.origin) }

    /// The referenced columns.
    public var destinationColumns: [String] { mapping.map(\.destination) }

    init(id: Int, destinationTable: String, mapping: [(origin: String, destination: String)]) {
        self.id = id
        self.destinationTable = destinationTable
        self.mapping = mapping
    }
}
