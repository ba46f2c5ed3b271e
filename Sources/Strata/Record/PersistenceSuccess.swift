/// What ``MutablePersistableRecord/didSave(_:)`` and
/// ``MutablePersistableRecord/didUpdate(_:)`` learn about a saved record.
public struct PersistenceSuccess {
    #if Macros
        /// The saved values. After an insertion into a table with an INTEGER
        /// PRIMARY KEY column, it holds the rowid.
        public var persistenceContainer: PersistenceContainer {
            get { storage.container }
            set { storage = .stored(newValue) }
        }

        /// The container, or the record of an insert that bound its columns
        /// without one.
        var storage: PersistenceContainerStorage

        init(persistenceContainer: PersistenceContainer) {
            storage = .stored(persistenceContainer)
        }

        @usableFromInline
        init(_ inserted: consuming InsertionSuccess) {
            storage = inserted.storage
        }

        /// Whether the container is the one an insert filled, whose values
        /// buffer can be recycled.
        var hasStoredContainer: Bool {
            if case .stored = storage { return true }
            return false
        }
    #else
        /// The saved values. After an insertion into a table with an INTEGER
        /// PRIMARY KEY column, it holds the rowid.
        public var persistenceContainer: PersistenceContainer

        init(persistenceContainer: PersistenceContainer) {
            self.persistenceContainer = persistenceContainer
        }

        @usableFromInline
        init(_ inserted: consuming InsertionSuccess) {
            self.persistenceContainer = inserted.persistenceContainer
        }
    #endif
}
