#if Macros
    // The INSERT of a `@DatabaseRecord` record: the generated code binds the
    // record's columns straight to the cached INSERT statement, in
    // declaration order, instead of filling a `PersistenceContainer` that the
    // statement then reads. The SQL is the statement that the container of
    // the record's first insert chose (same columns, same conflict
    // resolution), and the callbacks, errors and results are those of the
    // container path. Other records never take this path: the defaults below
    // say so, and their specialized insert drops the branch.

    extension MutablePersistableRecord {
        /// -1: the record binds no columns itself (not for direct use:
        /// `@DatabaseRecord` writes the member).
        @inlinable
        public static var _databaseRecordColumnCount: Int { -1 }

        /// Binds nothing (not for direct use: `@DatabaseRecord` writes the
        /// member).
        @inlinable
        public func _bindDatabaseRecordColumns(to binder: inout _DatabaseRecordBinder) throws {}

        /// Inserts a record whose generated code binds its columns, and
        /// returns nil for other records, for an INSERT ... RETURNING, and
        /// until an insert through the container has told the columns and
        /// compiled the statement.
        @inlinable
        func insertBindingColumns(
            _ db: Database, onConflict conflictResolution: Database.ConflictResolution?
        ) throws -> InsertionSuccess? {
            let columnCount = Self._databaseRecordColumnCount
            guard columnCount >= 0 else { return nil }
            let conflict = conflictResolution ?? Self.persistenceConflictPolicy.conflictResolutionForInsert
            let info = db.recordPersistenceInfo(Self.self)
            guard let statement = try info.boundInsertStatement(db, columnCount: columnCount, conflict: conflict)
            else { return nil }
            // Borrowed: `info`, which this function keeps, owns the statement
            // (its INSERT entries are never removed).
            return try statement._withUnsafeGuaranteedRef { statement in
                var binder = _DatabaseRecordBinder(statement)
                try _bindDatabaseRecordColumns(to: &binder)
                return try info.executeBoundInsert(
                    db, statement, bindCode: binder.code, deferredContainer: info.deferredContainer(for: self))
            }
        }
    }

    /// Binds the columns of a record to the parameters of an INSERT
    /// statement, in order (not for direct use: the code that
    /// `@DatabaseRecord` writes calls it).
    public struct _DatabaseRecordBinder {
        @usableFromInline let sqliteStatement: SQLiteStatement
        /// The parameter of the last bound column (parameters start at 1).
        @usableFromInline var index: CInt = 0
        /// The first failed bind's code, or `SQLITE_OK`.
        @usableFromInline var code: CInt = SQLITE_OK

        @usableFromInline
        init(_ statement: Statement) {
            sqliteStatement = statement.sqliteStatement
        }

        /// Binds a database value to the next parameter.
        @inlinable
        mutating func bind(_ value: some StatementBinding) {
            index &+= 1
            if code == SQLITE_OK {
                code = value.bind(to: sqliteStatement, at: index)
            }
        }
    }

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
            try statement.prepareExecution(isReset: true)
            if bindCode != SQLITE_OK {
                throw statement.failure(bindCode, deferredContainer.encoded().databaseValues)
            }
            while true {
                switch sqlite3_step(statement.sqliteStatement) {
                case SQLITE_DONE:
                    statement.didFinishStepping()
                    let rowID = db.lastInsertedRowID
                    deferredContainer.rowID = rowID
                    // A reused box knows the column from its previous insert.
                    if !deferredContainer.knowsRowIDColumn {
                        deferredContainer.rowIDColumn = rowIDColumn(db)
                        deferredContainer.knowsRowIDColumn = true
                    }
                    let rowIDColumn = deferredContainer.rowIDColumn
                    return InsertionSuccess(
                        rowID: rowID, rowIDColumn: rowIDColumn, deferredContainer: consume deferredContainer)
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
                return container
            }
            let container = DeferredRecordContainer(record)
            reusableDeferredContainer = container
            return container
        }
    }

    /// The container of an insert, or the record of an insert that bound
    /// its columns without one (`InsertionSuccess`, `PersistenceSuccess`):
    /// one reference to copy in the deferred case.
    @usableFromInline
    enum PersistenceContainerStorage {
        case stored(PersistenceContainer)
        case deferred(DeferredPersistenceContainer)
        /// An empty container: what a success holds once its storage moved
        /// out (nothing to release when it goes).
        case empty

        /// The container, encoded from the record in the deferred case.
        @inlinable
        var container: PersistenceContainer {
            switch self {
            case .stored(let container): container
            case .deferred(let deferred): deferred.container
            case .empty: PersistenceContainer()
            }
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

        @usableFromInline init() {}

        /// The encoded record, with the rowid.
        @usableFromInline
        var container: PersistenceContainer {
            var container = encoded()
            if let rowIDColumn {
                container.setValue(rowID, forColumn: rowIDColumn)
            }
            return container
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
#endif
