// The engine of the persistence methods: statements without callbacks, and
// the callback sequences that wrap them. The public methods are in the
// MutablePersistableRecord+*.swift and PersistableRecord.swift files.

extension MutablePersistableRecord {
    /// Encodes the record, expecting the columns of the previous encoding.
    @inlinable
    func persistenceContainer(_ info: RecordPersistenceInfo) throws -> PersistenceContainer {
        var container = info.makeContainer()
        try encode(to: &container)
        container.finishEncoding()
        // Checked inline: passing the container to a call retains it.
        if !container.matchesTemplate {
            info.didEncode(container)
        }
        return container
    }

    // MARK: - Callback sequences

    /// `willSave`, `aroundSave { save }`, `didSave`.
    @inlinable @discardableResult
    mutating func withSaveCallbacks(_ db: Database, _ save: (inout Self) throws -> PersistenceSuccess) throws
        -> PersistenceSuccess
    {
        try willSave(db)
        var record = self
        var success: PersistenceSuccess?
        try aroundSave(db) { try PersistenceCallback.aroundSave.run(Self.self, into: &success) { try save(&record) } }
        let saved = try PersistenceCallback.aroundSave.result(Self.self, &success)
        self = record
        didSave(saved)
        return saved
    }

    /// `willInsert`, `aroundInsert { INSERT }`, `didInsert`.
    @inlinable
    mutating func insertWithCallbacks(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        returning selection: [any SQLSelectable]? = nil,
        fetch: (Statement) throws -> Void = { _ in }
    ) throws -> InsertionSuccess {
        try withInsertCallbacks(db) { record in
            try record.insertWithoutCallbacks(db, onConflict: conflictResolution, returning: selection, fetch: fetch)
        }
    }

    /// `willInsert`, `aroundInsert { insert }`, `didInsert`: the callbacks
    /// of INSERT and upsert statements.
    @inlinable
    mutating func withInsertCallbacks(_ db: Database, _ insert: (Self) throws -> InsertionSuccess) throws
        -> InsertionSuccess
    {
        try willInsert(db)
        var success: InsertionSuccess?
        try aroundInsert(db) {
            try PersistenceCallback.aroundInsert.run(Self.self, into: &success) { try insert(self) }
        }
        let inserted = try PersistenceCallback.aroundInsert.result(Self.self, &success)
        // Called even when an IGNORE conflict resolution ignored the row.
        didInsert(inserted)
        return inserted
    }

    /// `willUpdate`, `aroundUpdate { UPDATE }`, `didUpdate`.
    func updateWithCallbacks(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        container: PersistenceContainer? = nil,
        columns: Set<String>?,
        returning selection: [any SQLSelectable]? = nil,
        fetch: (Statement) throws -> Void = { _ in }
    ) throws -> PersistenceSuccess {
        let info = db.recordPersistenceInfo(type(of: self))
        let container = try container ?? persistenceContainer(info)
        let callbackColumns = columns ?? Set(container.columns)
        try willUpdate(db, columns: callbackColumns)
        var success: PersistenceSuccess?
        try aroundUpdate(db, columns: callbackColumns) {
            try PersistenceCallback.aroundUpdate.run(Self.self, into: &success) {
                try updateWithoutCallbacks(
                    db, info: info, onConflict: conflictResolution, container: container, columns: columns,
                    returning: selection, fetch: fetch)
            }
        }
        let updated = try PersistenceCallback.aroundUpdate.result(Self.self, &success)
        didUpdate(updated)
        return updated
    }

    /// UPDATE when the primary key is set, then INSERT when no row was updated.
    mutating func updateOrInsertWithCallbacks(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        returning selection: [any SQLSelectable]? = nil,
        fetch: (Statement) throws -> Void = { _ in }
    ) throws -> PersistenceSuccess {
        let info = db.recordPersistenceInfo(type(of: self))
        let container = try persistenceContainer(info)
        let key = try PersistenceKey(columns: info.primaryKey(db).columns, container: container)
        if key.isComplete {
            do {
                return try updateWithCallbacks(
                    db, onConflict: conflictResolution, container: container, columns: nil,
                    returning: selection, fetch: fetch)
            } catch RecordError.recordNotFound {
                // Primary key is set, but no row was updated: insert.
            }
        }
        let inserted = try insertWithCallbacks(db, onConflict: conflictResolution, returning: selection, fetch: fetch)
        return PersistenceSuccess(inserted)
    }

