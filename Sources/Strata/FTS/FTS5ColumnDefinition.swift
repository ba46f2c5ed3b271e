/// A column of an FTS5 table, returned by ``FTS5TableDefinition/column(_:)``.
public final class FTS5ColumnDefinition {
    /// The column name.
    let name: String
    /// False for `UNINDEXED` columns.
    var isIndexed = true

    init(name: String) {
        self.name = name
    }

    /// Excludes the column from the full-text index (`column UNINDEXED`).
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }
}
