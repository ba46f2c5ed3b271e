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
        try self.init(checking: rawPattern, allowedColumns: allowedColumns)
    }

    /// Creates a pattern that matches documents that contain any of the
    /// words of the string (`sqlite OR database`), or nil when the string
    /// has no word.
    public init?(matchingAnyTokenIn string: String) { self.init(string, .anyToken) }

    /// Creates a pattern that matches documents that contain all the words
    /// of the string (`sqlite database`), or nil when the string has no word.
    public init?(matchingAllTokensIn string: String) { self.init(string, .allTokens) }

    /// Creates a pattern that matches documents that contain words that
    /// start with all the words of the string (`sqlite* database*`), or nil
    /// when the string has no word.
    public init?(matchingAllPrefixesIn string: String) { self.init(string, .allPrefixes) }

    /// Creates a pattern that matches documents that contain the words of
    /// the string as a phrase (`"sqlite database"`), or nil when the string
    /// has no word.
    public init?(matchingPhrase string: String) { self.init(string, .phrase) }

    /// Creates a pattern that matches documents whose text starts with the
    /// words of the string as a phrase (`^"sqlite database"`), or nil when
    /// the string has no word. The words are whole tokens: "sqlite datab"
    /// does not match "SQLite database".
    public init?(matchingPrefixPhrase string: String) { self.init(string, .prefixPhrase) }
}

extension FTS5Pattern: DatabaseValueConvertible, FTSPattern {
    static let module = "fts5"
    static let defaultColumn = "__fts5pattern"

    init(checkedRawPattern: String) { rawPattern = checkedRawPattern }

    /// The raw pattern, as text.
    public var databaseValue: DatabaseValue { rawPattern.databaseValue }

    /// Returns a pattern from a valid raw pattern stored as text, or nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS5Pattern? { fromRawPattern(dbValue) }
}
