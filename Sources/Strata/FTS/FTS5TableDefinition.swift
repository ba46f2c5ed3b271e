/// The definition of an FTS5 table, given to the body of
/// ``Database/create(virtualTable:options:using:_:)``:
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.tokenizer = .porter()
///     t.column("content")
///     t.column("uuid").notIndexed()
/// }
/// ```
public final class FTS5TableDefinition {
    /// Where the indexed text lives.
    enum ContentMode {
        /// The `content=` option, or nil for a regular full-text table.
        case raw(String?)
        /// An external content table kept in sync by triggers.
        case synchronized(String)
    }

    /// The columns, in order.
    var columns: [FTS5ColumnDefinition] = []
    var contentMode = ContentMode.raw(nil)

    /// The tokenizer (nil for SQLite's default, "unicode61").
    public var tokenizer: FTS5TokenizerDescriptor?

    /// The `prefix=` option: the lengths of the prefixes indexed for fast
    /// prefix queries.
    public var prefixes: Set<Int>?

    /// The `columnsize=` option (0 to save space by not storing column sizes).
    public var columnSize: Int?

    /// The `detail=` option: "full" (default), "column" or "none".
    public var detail: String?

    /// The `content_rowid=` option: the integer primary key column of the
    /// content table.
    public var contentRowID: String? {
        get { storedContentRowID }
        set { storedContentRowID = newValue }
    }
    private var storedContentRowID: String?

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
    public func column(_ name: String) -> FTS5ColumnDefinition {
        let column = FTS5ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Makes the table an external content table of a regular table, kept in
    /// sync with triggers; existing rows are indexed when the table is created.
    ///
    /// ```swift
    /// try db.create(virtualTable: "book_ft", using: FTS5()) { t in
    ///     t.synchronize(withTable: "book")
    ///     t.column("title")
    /// }
    /// ```
    public func synchronize(withTable tableName: String) {
        contentMode = .synchronized(tableName)
    }
}
