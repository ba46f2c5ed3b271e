/// What ``MutablePersistableRecord/didSave(_:)`` and
/// ``MutablePersistableRecord/didUpdate(_:)`` learn about a saved record.
public struct PersistenceSuccess {
    /// The saved values. After an insertion into a table with an INTEGER
    /// PRIMARY KEY column, it holds the rowid.
    public var persistenceContainer: PersistenceContainer {
        @inlinable get { storage.persistenceContainer }
        set { storage.persistenceContainer = newValue }
    }

    /// The containers, in an insertion's success (with an unused rowid for
    /// an update): a save that inserted moves the insertion's success in
    /// whole, where moving its containers out left a success to destroy.
    @usableFromInline var storage: InsertionSuccess

    init(persistenceContainer: PersistenceContainer) {
        storage = InsertionSuccess(
            rowID: 0, rowIDColumn: nil, storedContainer: persistenceContainer, deferredContainer: nil)
    }

    /// The success of an insertion, moved in.
    @inlinable
    init(_ inserted: consuming InsertionSuccess) {
        storage = inserted
    }

    /// Whether the success holds a container (not the record of an
    /// insert that bound its columns), whose values buffer `recycle`
    /// keeps.
    @inlinable
    var holdsStoredContainer: Bool {
        storage.deferredContainer == nil
    }

    /// Moves the values buffer out of the container that an insert
    /// filled, for the next container; nil for a deferred container.
    mutating func takeStoredBuffers() -> (columns: [String], values: [DatabaseValue])? {
        guard storage.deferredContainer == nil else { return nil }
        return storage.storedContainer.takeBuffers()
    }
}
