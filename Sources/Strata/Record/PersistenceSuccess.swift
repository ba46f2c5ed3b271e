/// What ``MutablePersistableRecord/didSave(_:)`` and
/// ``MutablePersistableRecord/didUpdate(_:)`` learn about a saved record.
public struct PersistenceSuccess {
    #if Macros
        /// The saved values. After an insertion into a table with an INTEGER
        /// PRIMARY KEY column, it holds the rowid.
        public var persistenceContainer: PersistenceContainer {
            @inlinable get { storage.container }
            set { storage = .stored(newValue) }
        }

        /// The container, or the record of an insert that bound its columns
        /// without one.
        @usableFromInline var storage: PersistenceContainerStorage

        init(persistenceContainer: PersistenceContainer) {
            storage = .stored(persistenceContainer)
        }

        /// Moves the storage out of the insertion's success (a copy would
        /// retain its reference, and the success's destruction release it).
        @inlinable
        init(_ inserted: consuming InsertionSuccess) {
            storage = .empty
            swap(&storage, &inserted.storage)
        }

        /// Whether the success holds a container (not the record of an
        /// insert that bound its columns), whose values buffer `recycle`
        /// keeps.
        @inlinable
        var holdsStoredContainer: Bool {
            if case .stored = storage { return true }
            return false
        }

        /// Moves the values buffer out of the container that an insert
        /// filled, for the next container; nil for a deferred container.
        mutating func takeStoredValues() -> [DatabaseValue]? {
            guard case .stored(var container) = storage else { return nil }
            storage = .empty
            return container.takeValues()
        }
    #else
        /// The saved values. After an insertion into a table with an INTEGER
        /// PRIMARY KEY column, it holds the rowid.
        public var persistenceContainer: PersistenceContainer

        init(persistenceContainer: PersistenceContainer) {
            self.persistenceContainer = persistenceContainer
        }

        /// Moves the container out of the insertion's success (a copy would
        /// retain its two buffers, and the success's destruction release them).
        @inlinable
        init(_ inserted: consuming InsertionSuccess) {
            persistenceContainer = PersistenceContainer()
            swap(&persistenceContainer, &inserted.persistenceContainer)
        }
    #endif
}
