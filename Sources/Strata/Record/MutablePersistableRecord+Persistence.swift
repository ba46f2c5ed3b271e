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
        info.didEncode(container)
        return container
    }

    // MARK: - Callback sequences

    /// The error of an `around...` callback that did not call its action,
    /// or caught the action's error without rethrowing it.
    @usableFromInline
    static func callbackMisuse(_ callback: String, action: String) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "\(Self.self).\(callback) did not call its \(action) function, "
                + "or did not rethrow the error of \(action)")
    }

    /// `willSave`, `aroundSave { save }`, `didSave`.
    @inlinable @discardableResult
    mutating func withSaveCallbacks(_ db: Database, _ save: (inout Self) throws -> PersistenceSuccess) throws
        -> PersistenceSuccess
    {
        try willSave(db)
        var record = self
        var saved: PersistenceSuccess?
        try aroundSave(db) {
            let success = try save(&record)
            saved = success
            return success
        }
        guard let saved = saved.take() else {
            throw Self.callbackMisuse("aroundSave(_:save:)", action: "save")
        }
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
        try willInsert(db)
        var inserted: InsertionSuccess?
        try aroundInsert(db) {
            let success = try insertWithoutCallbacks(
                db, onConflict: conflictResolution, returning: selection, fetch: fetch)
            inserted = success
            return success
        }
        guard let inserted = inserted.take() else {
            throw Self.callbackMisuse("aroundInsert(_:insert:)", action: "insert")
        }
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
        var updated: PersistenceSuccess?
        try aroundUpdate(db, columns: callbackColumns) {
            let success = try updateWithoutCallbacks(
                db, info: info, onConflict: conflictResolution, container: container, columns: columns,
                returning: selection, fetch: fetch)
            updated = success
            return success
        }
        guard let updated = updated.take() else {
            throw Self.callbackMisuse("aroundUpdate(_:columns:update:)", action: "update")
        }
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
        let info = db.recordPersistenceInfo(Self.self)
        let container = try persistenceContainer(info)
        let conflict = conflictResolution ?? Self.persistenceConflictPolicy.conflictResolutionForInsert
        let inserted = try info.insert(
            db, container: container, conflictResolution: conflict, returning: selection, fetch: fetch)
        if info.isRecordClass && (conflict != .ignore || db.changesCount > 0) {
            (self as! Record).referenceContainer = inserted.persistenceContainer
        }
        return inserted
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
        var setColumns: [String] = []
        var setValues: [DatabaseValue] = []
        for (index, column) in container.columns.enumerated() {
            let lowercased = column.lowercased()
            if keyColumns.contains(lowercased) { continue }
            if let requestedColumns, !requestedColumns.contains(lowercased) { continue }
            setColumns.append(column)
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

        let changedRowCount = try db.changedRowCount {
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
        if info.isRecordClass {
            let record = self as! Record
            if let columns, var reference = record.referenceContainer {
                for column in columns {
                    if let value = container.databaseValue(forColumn: column) {
                        reference.setValue(value, forColumn: column)
                    }
                }
                record.referenceContainer = reference
            } else {
                record.referenceContainer = container
            }
        }
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
        let changedRowCount = try db.changedRowCount {
            try db.cachedStatement(sql: sql).execute(
                arguments: StatementArguments(values: key.values, namedValues: [:]))
        }
        if info.isRecordClass {
            (self as! Record).referenceContainer = nil
        }
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
