/// Which columns an upsert updates when the row already exists.
///
/// ```swift
/// // ON CONFLICT DO UPDATE SET score = excluded.score
/// try player.upsertAndFetch(db, updating: .noColumnUnlessSpecified) { excluded in
///     [Column("score").set(to: excluded[Column("score")])]
/// }
/// ```
public struct UpsertUpdateStrategy: OptionSet, Sendable {
    /// The bits of the strategy, one per static member.
    public let rawValue: Int

    /// Creates a strategy from a raw value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// All inserted columns but the primary key and conflict target are
    /// overwritten, unless `doUpdate` assigns them.
    public static let allColumns: UpsertUpdateStrategy = []

    /// Only the columns assigned by `doUpdate` are updated.
    public static let noColumnUnlessSpecified = UpsertUpdateStrategy(rawValue: 1)
}
