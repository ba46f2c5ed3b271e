/// A full-text search pattern for FTS5 tables, checked against the
/// full-text query syntax.
///
/// ```swift
/// let pattern = FTS5Pattern(matchingAllTokensIn: "SQLite database")
/// let documents = try Document.matching(pattern).fetchAll(db)
/// ```
///
/// To validate a raw pattern against the columns of a table, use
/// ``Database/makeFTS5Pattern(rawPattern:forTable:)``.
public struct FTS5Pattern: Sendable {
    /// The pattern, as given to the `MATCH` operator.
    public let rawPattern: String

    /// Creates a pattern from a raw pattern, validated by SQLite; column
    /// filters may only name the allowed columns.
    public init(rawPattern: String, allowedColumns: [String] = []) throws {
        try FTSSupport.inHelperDatabase { db in
            let columns = allowedColumns.isEmpty ? ["__fts5pattern"] : allowedColumns
            let table = "temp.\"fts5pattern\""
            try db.execute(
                sql: "CREATE VIRTUAL TABLE \(table) USING fts5("
                    + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")")
            defer { try? db.execute(sql: "DROP TABLE \(table)") }
            _ = try Row.fetchAll(
                db, sql: "SELECT * FROM \(table) WHERE \"fts5pattern\" MATCH ?", arguments: [rawPattern])
        }
        self.rawPattern = rawPattern
    }

    /// A pattern built from the words of the string, or nil when it has none.
    private init?(_ string: String, _ shape: FTSTokenPattern) {
        guard let rawPattern = shape.rawPattern(for: string) else { return nil }
        try? self.init(rawPattern: rawPattern)
    }

    /// Creates a pattern that matches documents that contain any of the
    /// words of the string (`sqlite OR database`), or nil when the string
    /// has no word.
    public init?(matchingAnyTokenIn string: String) {
        self.init(string, .anyToken)
    }

    /// Creates a pattern that matches documents that contain all the words
    /// of the string (`sqlite database`), or nil when the string has no word.
    public init?(matchingAllTokensIn string: String) {
        self.init(string, .allTokens)
    }

    /// Creates a pattern that matches documents that contain words that
    /// start with all the words of the string (`sqlite* database*`), or nil
    /// when the string has no word.
    public init?(matchingAllPrefixesIn string: String) {
        self.init(string, .allPrefixes)
    }

    /// Creates a pattern that matches documents that contain the words of
    /// the string as a phrase (`"sqlite database"`), or nil when the string
    /// has no word.
    public init?(matchingPhrase string: String) {
        self.init(string, .phrase)
    }

    /// Creates a pattern that matches documents whose text starts with the
    /// words of the string, the last one being a prefix
    /// (`^"sqlite datab"*`), or nil when the string has no word.
    public init?(matchingPrefixPhrase string: String) {
        self.init(string, .prefixPhrase)
    }
}

extension FTS5Pattern: DatabaseValueConvertible {
    /// The raw pattern, as text.
    public var databaseValue: DatabaseValue {
        rawPattern.databaseValue
    }

    /// Returns a pattern from a valid raw pattern stored as text, or nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS5Pattern? {
        String.fromDatabaseValue(dbValue).flatMap { try? FTS5Pattern(rawPattern: $0) }
    }
}
