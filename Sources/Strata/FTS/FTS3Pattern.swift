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
        try FTSSupport.inHelperDatabase { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.\"fts3pattern\" USING fts3(content)")
            _ = try Row.fetchAll(
                db, sql: "SELECT * FROM temp.\"fts3pattern\" WHERE content MATCH ?", arguments: [rawPattern])
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
}

extension FTS3Pattern: DatabaseValueConvertible {
    /// The raw pattern, as text.
    public var databaseValue: DatabaseValue {
        rawPattern.databaseValue
    }

    /// Returns a pattern from a valid raw pattern stored as text, or nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS3Pattern? {
        String.fromDatabaseValue(dbValue).flatMap { try? FTS3Pattern(rawPattern: $0) }
    }
}
