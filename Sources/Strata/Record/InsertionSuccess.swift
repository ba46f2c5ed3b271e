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

    #if Macros
        /// The inserted values. When the table has an INTEGER PRIMARY KEY
        /// column, it holds the rowid.
        public var persistenceContainer: PersistenceContainer {
            @inlinable get { storage.container }
            set { storage = .stored(newValue) }
        }

        /// The container, or the record of an insert that bound its columns
        /// without one, encoded when the container is read.
        @usableFromInline var storage: PersistenceContainerStorage

        init(rowID: Int64, rowIDColumn: String?, persistenceContainer: PersistenceContainer) {
            self.rowID = rowID
            self.rowIDColumn = rowIDColumn
            storage = .stored(persistenceContainer)
        }

        // `consuming`, inlined: the storage was built, copied and destroyed.
        @inline(__always)
        init(rowID: Int64, rowIDColumn: String?, deferredContainer: consuming DeferredPersistenceContainer) {
            self.rowID = rowID
            self.rowIDColumn = rowIDColumn
            storage = .deferred(deferredContainer)
        }
    #else
        /// The inserted values. When the table has an INTEGER PRIMARY KEY
        /// column, it holds the rowid.
        public var persistenceContainer: PersistenceContainer
    #endif
}
