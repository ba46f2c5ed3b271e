import Dispatch
import Foundation
import Strata

/// A transaction observer that writes each callback as a line of its
/// ``log``: `change insert player 1`, `unspecified change`, `willCommit`,
/// `didCommit`, `didRollback`. The observer tests compare the whole log.
package final class LoggingObserver: TransactionObserver, @unchecked Sendable {
    /// The callbacks received so far, oldest first.
    package var log: [String] = []
    /// The only table whose changes are observed; nil for all tables.
    package let observedTable: String?
    /// An error that `databaseWillCommit()` throws, to veto commits.
    package var commitError: (any Error)?
    /// Whether the observer stops observing changes after the first one of
    /// each transaction.
    package var stopsAfterFirstChange = false

    /// An observer of `table`, or of every table.
    package init(observing table: String? = nil) {
        observedTable = table
    }

    package func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        guard let observedTable else { return true }
        return eventKind.tableName == observedTable
    }

    package func databaseDidChange(with event: DatabaseEvent) {
        log.append("change \(event.kind) \(event.tableName) \(event.rowID)")
        if stopsAfterFirstChange {
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    package func databaseDidChange() {
        log.append("unspecified change")
    }

    package func databaseWillCommit() throws {
        log.append("willCommit")
        if let commitError { throw commitError }
    }

    package func databaseDidCommit(_ db: Database) {
        log.append("didCommit")
    }

    package func databaseDidRollback(_ db: Database) {
        log.append("didRollback")
    }
}

/// The error that observation tests throw from their accesses and callbacks.
package struct ObserverTestError: Error {
    package init() {}
}

/// The SQL of the loose `player` and `team` tables of the observation tests:
/// no column but the id is required, so that a test inserts a bare id.
package let playerAndTeamTablesSQL = """
    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
    """

/// An in-memory database with the loose `player` and `team` tables (see
/// ``playerAndTeamTablesSQL``), both empty.
package func makePlayerAndTeamDatabase() throws -> DatabaseQueue {
    try inMemoryDatabase(playerAndTeamTablesSQL)
}

/// Holds the fetches of observations while it is closed: each held fetch is
/// recorded in `held`, and waits (at most 60 seconds) until `open()`.
package final class HeldFetches: Sendable {
    private let state = LockedBox<(isClosed: Bool, waiters: [DispatchSemaphore])>((false, []))
    /// The values of the fetches that were held, in the order they arrived.
    package let held = ObservedValues<Int>()

    package init() {}

    /// From now on, fetches wait in ``pass(_:)``.
    package func close() { state.withLock { $0.isClosed = true } }

    /// Lets the waiting fetches and the next ones go.
    package func open() {
        let waiters = state.withLock { state -> [DispatchSemaphore] in
            state.isClosed = false
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.signal() }
    }

    /// Called by fetches: waits while the gate is closed.
    package func pass(_ count: Int) {
        let waiter = state.withLock { state -> DispatchSemaphore? in
            guard state.isClosed else { return nil }
            let waiter = DispatchSemaphore(value: 0)
            state.waiters.append(waiter)
            return waiter
        }
        guard let waiter else { return }
        held.record(count)
        _ = waiter.wait(timeout: .now() + 60)
    }
}

/// A transaction observer whose callbacks are closures, for a test that
/// looks at one or two of them (the others do nothing; by default every
/// event kind is observed). The closures run where the callbacks do, on
/// the writer's queue.
package final class ClosureObserver: TransactionObserver, @unchecked Sendable {
    private let observesKind: (DatabaseEventKind) -> Bool
    private let didChange: (DatabaseEvent) -> Void
    private let willCommit: () throws -> Void
    private let didCommit: (Database) -> Void
    private let didRollback: (Database) -> Void

    /// An observer that calls the given closures.
    package init(
        observes: @escaping (DatabaseEventKind) -> Bool = { _ in true },
        didChange: @escaping (DatabaseEvent) -> Void = { _ in },
        willCommit: @escaping () throws -> Void = {},
        didCommit: @escaping (Database) -> Void = { _ in },
        didRollback: @escaping (Database) -> Void = { _ in }
    ) {
        self.observesKind = observes
        self.didChange = didChange
        self.willCommit = willCommit
        self.didCommit = didCommit
        self.didRollback = didRollback
    }

    package func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { observesKind(eventKind) }
    package func databaseDidChange(with event: DatabaseEvent) { didChange(event) }
    package func databaseWillCommit() throws { try willCommit() }
    package func databaseDidCommit(_ db: Database) { didCommit(db) }
    package func databaseDidRollback(_ db: Database) { didRollback(db) }
}