    // MARK: - Statements

    /// Runs the INSERT statement, or the INSERT ... RETURNING statement
    /// given to `fetch`.
    ///
    /// Inlinable, with the statement work in the non-generic
    /// ``RecordPersistenceInfo/insert(_:container:conflictResolution:returning:fetch:)``:
    /// the encoding of the record is specialized for its type.
    @inlinable
    func insertWithoutCallbacks(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        returning selection: [any SQLSelectable]?,
        fetch: (Statement) throws -> Void
    ) throws -> InsertionSuccess {
        #if Macros
            if selection == nil, let inserted = try insertBindingColumns(db, onConflict: conflictResolution) {
                return inserted
            }
        #endif
        // Borrowed until the end of the insert (see `unmanagedRecordPersistenceInfo`).
        return try db.unmanagedRecordPersistenceInfo(Self.self)._withUnsafeGuaranteedRef { info in
            if selection == nil,
                let inserted = try insertBindingEncodedColumns(db, info, onConflict: conflictResolution)
            {
                return inserted
            }
            let container = try persistenceContainer(info)
            let conflict = conflictResolution ?? Self.persistenceConflictPolicy.conflictResolutionForInsert
            let inserted = try info.insert(
                db, container: container, conflictResolution: conflict, returning: selection, fetch: fetch)
            if conflict != .ignore || db.changesCount > 0 {
                // The stored container, read in place (the getter of
                // `persistenceContainer` copies it): this path filled one.
                _persistenceDidWrite(inserted.storedContainer, columns: nil)
            }
            return inserted
        }
    }

    /// Runs the UPDATE statement (or UPDATE ... RETURNING given to `fetch`)
    /// of the columns (all non-key columns when nil). Throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` when no row
    /// has the primary key.
    func updateWithoutCallbacks(
        _ db: Database,
        info: RecordPersistenceInfo,
        onConflict conflictResolution: Database.ConflictResolution?,
        container: PersistenceContainer,
        columns: Set<String>?,
        returning selection: [any SQLSelectable]?,
        fetch: (Statement) throws -> Void
    ) throws -> PersistenceSuccess {
        let key = try PersistenceKey(columns: info.primaryKey(db).columns, container: container)
        guard key.isComplete else {
            throw RecordError.recordNotFound(databaseTableName: info.tableName, key: key.dictionary)
        }
        let keyColumns = Set(key.columns.map { $0.lowercased() })
        let requestedColumns = columns.map { Set($0.map { $0.lowercased() }) }
        // SET names the columns as the table spells them, like the WHERE clause.
        let tableColumns = try db.columns(in: info.tableName).map(\.name)
        var setColumns: [String] = []
        var setValues: [DatabaseValue] = []
        for (index, column) in container.columns.enumerated() {
            let lowercased = column.lowercased()
            if keyColumns.contains(lowercased) { continue }
            if let requestedColumns, !requestedColumns.contains(lowercased) { continue }
            setColumns.append(PersistenceSQL.spelling(of: column, in: tableColumns))
            setValues.append(container.values[index])
        }
        if setColumns.isEmpty {
            // Nothing but the primary key to update: still check that the row exists.
            setColumns = key.columns
            setValues = key.values
        }
        let conflict = conflictResolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForUpdate
        var sql = "UPDATE "
        if conflict != .abort {
            sql += "OR " + conflict.rawValue + " "
        }
        sql += info.tableName.quotedDatabaseIdentifier + " SET "
        sql += PersistenceSQL.assignments(setColumns)
        sql += " WHERE " + PersistenceSQL.keyCondition(key.columns)

        let changedRowCount = try db.changedRowCount(of: info.tableName) {
            if let selection {
                let context = SQLGenerationContext(db)
                sql += try PersistenceSQL.returning(selection, tableName: info.tableName, context: context)
                let statement = try db.cachedStatement(sql: sql)
                try statement.setArguments(
                    StatementArguments(values: setValues + key.values + context.arguments.values, namedValues: [:]))
                try fetch(statement)
            } else {
                let statement = try db.cachedStatement(sql: sql)
                try statement.execute(arguments: StatementArguments(values: setValues + key.values, namedValues: [:]))
            }
        }
        if changedRowCount == 0 {
            throw RecordError.recordNotFound(databaseTableName: info.tableName, key: key.dictionary)
        }
        _persistenceDidWrite(container, columns: columns)
        return PersistenceSuccess(persistenceContainer: container)
    }

