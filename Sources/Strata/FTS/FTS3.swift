/// The FTS3 full-text engine, a ``VirtualTableModule``:
///
/// ```swift
/// // CREATE VIRTUAL TABLE "document" USING fts3(content)
/// try db.create(virtualTable: "document", using: FTS3()) { t in
///     t.column("content")
/// }
/// ```
public struct FTS3: VirtualTableModule, Sendable {
    /// How the unicode61 tokenizer handles diacritics.
    public enum Diacritics: Sendable {
        /// Diacritics are kept: "jérôme" does not match "jerome".
        case keep
        /// Diacritics are removed from Latin characters, the way of SQLite
        /// before 3.27 (`remove_diacritics=1`, the default).
        case removeLegacy
        /// Diacritics are removed from all Latin characters
        /// (`remove_diacritics=2`, SQLite 3.27+).
        case remove
    }

    /// Creates the FTS3 module.
    public init() {}

    /// The module name: "fts3".
    public var moduleName: String { "fts3" }

    /// Returns a new, empty, table definition.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS3TableDefinition {
        FTS3TableDefinition()
    }

    /// The module arguments: the tokenizer, then the columns.
    public func moduleArguments(for definition: FTS3TableDefinition, in db: Database) -> [String] {
        var arguments: [String] = []
        if let tokenizer = definition.tokenizer {
            arguments.append("tokenize=" + tokenizer.moduleArgument)
        }
        arguments.append(contentsOf: definition.columns.map(FTSSupport.argumentName))
        return arguments
    }

    /// Does nothing: FTS3 tables need no extra setup.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS3TableDefinition) {}

    /// Returns the tokens of a string, as produced by a tokenizer (through
    /// SQLite's `fts3tokenize` virtual table):
    ///
    /// ```swift
    /// try FTS3.tokenize("SQLite database")  // ["sqlite", "database"]
    /// try FTS3.tokenize("Gustave Doré", withTokenizer: .unicode61())  // ["gustave", "dore"]
    /// ```
    public static func tokenize(
        _ string: String,
        withTokenizer tokenizer: FTS3TokenizerDescriptor = .simple
    ) throws -> [String] {
        try FTSSupport.inHelperDatabase { db in
            let arguments = [tokenizer.name] + tokenizer.arguments.map(\.quotedDatabaseIdentifier)
            try db.execute(
                sql: "CREATE VIRTUAL TABLE temp.\"tokenizer\" USING fts3tokenize("
                    + arguments.joined(separator: ", ") + ")")
            defer { try? db.execute(sql: "DROP TABLE temp.\"tokenizer\"") }
            return try String.fetchAll(
                db, sql: "SELECT token FROM temp.\"tokenizer\" WHERE input = ? ORDER BY position",
                arguments: [string])
        }
    }
}
