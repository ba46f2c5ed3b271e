/// An association built from an explicit condition, often to or from a
/// common table expression.
///
/// ```swift
/// let cte = CommonTableExpression(named: "bestScore", request: ...)
/// let association = Player.association(to: cte) { player, bestScore in
///     player[Column("score")] == bestScore[Column("score")]
/// }
/// ```
public struct JoinAssociation<Origin, Destination>: AssociationToOne {
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
