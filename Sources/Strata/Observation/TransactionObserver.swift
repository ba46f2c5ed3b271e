import Foundation

/// An object notified of the changes made by a database connection, and of
/// its commits and rollbacks.
///
/// ```swift
/// final class PlayerObserver: TransactionObserver {
///     var changeCount = 0
///     func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
///         eventKind.tableName == "player"
///     }
///     func databaseDidChange(with event: DatabaseEvent) { changeCount += 1 }
///     func databaseDidCommit(_ db: Database) { print("\(changeCount) changes") }
///     func databaseDidRollback(_ db: Database) { changeCount = 0 }
/// }
/// dbQueue.add(transactionObserver: observer)
/// ```
///
/// All callbacks run on the writer's dispatch queue. `databaseDidChange` and
/// `databaseWillCommit` must not use the database; `databaseDidCommit` and
/// `databaseDidRollback` may.
public protocol TransactionObserver: AnyObject {
    /// Whether the observer wants ``databaseDidChange(with:)`` calls for this
    /// kind of change. Asked before each statement runs.
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool

    /// A row was inserted, updated or deleted, in a change that may still be
    /// rolled back.
    func databaseDidChange(with event: DatabaseEvent)

    /// The database was changed in a way SQLite does not report, announced
    /// with ``Database/notifyChanges(in:)``.
    func databaseDidChange()

    /// The transaction is about to commit: throw to roll it back instead (the
    /// error is rethrown to the code that committed).
    func databaseWillCommit() throws

    /// The transaction was committed.
    func databaseDidCommit(_ db: Database)

    /// The transaction was rolled back.
    func databaseDidRollback(_ db: Database)

    /// A row is about to be inserted, updated or deleted (only with an SQLite
    /// that has pre-update hooks: see ``DatabasePreUpdateEvent/isSupported``).
    func databaseWillChange(with event: DatabasePreUpdateEvent)
}

extension TransactionObserver {
    /// Does nothing.
    public func databaseDidChange() {}

    /// Does nothing: the transaction commits.
    public func databaseWillCommit() throws {}

    /// Does nothing.
    public func databaseWillChange(with event: DatabasePreUpdateEvent) {}

    /// Stops the ``databaseDidChange(with:)`` (and ``databaseDidChange()``)
    /// calls until the current transaction ends. Call it from a callback of
    /// this observer; commits and rollbacks are still notified.
    public func stopObservingDatabaseChangesUntilNextTransaction() {
        guard let broker = TransactionObservationBroker.current else {
            fatalError(
                "stopObservingDatabaseChangesUntilNextTransaction() must be called "
                    + "from a callback of the transaction observer")
        }
        broker.stopObservingChangesUntilNextTransaction(self)
    }
}

/// The library's own transaction observers (value and region observations):
/// they never look at pre-update events
/// (``TransactionObserver/databaseWillChange(with:)``) and never veto a
/// commit (``TransactionObserver/databaseWillCommit()``), so the broker
/// neither builds events nor calls them for those. They only act on the
/// end of a transaction in which they heard of a change (or
/// ``changesWereSkipped()``): the broker does not tell them how the other
/// transactions end.
protocol LibraryTransactionObserver: TransactionObserver {
    /// True while a fetch of the observer is pending: it will begin its
    /// transaction later, and see the current transaction. The broker then
    /// neither asks the observer about statements nor tells it about the
    /// commit, if the flag is still true then. Whoever clears it must do so
    /// with ``AtomicFlag/exchange(_:)`` before that fetch begins its
    /// transaction. Nil when the observer never skips changes.
    var pendingFetchFlag: AtomicFlag? { get }

    /// Called instead of nothing when the broker skipped the statements of
    /// the committed transaction, and the fetch is no longer pending: the
    /// fetch may have begun before the commit, so the observer must assume
    /// the transaction changed what it observes. Called before
    /// ``TransactionObserver/databaseDidCommit(_:)``.
    func changesWereSkipped()

    /// Called when the commits of other connections can no longer be seen
    /// (``Configuration/observesExternalChanges``): the database file was
    /// deleted or replaced. Value observations fail with the error.
    func externalChangesDidFail(_ error: any Error)
}

extension LibraryTransactionObserver {
    var pendingFetchFlag: AtomicFlag? { nil }
    func changesWereSkipped() {}
    func externalChangesDidFail(_ error: any Error) {}
}
