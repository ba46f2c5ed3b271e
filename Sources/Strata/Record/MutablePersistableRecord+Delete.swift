extension MutablePersistableRecord {
    /// Deletes the row with the primary key of the record, and returns
    /// whether a row was deleted.
    ///
    /// ```swift
    /// try player.delete(db)
    /// ```
    ///
    /// Callbacks: `willDelete`, `aroundDelete`, `didDelete`.
    ///
    /// - Complexity: Runs one `DELETE` statement, between the persistence callbacks.
    @discardableResult
    public func delete(_ db: Database) throws -> Bool {
        try willDelete(db)
        var success: Bool?
        try aroundDelete(db) {
            try PersistenceCallback.aroundDelete.run(Self.self, into: &success) { try deleteWithoutCallbacks(db) }
        }
        let deleted = try PersistenceCallback.aroundDelete.result(Self.self, &success)
        didDelete(deleted: deleted)
        return deleted
    }

    /// Whether a row has the primary key of the record. False when the
    /// primary key is nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads one row at most.
    public func exists(_ db: Database) throws -> Bool {
        try existsWithoutCallbacks(db)
    }
}
