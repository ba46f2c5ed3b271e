/// An association to the record whose foreign key references the origin
/// record, when there is at most one: each team has one captain.
///
/// ```swift
/// extension Team: TableRecord {
///     static let captain = hasOne(Captain.self, using: Captain.teamForeignKey)
/// }
/// ```
public struct HasOneAssociation<Origin, Destination>: AssociationToOne {
    /// The type of the origin records.
    public typealias OriginRowDecoder = Origin

    /// The type of the associated records.
    public typealias RowDecoder = Destination

    /// The description of the association (not for direct use).
    public var _sqlAssociation: _SQLAssociation

    init(_sqlAssociation: _SQLAssociation) {
        self._sqlAssociation = _sqlAssociation
    }
}
