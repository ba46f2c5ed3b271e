/// A foreign key that configures an association when the database schema
/// does not declare one (or declares several), or for views.
///
/// ```swift
/// extension Player: TableRecord {
///     static let teamForeignKey = ForeignKey(["teamId"])
///     static let team = belongsTo(Team.self, using: teamForeignKey)
/// }
/// extension Team: TableRecord {
///     static let players = hasMany(Player.self, using: Player.teamForeignKey)
/// }
/// ```
public struct ForeignKey: Equatable, Sendable {
    /// The columns of the table that holds the foreign key.
    let originColumns: [String]
    /// The referenced columns, or nil for the primary key of the referenced table.
    let destinationColumns: [String]?

    /// Creates a foreign key from the columns of the table that holds it, to
    /// the referenced columns (by default, the primary key of the referenced table).
    public init(_ originColumns: [String], to destinationColumns: [String]? = nil) {
        self.originColumns = originColumns
        self.destinationColumns = destinationColumns
    }

    /// Creates a foreign key from the columns of the table that holds it, to
    /// the referenced columns (by default, the primary key of the referenced table).
    public init(_ originColumns: [any ColumnExpression], to destinationColumns: [any ColumnExpression]? = nil) {
        self.init(originColumns.map(\.name), to: destinationColumns?.map(\.name))
    }
}
