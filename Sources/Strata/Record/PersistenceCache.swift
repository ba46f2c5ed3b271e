// What persistence methods remember about a record type, per connection:
// its primary key, whether its table is a view, and its INSERT statements.
// Stored in the schema cache, so that schema changes clear it.

/// The facts and statements of the persistence methods of one record type.
@usableFromInline
final class RecordPersistenceInfo {
    /// An INSERT statement for some columns and conflict resolution.
    struct InsertEntry {
        var columns: [String]
        var conflictResolution: Database.ConflictResolution
        var statement: Statement
    }

    /// The record type.
    let typeID: ObjectIdentifier
    let tableName: String
    private var primaryKeyResult: Result<PrimaryKeyInfo, any Error>?
    private var isViewValue: Bool?
    /// Whether RETURNING "rowid" works (false for views and WITHOUT ROWID tables).
    var hasRowID: Bool?
    @exclusivity(unchecked) private var insertEntries: [InsertEntry] = []
    @exclusivity(unchecked) private var lastInsertIndex = 0
    /// The columns of the last encoding, in order: the expected columns of the next one.
    @exclusivity(unchecked) var encodingTemplate: [String]? {
        didSet { encodingTemplateCount = encodingTemplate?.count ?? 0 }
    }
    /// The number of columns of `encodingTemplate` (0 without one), read
    /// without copying the array.
    @exclusivity(unchecked) private(set) var encodingTemplateCount = 0
    /// Where the encoder of a record binds its values to the INSERT of the
    /// last encoding (MutablePersistableRecord+EncodedInsert.swift).
    let encodedColumnBinding = EncodedColumnBinding()
    /// The container that the encoder of a record fills while it binds
    /// (its template only), moved out for each record and back: making one
    /// per record retained the template (an atomic retain and release).
    @exclusivity(unchecked) var bindingContainer = PersistenceContainer()
    /// Whether the encoder of a record may bind its values to the INSERT
    /// (see `encodedColumnCount`).
    @exclusivity(unchecked) var bindsEncodedColumns = true
    /// The number of records in a row whose values were not bound.
    @exclusivity(unchecked) var unboundEncodingCount = 0
    /// The deferred container of the last bound insert, reused while
    /// nobody else keeps it (RecordPersistenceInfo+BoundInsert.swift).
    @usableFromInline @exclusivity(unchecked) var reusableDeferredContainer: DeferredPersistenceContainer?
    /// The INSERT of the columns of the last encoding (`encodingTemplate`,
    /// `columnCount` of them) for one conflict resolution, unretained: an
    /// entry of `insertEntries`, which are never removed, owns it. Cleared
    /// when the template changes. Looking the statement up by its columns
    /// retained and released the columns and the statement.
    @exclusivity(unchecked) var templateInsert:
        (statement: Unmanaged<Statement>, conflict: Database.ConflictResolution, columnCount: Int)?

    init(typeID: ObjectIdentifier, tableName: String) {
        self.typeID = typeID
        self.tableName = tableName
    }

    /// The values of a recycled container, whose buffer the next container
    /// reuses.
    @exclusivity(unchecked) private var spareValues: [DatabaseValue] = []
    /// The columns of a recycled container: the template, moved rather than
    /// copied into the next container (a copy is an atomic retain, and the
    /// recycling an atomic release).
    @exclusivity(unchecked) private(set) var spareColumns: [String] = []

    /// An empty container for encoding a record: it expects the columns of
    /// the previous encoding, and reuses the buffers of a recycled one.
    @usableFromInline
    func makeContainer() -> PersistenceContainer {
        var values: [DatabaseValue] = []
        swap(&values, &spareValues)
        var columns: [String] = []
        swap(&columns, &spareColumns)
        if let encodingTemplate, PersistenceContainer.sharesBuffer(columns, encodingTemplate) {
            return PersistenceContainer(template: columns, values: values)
        }
        return PersistenceContainer(template: encodingTemplate, values: values)
    }

    /// Keeps the buffers of a container that nobody uses any longer, so
    /// that inserting many records does not allocate one per record.
    ///
    /// `inout`: the caller destroys the success, inline (consumed here, it
    /// was destroyed through its value witness).
    @usableFromInline
    func recycle(_ saved: inout PersistenceSuccess) {
        // In place: the getter of the container would copy it. The values
        // are kept: the next container overwrites them.
        if let (columns, values) = saved.takeStoredBuffers() {
            spareValues = values
            spareColumns = columns
        }
    }

    /// Remembers the columns of an encoding, as the template of the next one.
    @usableFromInline
    func didEncode(_ container: PersistenceContainer) {
        if !container.matchesTemplate {
            encodingTemplate = container.columns
            templateInsert = nil
        }
    }

    /// The primary key, from the schema (or the schema source for views).
    func primaryKey(_ db: Database) throws -> PrimaryKeyInfo {
        if let primaryKeyResult { return try primaryKeyResult.get() }
        let result = Result { try db.primaryKey(tableName) }
        primaryKeyResult = result
        return try result.get()
    }

