/// A column of an FTS4 table, returned by ``FTS4TableDefinition/column(_:)``.
public final class FTS4ColumnDefinition {
    /// The column name.
    let name: String
    /// True for `notindexed=` columns.
    var isNotIndexed = false
    /// True for the `languageid=` column.
    var isLanguageId = false

    init(name: String) {
        self.name = name
    }

    /// Excludes the column from the full-text index (`notindexed=column`).
    @discardableResult
    public func notIndexed() -> Self {
        isNotIndexed = true
        return self
    }

    /// Makes the column hold the language id of each row (`languageid="column"`).
    @discardableResult
    public func asLanguageId() -> Self {
        isLanguageId = true
        return self
    }
}
