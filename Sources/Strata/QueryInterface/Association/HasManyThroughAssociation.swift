/// An association to many records, through a pivot association: a
/// country has many citizens through its citizenships.
///
/// ```swift
/// extension Country: TableRecord {
///     static let citizenships = hasMany(Citizenship.self)
///     static let citizens = hasMany(Person.self, through: citizenships, using: Citizenship.person)
/// }
/// ```
public struct HasManyThroughAssociation<Origin, Destination>: AssociationToMany {
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
