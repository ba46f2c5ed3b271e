/// An association to the record referenced by a foreign key of the origin
/// table: each book belongs to its author.
///
/// ```swift
/// extension Book: TableRecord {
///     static let author = belongsTo(Author.self)
/// }
/// ```
public struct BelongsToAssociation<Origin, Destination>: AssociationToOne {
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
