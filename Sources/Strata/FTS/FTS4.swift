/// The FTS4 full-text engine, a ``VirtualTableModule``:
///
/// ```swift
/// // CREATE VIRTUAL TABLE "document" USING fts4(content)
/// try db.create(virtualTable: "document", using: FTS4()) { t in
///     t.column("content")
/// }
/// ```
public struct FTS4: VirtualTableModule, Sendable {
    /// Creates the FTS4 module.
    public init() {}

    /// The module name: "fts4".
    public var moduleName: String { "fts4" }

    /// Returns a new, empty, table definition.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS4TableDefinition {
        FTS4TableDefinition()
    }

    /// The module arguments: the tokenizer, the columns, then the options.
    public func moduleArguments(for definition: FTS4TableDefinition, in db: Database) -> [String] {
        var arguments: [String] = []
        if let tokenizer = definition.tokenizer {
            arguments.append("tokenize=" + tokenizer.moduleArgument)
        }
        // A column is followed by its notindexed= option; the language id
        // column is declared by its languageid= option, after the columns.
        for column in definition.columns where !column.isLanguageId {
            arguments.append(FTSSupport.argumentName(column.name))
            if column.isNotIndexed {
                arguments.append("notindexed=" + FTSSupport.argumentName(column.name))
            }
        }
        for column in definition.columns where column.isLanguageId {
            arguments.append("languageid=" + column.name.quotedDatabaseIdentifier)
        }
        if let content = definition.content {
            arguments.append("content=" + content.quotedDatabaseIdentifier)
        }
        if let compress = definition.compress {
            arguments.append("compress=" + compress.quotedDatabaseIdentifier)
        }
        if let uncompress = definition.uncompress {
            arguments.append("uncompress=" + uncompress.quotedDatabaseIdentifier)
        }
        if let matchinfo = definition.matchinfo {
            arguments.append("matchinfo=" + matchinfo.quotedDatabaseIdentifier)
        }
        if let prefixes = definition.prefixes, !prefixes.isEmpty {
            arguments.append("prefix=\"" + prefixes.sorted().map(String.init).joined(separator: ",") + "\"")
        }
        return arguments
    }

    /// Installs the synchronization triggers and indexes the existing rows
    /// of the content table, when the definition called
    /// ``FTS4TableDefinition/synchronize(withTable:)``.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS4TableDefinition) throws {
        guard case .synchronized(let contentTable) = definition.contentMode else { return }
        let ftsTable = tableName.quotedDatabaseIdentifier
        let content = contentTable.quotedDatabaseIdentifier
        let columns = definition.columns.map(\.name.quotedDatabaseIdentifier)
        let newValues = columns.map { "new." + $0 }
        // The content table's INTEGER PRIMARY KEY column, or its rowid.
        let rowID = (try FTSSupport.contentRowIDColumn(contentTable, db) ?? "rowid").quotedDatabaseIdentifier
        let insert =
            "INSERT INTO \(ftsTable)(" + (["\"docid\""] + columns).joined(separator: ", ") + ") VALUES("
            + (["new.\(rowID)"] + newValues).joined(separator: ", ") + ");"
        let delete = "DELETE FROM \(ftsTable) WHERE docid=old.\(rowID);"
        func name(_ suffix: String) -> String {
            FTSSupport.triggerName(tableName, suffix).quotedDatabaseIdentifier
        }
        try db.execute(
            sql: """
                CREATE TRIGGER IF NOT EXISTS \(name("bu")) BEFORE UPDATE ON \(content) BEGIN
                    \(delete)
                END;
                CREATE TRIGGER IF NOT EXISTS \(name("bd")) BEFORE DELETE ON \(content) BEGIN
                    \(delete)
                END;
                CREATE TRIGGER IF NOT EXISTS \(name("au")) AFTER UPDATE ON \(content) BEGIN
                    \(insert)
                END;
                CREATE TRIGGER IF NOT EXISTS \(name("ai")) AFTER INSERT ON \(content) BEGIN
                    \(insert)
                END;
                """)
        try db.execute(sql: "INSERT INTO \(ftsTable)(\(ftsTable)) VALUES('rebuild')")
    }
}
