/// The conflict resolutions of the `INSERT` and `UPDATE` statements run by a
/// record type, when persistence methods are not given one.
///
/// ```swift
/// struct Player: MutablePersistableRecord {
///     // INSERT OR REPLACE INTO player ...
///     static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .replace)
/// }
/// ```
public struct PersistenceConflictPolicy: Sendable {
    /// The conflict resolution of insertions.
    public let conflictResolutionForInsert: Database.ConflictResolution

    /// The conflict resolution of updates.
    public let conflictResolutionForUpdate: Database.ConflictResolution

    /// Creates a policy; `.abort` is the SQLite default.
    public init(insert: Database.ConflictResolution = .abort, update: Database.ConflictResolution = .abort) {
        conflictResolutionForInsert = insert
        conflictResolutionForUpdate = update
    }
}
