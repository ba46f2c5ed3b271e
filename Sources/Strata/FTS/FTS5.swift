import StrataSQLite

/// The FTS5 full-text engine, a ``VirtualTableModule``:
///
/// ```swift
/// // CREATE VIRTUAL TABLE "document" USING fts5(content)
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.column("content")
/// }
/// ```
public struct FTS5: VirtualTableModule, Sendable {
    /// How the unicode61 tokenizer handles diacritics.
    public enum Diacritics: Sendable {
        /// Diacritics are kept: "jérôme" does not match "jerome".
        case keep
        /// Diacritics are removed from Latin characters, the way of SQLite
        /// before 3.27 (`remove_diacritics 1`, the default).
        case removeLegacy
        /// Diacritics are removed from all Latin characters
        /// (`remove_diacritics 2`, SQLite 3.27+).
        case remove
    }

    /// Creates the FTS5 module.
    public init() {}

    /// The module name: "fts5".
    public var moduleName: String { "fts5" }

    /// Returns a new, empty, table definition.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS5TableDefinition {
        FTS5TableDefinition()
    }

    /// The module arguments: the columns, the tokenizer, then the options.
    public func moduleArguments(for definition: FTS5TableDefinition, in db: Database) throws -> [String] {
        try db.requireSQLiteFeature(.fts5)
        var arguments: [String] = []
        for column in definition.columns {
            arguments.append(FTSSupport.argumentName(column.name) + (column.isIndexed ? "" : " UNINDEXED"))
        }
        if let tokenizer = definition.tokenizer {
            // Each component quoted, then the whole list.
            let components = tokenizer.components.map(FTSSupport.stringLiteral).joined(separator: " ")
            arguments.append("tokenize=" + FTSSupport.stringLiteral(components))
        }
        if let content = definition.content {
            arguments.append("content=" + FTSSupport.stringLiteral(content))
        }
        if let contentRowID = try contentRowID(definition, db) {
            arguments.append("content_rowid=" + FTSSupport.stringLiteral(contentRowID))
        }
        if let prefixes = definition.prefixes, !prefixes.isEmpty {
            arguments.append(
                "prefix=" + FTSSupport.stringLiteral(prefixes.sorted().map(String.init).joined(separator: " ")))
        }
        if let columnSize = definition.columnSize {
            arguments.append("columnSize=\(columnSize)")
        }
        if let detail = definition.detail {
            arguments.append("detail=" + FTSSupport.argumentName(detail))
        }
        return arguments
    }

    /// The `content_rowid=` option: the one of the definition, or, for a
    /// synchronized table, the INTEGER PRIMARY KEY column of the content table.
    private func contentRowID(_ definition: FTS5TableDefinition, _ db: Database) throws -> String? {
        if let contentRowID = definition.contentRowID { return contentRowID }
        guard case .synchronized(let contentTable) = definition.contentMode else { return nil }
        return try FTSSupport.contentRowIDColumn(contentTable, db)
    }

    /// Installs the synchronization triggers and indexes the existing rows
    /// of the content table, when the definition called
    /// ``FTS5TableDefinition/synchronize(withTable:)``.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS5TableDefinition) throws {
        guard case .synchronized(let contentTable) = definition.contentMode else { return }
        let ftsTable = tableName.quotedDatabaseIdentifier
        let content = contentTable.quotedDatabaseIdentifier
        let rowID = (try contentRowID(definition, db) ?? "rowid").quotedDatabaseIdentifier
        let columns = definition.columns.map(\.name.quotedDatabaseIdentifier)
        let insert =
            "INSERT INTO \(ftsTable)(" + (["\"rowid\""] + columns).joined(separator: ", ") + ") VALUES ("
            + (["new.\(rowID)"] + columns.map { "new." + $0 }).joined(separator: ", ") + ");"
        let delete =
            "INSERT INTO \(ftsTable)(" + ([ftsTable, "rowid"] + columns).joined(separator: ", ")
            + ") VALUES(" + (["'delete'", "old.\(rowID)"] + columns.map { "old." + $0 }).joined(separator: ", ")
            + ");"
        func name(_ suffix: String) -> String {
            FTSSupport.triggerName(tableName, suffix).quotedDatabaseIdentifier
        }
        try db.execute(
            sql: """
                CREATE TRIGGER IF NOT EXISTS \(name("ai")) AFTER INSERT ON \(content) BEGIN
                    \(insert)
                END;
                CREATE TRIGGER IF NOT EXISTS \(name("ad")) AFTER DELETE ON \(content) BEGIN
                    \(delete)
                END;
                CREATE TRIGGER IF NOT EXISTS \(name("au")) AFTER UPDATE ON \(content) BEGIN
                    \(delete)
                    \(insert)
                END;
                """)
        try db.execute(sql: "INSERT INTO \(ftsTable)(\(ftsTable)) VALUES('rebuild')")
    }

    /// The FTS5 C API of a connection, used to register custom tokenizers
    /// and auxiliary functions. Stops the program when the SQLite library
    /// was built without FTS5.
    public static func api(_ db: Database) -> UnsafePointer<fts5_api> {
        do {
            return try FTS5.fetchAPI(db)
        } catch {
            fatalError("FTS5 is not available: \(error)")
        }
    }

    /// The FTS5 C API of a connection; throws when the SQLite library was
    /// built without FTS5.
    static func fetchAPI(_ db: Database) throws -> UnsafePointer<fts5_api> {
        try db.requireSQLiteFeature(.fts5)
        let statement: Statement
        do {
            statement = try db.makeStatement(sql: "SELECT fts5(?)")
        } catch {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 is not available: \(error)")
        }
        var api: UnsafeMutablePointer<fts5_api>? = nil
        try withUnsafeMutablePointer(to: &api) { pointer in
            let code = sqlite3_bind_pointer(
                statement.sqliteStatement, 1, pointer, _strata_fts5_api_pointer_type(), nil)
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "could not bind fts5_api_ptr")
            }
            defer {
                sqlite3_reset(statement.sqliteStatement)
                sqlite3_clear_bindings(statement.sqliteStatement)
            }
            guard sqlite3_step(statement.sqliteStatement) == SQLITE_ROW else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "fts5() did not return a row")
            }
        }
        guard let api else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 is not available")
        }
        return UnsafePointer(api)
    }
}
