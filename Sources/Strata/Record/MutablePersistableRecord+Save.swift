extension MutablePersistableRecord {
    /// Updates the record when its primary key is set and a row has it,
    /// and inserts it otherwise.
    ///
    /// ```swift
    /// try player.save(db) // INSERT or UPDATE
    /// ```
    ///
    /// Callbacks: `willSave`, `aroundSave`, then those of the update, or of
    /// the insert, and `didSave`.
    ///
    /// - Complexity: Runs an `UPDATE`, then an `INSERT` when no row was updated (or the `INSERT`
    ///   alone, without a primary key).
    public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil)
        throws
    {
        try saveWithAllCallbacks(db, onConflict: conflictResolution)
    }

    mutating func saveWithAllCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?)
        throws
    {
        try withSaveCallbacks(db) { record in
            try record.updateOrInsertWithCallbacks(db, onConflict: conflictResolution)
        }
    }

    /// Saves a copy of the record, and returns it, as modified by the
    /// insertion callbacks when it was inserted.
    public func saved(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
        -> Self
    {
        var record = self
        try record.saveWithAllCallbacks(db, onConflict: conflictResolution)
        return record
    }

    /// Saves a copy of the record, and returns the saved row, fetched with
    /// `RETURNING`.
    ///
    /// - Complexity: Runs an `UPDATE ... RETURNING`, then an `INSERT ... RETURNING` when no row was
    ///   updated.
    public func saveAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil)
        throws -> Self where Self: FetchableRecord
    {
        var record = self
        return try record.writeAndFetch(.save, db, onConflict: conflictResolution, as: Self.self)
    }

    /// Saves the record, and returns the saved row decoded as another
    /// record type, fetched with `RETURNING`.
    ///
    /// - Complexity: Runs an `UPDATE ... RETURNING`, then an `INSERT ... RETURNING` when no row was
    ///   updated.
    public mutating func saveAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type
    ) throws -> T {
        try writeAndFetch(.save, db, onConflict: conflictResolution, as: returnedType)
    }

    /// Saves the record, and returns what `fetch` reads from the
    /// `INSERT ... RETURNING` or `UPDATE ... RETURNING` statement.
    ///
    /// - Complexity: Runs an `UPDATE ... RETURNING`, then an `INSERT ... RETURNING` when no row was
    ///   updated.
    public mutating func saveAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T
    ) throws -> T {
        try writeAndFetch(.save, db, onConflict: conflictResolution, returning: selection, fetch: fetch)
    }
}
