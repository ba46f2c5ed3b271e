/// Information about a table column, as returned by ``Database/columns(in:in:)``.
///
/// It comes from `PRAGMA table_xinfo`.
public struct ColumnInfo: FetchableRecord, Sendable {
    /// The position of the column in its table.
    let cid: Int

    /// Whether the column is hidden: 0 for a regular column, 1 for a hidden
    /// column of a virtual table, 2 and 3 for generated columns.
    let hidden: Int

    /// The name of the column.
    public let name: String

    /// The declared type of the column, such as "INTEGER", or the empty string.
    public let type: String

    /// Whether the column has a NOT NULL constraint.
    public let isNotNull: Bool

    /// The SQL of the default value, such as `'foo'` or `CURRENT_TIMESTAMP`, if any.
    public let defaultValueSQL: String?

    /// Zero when the column is not part of the primary key, or its one-based
    /// position in the primary key.
    public var primaryKeyIndex: Int { _primaryKeyIndex }

    let _primaryKeyIndex: Int

    /// Creates a column info from a row of `PRAGMA table_info` or `PRAGMA table_xinfo`.
    public init(row: Row) {
        cid = row["cid"] ?? 0
        name = row["name"] ?? ""
        type = row["type"] ?? ""
        isNotNull = row["notnull"] ?? false
        defaultValueSQL = row["dflt_value"]
        _primaryKeyIndex = row["pk"] ?? 0
        hidden = row["hidden"] ?? 0
    }
}
