// The INSERT whose parameters are bound without a `PersistenceContainer`:
// the cached statement of the columns of the record type's last encoding,
// its execution, and the container of the insertion's success, encoded from
// the record only when someone reads it. Two paths bind the parameters: the
// code that `@DatabaseRecord` generates (MutablePersistableRecord+BoundInsert
// .swift, Macros trait), and the encoder of `Encodable` records
// (MutablePersistableRecord+EncodedInsert.swift).

extension RecordPersistenceInfo {
    /// The cached INSERT statement of the columns of the last encoding,
    /// reset for binding, unretained (the entries of `insertStatement`
    /// own it); nil before the first encoding, or when it wrote another
    /// number of columns than the record binds (two properties in one
    /// column).
    @usableFromInline
    func boundInsertStatement(
        _ db: Database, columnCount: Int, conflict: Database.ConflictResolution
    ) throws -> Unmanaged<Statement>? {
        let statement: Unmanaged<Statement>
        if let cached = templateInsert, cached.conflict == conflict, cached.columnCount == columnCount {
            statement = cached.statement
        } else {
            // The insert through the container that set the template read
            // the schema already (rowIDColumn): the INSERT is the last
            // statement executed.
            guard let columns = encodingTemplate, columns.count == columnCount else { return nil }
            statement = try Unmanaged.passUnretained(
                insertStatement(db, columns: columns, conflictResolution: conflict))
            templateInsert = (statement, conflict, columnCount)
        }
        return statement._withUnsafeGuaranteedRef { statement -> Unmanaged<Statement>? in
            // Arguments that `execute(arguments:)` cleared would be bound again.
            guard !statement.bindingsWereCleared else { return nil }
            statement.reset()
            return Unmanaged.passUnretained(statement)
        }
    }
}

extension RecordPersistenceInfo {
    /// Executes the INSERT whose parameters are bound, and returns what
    /// the container path returns. The record's container gives the
    /// arguments of an error message.
    @usableFromInline
    func executeBoundInsert(
        _ db: Database, _ statement: Statement, bindCode: CInt,
        deferredContainer: consuming DeferredPersistenceContainer
    ) throws -> InsertionSuccess {
        // `consuming`: the success takes the caller's reference, which
        // it would otherwise copy (a retain, and the caller's release).
        try statement.beginExecution(isReset: true)
        if bindCode != SQLITE_OK {
            throw statement.failure(bindCode, deferredContainer.encoded().databaseValues)
        }
        while true {
            switch sqlite3_step(statement.sqliteStatement) {
            case SQLITE_DONE:
                statement.endExecution()
                let rowID = db.lastInsertedRowID
                deferredContainer.rowID = rowID
                // A reused box knows the column from its previous insert.
                if !deferredContainer.knowsRowIDColumn {
                    deferredContainer.rowIDColumn = rowIDColumn(db)
                    deferredContainer.knowsRowIDColumn = true
                }
                let rowIDColumn = deferredContainer.rowIDColumn
                // The memberwise initializer: with an initializer of its
                // own, the success was copied into the result, and the copy
                // destroyed.
                return InsertionSuccess(
                    rowID: rowID, rowIDColumn: rowIDColumn, storedContainer: PersistenceContainer(),
                    deferredContainer: consume deferredContainer)
            case SQLITE_ROW:
                statement.steppedRowCount &+= 1
            case let code:
                throw statement.failure(code, deferredContainer.encoded().databaseValues)
            }
        }
    }
}

extension RecordPersistenceInfo {
    /// A deferred container of the record: the one of the previous
    /// insert when nobody keeps it any longer (the previous insertion
    /// success is gone), so that inserts do not allocate one each.
    @inlinable
    func deferredContainer<Record: EncodableRecord>(for record: Record) -> DeferredPersistenceContainer {
        if isKnownUniquelyReferenced(&reusableDeferredContainer) {
            // Only this record type's inserts store one in its info.
            let container = unsafeDowncast(reusableDeferredContainer!, to: DeferredRecordContainer<Record>.self)
            container.record = record
            container.forgetContainer()
            return container
        }
        let container = DeferredRecordContainer(record)
        reusableDeferredContainer = container
        return container
    }
}

/// The container of an insert that bound its columns: encoded when
/// someone reads it (`didInsert`, `didSave`, `aroundInsert`), with the
/// rowid in the INTEGER PRIMARY KEY column, as the container path
/// would have returned it.
@usableFromInline
class DeferredPersistenceContainer {
    /// The rowid of the inserted row.
    @exclusivity(unchecked) var rowID: Int64 = 0
    /// The INTEGER PRIMARY KEY column, if any.
    @exclusivity(unchecked) var rowIDColumn: String?
    /// Whether `rowIDColumn` was read from the table's schema.
    @exclusivity(unchecked) var knowsRowIDColumn = false

    /// The container, once read: a callback that reads several values
    /// encodes the record once. Valid while `encodedGeneration` is
    /// `generation` (a reused box counts its records, rather than
    /// destroying the previous record's container at each insert).
    @exclusivity(unchecked) private var encodedContainer: PersistenceContainer?
    @exclusivity(unchecked) private var encodedGeneration = 0
    @exclusivity(unchecked) private var generation = 1

    @usableFromInline init() {}

    /// The encoded record, with the rowid.
    @usableFromInline
    var container: PersistenceContainer {
        if encodedGeneration == generation, let encodedContainer { return encodedContainer }
        var container = encoded()
        if let rowIDColumn {
            container.setValue(rowID, forColumn: rowIDColumn)
        }
        encodedContainer = container
        encodedGeneration = generation
        return container
    }

    /// Forgets the container of the previous record (a reused box).
    @usableFromInline
    func forgetContainer() {
        generation &+= 1
    }

    func encoded() -> PersistenceContainer {
        PersistenceContainer()
    }
}

@usableFromInline
final class DeferredRecordContainer<Record: EncodableRecord>: DeferredPersistenceContainer {
    @usableFromInline @exclusivity(unchecked) var record: Record

    @usableFromInline
    init(_ record: Record) {
        self.record = record
    }

    override func encoded() -> PersistenceContainer {
        // The record was encoded without error into the statement.
        (try? PersistenceContainer(record)) ?? PersistenceContainer()
    }
}
