/// A full-text search pattern for FTS3 and FTS4 tables, checked against
/// the full-text query syntax.
///
/// ```swift
/// let pattern = FTS3Pattern(matchingAllTokensIn: "SQLite database")
/// let documents = try Document.matching(pattern).fetchAll(db)
/// ```
public struct FTS3Pattern: Sendable {
    /// The pattern, as given to the `MATCH` operator.
    public let rawPattern: String

    /// Creates a pattern from a raw pattern, validated by SQLite.
    ///
    /// ```swift
    /// let pattern = try FTS3Pattern(rawPattern: "sqlite AND database")
    /// // DatabaseError: malformed MATCH expression: [AND]
    /// let pattern = try FTS3Pattern(rawPattern: "AND")
    /// ```
    public init(rawPattern: String) throws {
        try self.init(checking: rawPattern)
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
}

extension FTS3Pattern: DatabaseValueConvertible, FTSPattern {
    static let module = "fts3"
    static let defaultColumn = "content"

    init(checkedRawPattern: String) { rawPattern = checkedRawPattern }

    /// The raw pattern, as text.
    public var databaseValue: DatabaseValue { rawPattern.databaseValue }

    /// Returns a pattern from a valid raw pattern stored as text, or nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS3Pattern? { fromRawPattern(dbValue) }
}