    /// Runs the DELETE statement; returns whether a row was deleted.
    func deleteWithoutCallbacks(_ db: Database) throws -> Bool {
        let info = db.recordPersistenceInfo(type(of: self))
        let container = try persistenceContainer(info)
        let key = try PersistenceKey(columns: info.primaryKey(db).columns, container: container)
        guard key.isComplete else { return false }
        let sql =
            "DELETE FROM " + info.tableName.quotedDatabaseIdentifier + " WHERE "
            + PersistenceSQL.keyCondition(key.columns)
        let changedRowCount = try db.changedRowCount(of: info.tableName) {
            try db.cachedStatement(sql: sql).execute(
                arguments: StatementArguments(values: key.values, namedValues: [:]))
        }
        _persistenceDidWrite(nil, columns: nil)
        return changedRowCount > 0
    }

    /// Whether a row has the primary key of the record.
    func existsWithoutCallbacks(_ db: Database) throws -> Bool {
        let info = db.recordPersistenceInfo(type(of: self))
        let container = try persistenceContainer(info)
        let key = try PersistenceKey(columns: info.primaryKey(db).columns, container: container)
        guard key.isComplete else { return false }
        return try Self.rowExists(db, tableName: info.tableName, key: key)
    }

    static func rowExists(_ db: Database, tableName: String, key: PersistenceKey) throws -> Bool {
        let sql =
            "SELECT EXISTS (SELECT 1 FROM " + tableName.quotedDatabaseIdentifier + " WHERE "
            + PersistenceSQL.keyCondition(key.columns) + ")"
        let statement = try db.cachedStatement(sql: sql)
        return try Bool.fetchOne(statement, arguments: StatementArguments(values: key.values, namedValues: [:]))
            ?? false
    }
}

// MARK: - Around callbacks

/// An `around...` callback, which must call the action it wraps exactly
/// once, and rethrow its error. The persistence methods check it:
///
/// ```swift
/// var success: InsertionSuccess?
/// try aroundInsert(db) {
///     try PersistenceCallback.aroundInsert.run(Self.self, into: &success) { try insertWithoutCallbacks(...) }
/// }
/// let inserted = try PersistenceCallback.aroundInsert.result(Self.self, &success)
/// ```
///
/// The result is a plain optional of the inlined persistence method (a
/// struct around it made the optimizer keep its copies).
@usableFromInline
enum PersistenceCallback: Sendable {
    case aroundSave, aroundInsert, aroundUpdate, aroundDelete

    /// Runs the action the callback wraps, and keeps its result (the last
    /// one, if the callback runs it more than once).
    @inlinable
    func run<Success>(_ recordType: Any.Type, into success: inout Success?, _ action: () throws -> Success) throws
        -> Success
    {
        let result = try action()
        success = result
        return result
    }

    /// The result of the action, once the callback returned. Throws a misuse
    /// error when the action did not run, or failed (the callback caught its
    /// error).
    @inlinable
    func result<Success>(_ recordType: Any.Type, _ success: inout Success?) throws -> Success {
        guard let result = success.take() else { throw misuse(recordType) }
        return result
    }

    /// The callback, and the name of the action it wraps.
    var names: (callback: String, action: String) {
        switch self {
        case .aroundSave: ("aroundSave(_:save:)", "save")
        case .aroundInsert: ("aroundInsert(_:insert:)", "insert")
        case .aroundUpdate: ("aroundUpdate(_:columns:update:)", "update")
        case .aroundDelete: ("aroundDelete(_:delete:)", "delete")
        }
    }

    /// The error of a callback that did not call its action, or caught its
    /// error without rethrowing it.
    @usableFromInline
    func misuse(_ recordType: Any.Type) -> DatabaseError {
        let (callback, action) = names
        let problem = "did not call its \(action) function, or did not rethrow the error of \(action)"
        return DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(recordType).\(callback) \(problem)")
    }
}
