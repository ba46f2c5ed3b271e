/// What ``MutablePersistableRecord/didSave(_:)`` and
/// ``MutablePersistableRecord/didUpdate(_:)`` learn about a saved record.
public struct PersistenceSuccess {
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
}
