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
    public var persistenceContainer: PersistenceContainer {
        @inlinable get {
            if let deferredContainer { return deferredContainer.container }
            return storedContainer
        }
        set {
            storedContainer = newValue
            deferredContainer = nil
        }
    }

    /// The container of an insert that filled one (empty otherwise).
    ///
    /// Two fields rather than an enum of the two cases: the optimizer
    /// removes the copies of a struct of references that the callbacks make,
    /// not those of an enum.
    @usableFromInline var storedContainer: PersistenceContainer

    /// The record of an insert that bound its columns without a container,
    /// encoded when the container is read; nil otherwise.
    @usableFromInline var deferredContainer: DeferredPersistenceContainer?
}
