/// The definition of an FTS3 table, given to the body of
/// ``Database/create(virtualTable:options:using:_:)``:
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS3()) { t in
///     t.tokenizer = .porter
///     t.column("content")
/// }
/// ```
public final class FTS3TableDefinition {
    /// The column names, in order.
    var columns: [String] = []

    /// The tokenizer (nil for SQLite's default, "simple").
    public var tokenizer: FTS3TokenizerDescriptor?

    init() {}

    /// Appends a column (full-text columns have no type: they hold text).
    public func column(_ name: String) {
        columns.append(name)
    }
}
