/// The primary key of a table, as returned by ``Database/primaryKey(_:in:)``.
///
/// A table without an explicit primary key has the hidden `rowid` primary key.
public struct PrimaryKeyInfo: Sendable {
    enum Impl: Sendable {
        /// The hidden `rowid` column.
        case hiddenRowID
        /// An INTEGER PRIMARY KEY column, an alias for the rowid.
        case rowID(String)
        /// Any other primary key.
        case regular([String])
    }

    let impl: Impl

    static let hiddenRowID = PrimaryKeyInfo(impl: .hiddenRowID)

    static func rowID(_ column: String) -> PrimaryKeyInfo {
        PrimaryKeyInfo(impl: .rowID(column))
    }

    static func regular(_ columns: [String]) -> PrimaryKeyInfo {
        PrimaryKeyInfo(impl: .regular(columns))
    }

    /// The names of the primary key columns: `["rowid"]` for the hidden rowid.
    public var columns: [String] {
        switch impl {
        case .hiddenRowID: return ["rowid"]
        case .rowID(let column): return [column]
        case .regular(let columns): return columns
        }
    }

    /// True when the primary key is the rowid: the hidden `rowid` column, or
    /// an INTEGER PRIMARY KEY column.
    public var isRowID: Bool {
        switch impl {
        case .hiddenRowID, .rowID: return true
        case .regular: return false
        }
    }

    /// The name of the INTEGER PRIMARY KEY column that aliases the rowid, or
    /// nil (hidden rowid, or another kind of primary key).
    public var rowIDColumn: String? {
        switch impl {
        case .rowID(let column): return column
        case .hiddenRowID, .regular: return nil
        }
    }
}
