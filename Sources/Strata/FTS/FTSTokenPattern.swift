/// The patterns that ``FTS3Pattern`` and ``FTS5Pattern`` build from the
/// words of a string, as raw `MATCH` text.
enum FTSTokenPattern {
    /// `sqlite OR database`
    case anyToken
    /// `sqlite database`
    case allTokens
    /// `sqlite* database*`
    case allPrefixes
    /// `"sqlite database"`
    case phrase
    /// `^"sqlite database"` (FTS5 only): documents that start with the phrase
    case prefixPhrase

    /// The raw pattern for the words of the string, or nil when the string
    /// has no word. Words come from the FTS3 "simple" tokenizer, so they
    /// never contain query syntax.
    func rawPattern(for string: String) -> String? {
        guard let words = try? FTS3.tokenize(string), !words.isEmpty else { return nil }
        switch self {
        case .anyToken:
            return words.joined(separator: " OR ")
        case .allTokens:
            return words.joined(separator: " ")
        case .allPrefixes:
            return words.lazy.map { "\($0)*" }.joined(separator: " ")
        case .phrase:
            return "\"\(words.joined(separator: " "))\""
        case .prefixPhrase:
            return "^\"\(words.joined(separator: " "))\""
        }
    }
}

/// What ``FTS3Pattern`` and ``FTS5Pattern`` share: a raw pattern that SQLite
/// accepts, checked with a full-text table of their module, and built from
/// the words of a string.
protocol FTSPattern {
    /// The full-text module that checks the patterns: `fts3` or `fts5`.
    static var module: String { get }
    /// The column of the checking table when no column is allowed.
    static var defaultColumn: String { get }
    /// The pattern of a raw pattern that SQLite accepted.
    init(checkedRawPattern: String)
}

extension FTSPattern {
    /// Checks the raw pattern with a full-text table of the module, in the
    /// helper database: a column filter may only name an allowed column.
    init(checking rawPattern: String, allowedColumns: [String] = []) throws {
        try FTSSupport.inHelperDatabase { db in
            let table = "\(Self.module)pattern".quotedDatabaseIdentifier
            let columns = allowedColumns.isEmpty ? [Self.defaultColumn] : allowedColumns
            try db.execute(
                sql: "CREATE VIRTUAL TABLE temp.\(table) USING \(Self.module)("
                    + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")")
            defer { try? db.execute(sql: "DROP TABLE temp.\(table)") }
            _ = try Row.fetchAll(db, sql: "SELECT * FROM temp.\(table) WHERE \(table) MATCH ?", arguments: [rawPattern])
        }
        self.init(checkedRawPattern: rawPattern)
    }

    /// A pattern built from the words of the string, or nil when it has none.
    init?(_ string: String, _ shape: FTSTokenPattern) {
        guard let rawPattern = shape.rawPattern(for: string) else { return nil }
        try? self.init(checking: rawPattern)
    }

    /// A pattern from a valid raw pattern stored as text, or nil.
    static func fromRawPattern(_ dbValue: DatabaseValue) -> Self? {
        String.fromDatabaseValue(dbValue).flatMap { try? Self(checking: $0) }
    }
}
