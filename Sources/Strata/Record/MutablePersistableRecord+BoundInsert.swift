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
            // Borrowed until the end of the insert (see `unmanagedRecordPersistenceInfo`).
            return try db.unmanagedRecordPersistenceInfo(Self.self)._withUnsafeGuaranteedRef { info in
                guard let statement = try info.boundInsertStatement(db, columnCount: columnCount, conflict: conflict)
                else { return nil }
                // Borrowed: `info` owns the statement (its INSERT entries are
                // never removed).
                return try statement._withUnsafeGuaranteedRef { statement in
                    var binder = _DatabaseRecordBinder(statement)
                    try _bindDatabaseRecordColumns(to: &binder)
                    return try info.executeBoundInsert(
                        db, statement, bindCode: binder.code, deferredContainer: info.deferredContainer(for: self))
                }
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
#endif
