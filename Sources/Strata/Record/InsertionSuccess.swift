/// What ``MutablePersistableRecord/didInsert(_:)`` learns about an insertion.
///
/// ```swift
/// mutating func didInsert(_ inserted: InsertionSuccess) {
///     id = inserted.rowID
/// }
/// ```
public struct InsertionSuccess {
    /// The rowid of the inserted row.
    public var rowID: Int64

    /// The INTEGER PRIMARY KEY column that aliases the rowid, if any.
    public var rowIDColumn: String?

    /// The inserted values. When the table has an INTEGER PRIMARY KEY
    /// column, it holds the rowid.
    public var persistenceContainer: PersistenceContainer
}
