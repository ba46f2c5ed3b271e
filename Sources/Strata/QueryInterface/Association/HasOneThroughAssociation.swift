/// An association to one record, through a to-one pivot association: a
/// book has one country through its author.
///
/// ```swift
/// extension Book: TableRecord {
///     static let author = belongsTo(Author.self)
///     static let country = hasOne(Country.self, through: author, using: Author.country)
/// }
/// ```
public struct HasOneThroughAssociation<Origin, Destination>: AssociationToOne {
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
