/// An association to the records whose foreign key references the origin
/// record: each author has many books.
///
/// ```swift
/// extension Author: TableRecord {
///     static let books = hasMany(Book.self)
/// }
/// ```
public struct HasManyAssociation<Origin, Destination>: AssociationToMany {
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
