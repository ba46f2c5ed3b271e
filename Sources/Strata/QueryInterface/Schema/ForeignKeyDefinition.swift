/// The foreign key of ``TableDefinition/belongsTo(_:inTable:onDelete:onUpdate:deferred:indexed:)``,
/// configured with chained methods: `t.belongsTo("team").notNull()`.
public final class ForeignKeyDefinition {
    let name: String
    let table: String?
    let deleteAction: Database.ForeignKeyAction?
    let updateAction: Database.ForeignKeyAction?
    let isDeferred: Bool
    let isIndexed: Bool
    /// `.some(nil)`: NOT NULL without conflict clause.
    var notNullConflictResolution: Database.ConflictResolution??
    var isUnique = false

    init(
        name: String,
        table: String?,
        deleteAction: Database.ForeignKeyAction?,
        updateAction: Database.ForeignKeyAction?,
        isDeferred: Bool,
        isIndexed: Bool
    ) {
        self.name = name
        self.table = table
        self.deleteAction = deleteAction
        self.updateAction = updateAction
        self.isDeferred = isDeferred
        self.isIndexed = isIndexed
    }

    /// Adds NOT NULL constraints to the foreign key columns.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullConflictResolution = .some(conflictResolution)
        return self
    }

    /// Makes the foreign key unique (a unique index instead of an index).
    @discardableResult
    public func unique() -> Self {
        isUnique = true
        return self
    }
}