    /// The INTEGER PRIMARY KEY column of a rowid table, if any (nil for views).
    func rowIDColumn(_ db: Database) -> String? {
        if let rowIDColumnValue { return rowIDColumnValue }
        let column = ((try? isView(db)) ?? false) ? nil : (try? primaryKey(db))?.rowIDColumn
        rowIDColumnValue = .some(column)
        return column
    }
    @exclusivity(unchecked) private var rowIDColumnValue: String??

    /// Whether the table is a view.
    func isView(_ db: Database) throws -> Bool {
        if let isViewValue { return isViewValue }
        let isView = try db.viewExists(tableName)
        isViewValue = isView
        return isView
    }

    /// The cached INSERT statement for the columns.
    func insertStatement(
        _ db: Database, columns: [String], conflictResolution: Database.ConflictResolution
    ) throws -> Statement {
        // The entry of the previous insert, read in place (copying the entry
        // would retain its columns and statement).
        let last = lastInsertIndex
        if last < insertEntries.count && insertEntries[last].conflictResolution == conflictResolution
            && insertEntries[last].columns == columns
        {
            return insertEntries[last].statement
        }
        for (index, entry) in insertEntries.enumerated()
        where entry.conflictResolution == conflictResolution && entry.columns == columns {
            lastInsertIndex = index
            return entry.statement
        }
        let sql = PersistenceSQL.insert(tableName: tableName, columns: columns, conflictResolution: conflictResolution)
        let statement = try db.cachedStatement(sql: sql)
        insertEntries.append(
            InsertEntry(columns: columns, conflictResolution: conflictResolution, statement: statement))
        lastInsertIndex = insertEntries.count - 1
        return statement
    }
}

extension RecordPersistenceInfo {
    /// Runs the INSERT statement of the container, or the INSERT ...
    /// RETURNING statement of the selection given to `fetch`, and returns
    /// the new rowid, also set in the container's INTEGER PRIMARY KEY column.
    @usableFromInline
    func insert(
        _ db: Database,
        container: consuming PersistenceContainer,
        conflictResolution: Database.ConflictResolution,
        returning selection: [any SQLSelectable]?,
        fetch: (Statement) throws -> Void
    ) throws -> InsertionSuccess {
        // Schema reads first: the INSERT is the last statement executed.
        let rowIDColumn = self.rowIDColumn(db)
        if let selection {
            let context = SQLGenerationContext(db)
            let sql =
                try PersistenceSQL.insert(
                    tableName: tableName, columns: container.columns, conflictResolution: conflictResolution)
                + PersistenceSQL.returning(selection, tableName: tableName, context: context)
            let statement = try db.cachedStatement(sql: sql)
            try statement.setArguments(
                StatementArguments(values: container.databaseValues + context.arguments.values, namedValues: [:]))
            try fetch(statement)
        } else {
            // The container of `persistenceContainer(_:)` has the columns of
            // the template: set by it if it did not match.
            let statement: Unmanaged<Statement>
            if container.matchesTemplate, let cached = templateInsert, cached.conflict == conflictResolution {
                statement = cached.statement
            } else {
                statement = try Unmanaged.passUnretained(
                    insertStatement(db, columns: container.columns, conflictResolution: conflictResolution))
                if container.matchesTemplate {
                    templateInsert = (statement, conflictResolution, container.columnCount)
                }
            }
            // Borrowed: this info owns it (see `templateInsert`).
            try statement._withUnsafeGuaranteedRef { statement in
                try statement.executeBinding(container.values)
            }
        }
        let rowID = db.lastInsertedRowID
        if let rowIDColumn {
            container.setValue(rowID, forColumn: rowIDColumn)
        }
        // The memberwise initializer: with an initializer of its own, the
        // success was copied into the result, and the copy destroyed.
        return InsertionSuccess(
            rowID: rowID, rowIDColumn: rowIDColumn, storedContainer: container, deferredContainer: nil)
    }
}

extension Database {
    /// Keeps the buffers of the container of a saved record, for the
    /// next record of its type (`RecordPersistenceInfo.recycle(_:)`), when
    /// its persistence facts are the last used ones, as they are after an
    /// insert. Cheaper than looking the facts up: the buffer is only reused
    /// memory, so their table does not matter.
    @usableFromInline
    func recycleContainerValues(of type: any MutablePersistableRecord.Type, _ saved: inout PersistenceSuccess) {
        // Unretained: the cache keeps the facts.
        guard let last = schemaCache.unmanagedLastRecordPersistence else { return }
        last._withUnsafeGuaranteedRef { info in
            if info.typeID == ObjectIdentifier(type) {
                info.recycle(&saved)
            }
        }
    }

