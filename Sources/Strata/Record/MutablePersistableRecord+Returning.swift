// The shared plumbing of `insertAndFetch` and `saveAndFetch`: both write the
// record inside the save callbacks, with a RETURNING clause, and hand the
// statement to a fetch function.

/// The write of a `...AndFetch` method.
enum ReturningWrite {
    /// `INSERT ... RETURNING`, with the insertion callbacks.
    case insert
    /// `UPDATE ... RETURNING` when the row exists, `INSERT ... RETURNING`
    /// otherwise, with the callbacks of the statement that runs.
    case save
}

extension MutablePersistableRecord {
    /// Writes the record, and returns what `fetch` reads from the
    /// `RETURNING` statement of the selection.
    mutating func writeAndFetch<T>(
        _ write: ReturningWrite,
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        returning selection: [any SQLSelectable],
        fetch: (Statement) throws -> T
    ) throws -> T {
        var fetched: T?
        try withSaveCallbacks(db) { record in
            switch write {
            case .insert:
                let inserted = try record.insertWithCallbacks(
                    db, onConflict: conflictResolution, returning: selection,
                    fetch: { fetched = try fetch($0) })
                return PersistenceSuccess(inserted)
            case .save:
                return try record.updateOrInsertWithCallbacks(
                    db, onConflict: conflictResolution, returning: selection,
                    fetch: { fetched = try fetch($0) })
            }
        }
        guard let fetched else {
            fatalError("\(type(of: self)): the \(write == .insert ? "inserted" : "saved") row was not fetched")
        }
        return fetched
    }

    /// Writes the record, and returns the written row decoded as a `T`
    /// record. Throws ``RecordError/recordNotFound(databaseTableName:key:)``
    /// when the statement returns no row.
    mutating func writeAndFetch<T: FetchableRecord & TableRecord>(
        _ write: ReturningWrite,
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        as returnedType: T.Type
    ) throws -> T {
        let beforeWrite = self
        let selection = T.databaseSelection
        return try writeAndFetch(write, db, onConflict: conflictResolution, returning: selection) {
            guard let row = try T.fetchOne($0) else { throw beforeWrite.recordNotFound(db) }
            return row
        }
    }
}
