// What persistence methods remember about a record type, per connection:
// its primary key, whether its table is a view, and its INSERT statements.
// Stored in the schema cache, so that schema changes clear it.

/// The facts and statements of the persistence methods of one record type.
final class RecordPersistenceInfo {
    /// An INSERT statement for some columns and conflict resolution.
    struct InsertEntry {
        var columns: [String]
        var conflictResolution: Database.ConflictResolution
        var statement: Statement
    }

    let tableName: String
    /// Whether the record type is a ``Record`` subclass, which tracks changes.
    let isRecordClass: Bool
    private var primaryKeyResult: Result<PrimaryKeyInfo, any Error>?
    private var isViewValue: Bool?
    /// Whether RETURNING "rowid" works (false for views and WITHOUT ROWID tables).
    var hasRowID: Bool?
    @exclusivity(unchecked) private var insertEntries: [InsertEntry] = []
    @exclusivity(unchecked) private var lastInsertIndex = 0
    /// The columns of the last encoding, in order: the expected columns of the next one.
    @exclusivity(unchecked) var encodingTemplate: [String]?

    init(tableName: String, isRecordClass: Bool) {
        self.tableName = tableName
        self.isRecordClass = isRecordClass
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
        if lastInsertIndex < insertEntries.count {
            let entry = insertEntries[lastInsertIndex]
            if entry.conflictResolution == conflictResolution && entry.columns == columns {
                return entry.statement
            }
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

extension Database {
    /// The persistence facts of a record type, created on first use.
    func recordPersistenceInfo(_ type: any MutablePersistableRecord.Type) -> RecordPersistenceInfo {
        let key = ObjectIdentifier(type)
        let tableName = type.databaseTableName
        if let info = schemaCache.recordPersistence[key], info.tableName == tableName {
            return info
        }
        let info = RecordPersistenceInfo(tableName: tableName, isRecordClass: type is Record.Type)
        schemaCache.recordPersistence[key] = info
        return info
    }
}

/// SQL of the persistence statements.
enum PersistenceSQL {
    /// `INSERT [OR ...] INTO "table" ("a", "b") VALUES (?, ?)`.
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
        sql += repeatElement("?", count: columns.count).joined(separator: ", ") + ")"
        return sql
    }

    /// `"a" = ? AND "b" = ?`.
    static func keyCondition(_ columns: [String]) -> String {
        columns.map { $0.quotedDatabaseIdentifier + " = ?" }.joined(separator: " AND ")
    }

    /// ` RETURNING ...` for a selection, with its arguments in the context.
    static func returning(
        _ selection: [any SQLSelectable], tableName: String, context: SQLGenerationContext
    ) throws -> String {
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
        try prepareExecution()
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
                didFinishStepping()
                return
            case SQLITE_ROW:
                continue
            case let code:
                throw failure(code, values)
            }
        }
    }

    private func failure(_ code: CInt, _ values: [DatabaseValue]) -> any Error {
        let error = DatabaseError.lastError(
            of: database.sqliteConnection, resultCode: code, sql: sql,
            arguments: StatementArguments(values: values, namedValues: [:]),
            publicStatementArguments: database.configuration.publicStatementArguments)
        reset()
        return database.statementDidFail(self, error: error)
    }
}
