/// The definition of an FTS4 table, given to the body of
/// ``Database/create(virtualTable:options:using:_:)``:
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS4()) { t in
///     t.tokenizer = .porter
///     t.prefixes = [2, 4]
///     t.column("content")
///     t.column("uuid").notIndexed()
/// }
/// ```
public final class FTS4TableDefinition {
    /// Where the indexed text lives.
    enum ContentMode {
        /// The `content=` option, or nil for a regular full-text table.
        case raw(String?)
        /// An external content table kept in sync by triggers.
        case synchronized(String)
    }

    /// The columns, in order.
    var columns: [FTS4ColumnDefinition] = []
    var contentMode = ContentMode.raw(nil)

    /// The tokenizer (nil for SQLite's default, "simple").
    public var tokenizer: FTS3TokenizerDescriptor?

    /// The `compress=` option: the name of an SQL function that compresses text.
    public var compress: String?

    /// The `uncompress=` option: the name of an SQL function that uncompresses text.
    public var uncompress: String?

    /// The `matchinfo=` option, such as "fts3".
    public var matchinfo: String?

    /// The `prefix=` option: the lengths of the prefixes indexed for fast
    /// prefix queries.
    public var prefixes: Set<Int>?

    /// The `content=` option: the content table of an external content
    /// table, or "" for a contentless table.
    public var content: String? {
        get {
            switch contentMode {
            case .raw(let content): return content
            case .synchronized(let table): return table
            }
        }
        set {
            contentMode = .raw(newValue)
        }
    }

    init() {}

    /// Appends a column (full-text columns have no type: they hold text).
    @discardableResult
    public func column(_ name: String) -> FTS4ColumnDefinition {
        let column = FTS4ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Makes the table an external content table of a regular table, kept in
    /// sync with triggers; existing rows are indexed when the table is created.
    ///
    /// ```swift
    /// try db.create(virtualTable: "book_ft", using: FTS4()) { t in
    ///     t.synchronize(withTable: "book")
    ///     t.column("title")
    /// }
    /// ```
    public func synchronize(withTable tableName: String) {
        contentMode = .synchronized(tableName)
    }
}