    /// The persistence facts of a record type, created on first use. The
    /// last used one is kept aside: loops insert many records of one type.
    @usableFromInline
    func recordPersistenceInfo(_ type: any MutablePersistableRecord.Type) -> RecordPersistenceInfo {
        let key = ObjectIdentifier(type)
        let tableName = type.databaseTableName
        if let info = schemaCache.lastRecordPersistence, info.typeID == key, info.tableName == tableName {
            return info
        }
        if let info = schemaCache.recordPersistence[key] {
            if info.tableName == tableName {
                schemaCache.lastRecordPersistence = info
                return info
            }
            // Another table for the same type: an insert may still borrow
            // the former facts.
            schemaCache.retire(info)
        }
        let info = RecordPersistenceInfo(typeID: key, tableName: tableName)
        schemaCache.recordPersistence[key] = info
        schemaCache.lastRecordPersistence = info
        return info
    }

    /// `recordPersistenceInfo(_:)`, not retained: the caller borrows the
    /// facts until the end of the current access at most, which they
    /// outlive even when the schema cache is cleared in the meantime (see
    /// `SchemaCache.retiredRecordPersistence`). One atomic retain and
    /// release less per insert.
    @usableFromInline
    func unmanagedRecordPersistenceInfo(_ type: any MutablePersistableRecord.Type) -> Unmanaged<RecordPersistenceInfo> {
        if let last = schemaCache.unmanagedLastRecordPersistence,
            last._withUnsafeGuaranteedRef({
                $0.typeID == ObjectIdentifier(type) && $0.tableName == type.databaseTableName
            })
        {
            return last
        }
        return Unmanaged.passUnretained(recordPersistenceInfo(type))
    }
}

/// SQL of the persistence statements.
enum PersistenceSQL {
    /// `INSERT [OR ...] INTO "table" ("a", "b") VALUES (?,?)`.
    static func insert(
        tableName: String, columns: [String], conflictResolution: Database.ConflictResolution
    ) -> String {
        var sql = "INSERT "
        if conflictResolution != .abort {
            sql += "OR " + conflictResolution.rawValue + " "
        }
        sql += "INTO " + tableName.quotedDatabaseIdentifier
        if columns.isEmpty {
            return sql + " DEFAULT VALUES"
        }
        sql += " (" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ") VALUES ("
        sql += repeatElement("?", count: columns.count).joined(separator: ",") + ")"
        return sql
    }

    /// `"a"=? AND "b"=?`.
    static func keyCondition(_ columns: [String]) -> String {
        columns.map { $0.quotedDatabaseIdentifier + "=?" }.joined(separator: " AND ")
    }

    /// The table's spelling of a column name (names are case-insensitive),
    /// or the name itself when the table has no such column.
    static func spelling(of column: String, in tableColumns: [String]) -> String {
        if tableColumns.contains(column) { return column }
        let lowercased = column.lowercased()
        return tableColumns.first { $0.lowercased() == lowercased } ?? column
    }

    /// `"a"=?, "b"=?`: the assignments of an UPDATE.
    static func assignments(_ columns: [String]) -> String {
        columns.map { $0.quotedDatabaseIdentifier + "=?" }.joined(separator: ", ")
    }

    /// ` RETURNING ...` for a selection, with its arguments in the context.
    static func returning(
        _ selection: [any SQLSelectable], tableName: String, context: SQLGenerationContext
    ) throws -> String {
        try context.db.requireSQLiteFeature(.returning)
        let source = TableAliasBase(tableName: tableName)
        return try " RETURNING "
            + selection.map { try $0.sqlSelection.sql(context, source: source) }.joined(separator: ", ")
    }
}

extension Statement {
    /// Binds the values to the first parameters, and executes the statement.
    /// The fast path of insertions: no `StatementArguments` is built, unless
    /// for the error message.
    func executeBinding(_ values: [DatabaseValue]) throws {
        try beginExecution(isReset: false)
        let sqliteStatement = self.sqliteStatement
        let code = values.withUnsafeBufferPointer { buffer -> CInt in
            for i in buffer.indices {
                let index = CInt(i + 1)
                let code = buffer[i].bind(to: sqliteStatement, at: index)
                if code != SQLITE_OK { return code }
            }
            return SQLITE_OK
        }
        if code != SQLITE_OK {
            throw failure(code, values)
        }
        while true {
            switch sqlite3_step(sqliteStatement) {
            case SQLITE_DONE:
                endExecution()
                return
            case SQLITE_ROW:
                steppedRowCount &+= 1
            case let code:
                throw failure(code, values)
            }
        }
    }

    func failure(_ code: CInt, _ values: [DatabaseValue]) -> any Error {
        let error = DatabaseError.lastError(
            of: database.sqliteConnection, resultCode: code, sql: sql,
            arguments: StatementArguments(values: values, namedValues: [:]),
            publicStatementArguments: database.configuration.publicStatementArguments)
        // Not `reset()`, which would tell the instruments that the
        // statement ended well: they hear of its failure below.
        sqlite3_reset(sqliteStatement)
        return database.statementDidFail(self, error: error)
    }
}
