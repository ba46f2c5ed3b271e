// One class, one file: the broker's state (observers, pending events,
// savepoint stacks, the pre-update hook and who holds it) is changed by
// SQLite's hooks and by statements in an order that only reads right in one
// place; split into extensions, each part would reach into the others'
// private state.
//
// A write's notification path has two halves. This file holds SQLite's
// update and pre-update hooks (each changed row; "Hooks" below) and what
// the broker does with them. The commit and rollback hooks, which end a
// transaction and call `databaseWillCommit`, `databaseWillRollback` and
// `transactionDidComplete` here, are Core's:
// `Core/Transactions/Database+CommitHooks.swift`.

import Foundation

/// Delivers the changes, commits and rollbacks of one connection to its
/// transaction observers. Lives on the connection's queue.
///
/// Before each statement, observers tell which of its event kinds they want
/// (``TransactionObserver/observes(eventsOfKind:)``); SQLite's update and
/// pre-update hooks then report each changed row. Changes made inside a
/// savepoint wait for its release, and are dropped when it is rolled back.
/// Its state is only touched on that queue: it skips the dynamic exclusivity
/// checks.
final class TransactionObservationBroker {
    /// A change waiting for the release of a savepoint.
    enum PendingChange {
        case change(Registration, DatabaseEvent)
        case preUpdate(Registration, DatabasePreUpdateEvent)
        case unspecified(Registration)

        var registration: Registration {
            switch self {
            case .change(let registration, _), .preUpdate(let registration, _), .unspecified(let registration):
                return registration
            }
        }
    }

    unowned(unsafe) let database: Database
    @exclusivity(unchecked) var registrations: [Registration] = [] {
        didSet {
            let hadApplicationObservers = hasApplicationObservers
            hasApplicationObservers = registrations.contains { $0.isApplicationObserver }
            unretainedRegistrations = registrations.map { Unmanaged.passUnretained($0) }
            if hasApplicationObservers != hadApplicationObservers {
                // Only application observers hear of pre-update events:
                // without them, SQLite skips its pre-update work.
                installPreUpdateHook(hasApplicationObservers)
            }
            if observesExternalChanges {
                updateExternalChangeMonitoring()
            }
        }
    }
    /// The registrations, for the loops of each statement and commit: they
    /// call each one without reference counting, while a copy of
    /// `registrations` keeps them alive.
    @exclusivity(unchecked) private var unretainedRegistrations: [Unmanaged<Registration>] = []
    /// Whether some registration is not a ``LibraryTransactionObserver``:
    /// only those are asked whether a transaction commits, and hear of
    /// pre-update events.
    @exclusivity(unchecked) private var hasApplicationObservers = false

    /// The observers of the running statement, with the event kinds each wants.
    @exclusivity(unchecked) private var statementObservations: [(Registration, [DatabaseEventKind])] = []
    /// The event kinds the current statement declared (through the authorizer).
    @exclusivity(unchecked) private var statementKinds: [DatabaseEventKind] = []
    /// Whether the observers of the current statement heard of a change to
    /// a table it did not declare.
    @exclusivity(unchecked) private var hasNotifiedUndeclaredChange = false
    /// Whether an observer of the current statement wants its pre-update
    /// events.
    @exclusivity(unchecked) private var statementWantsPreUpdateEvents = false

    /// Open savepoints, innermost last, with the number of pending changes
    /// when each started.
    @exclusivity(unchecked) private var savepoints: [(name: String, pendingCount: Int)] = []
    @exclusivity(unchecked) private var pendingChanges: [PendingChange] = []

    /// The error thrown by `databaseWillCommit`, to rethrow instead of SQLite's.
    var commitError: (any Error)?

    /// How many users other than the broker hold SQLite's one pre-update
    /// hook (the recordings of the session extension, which install their
    /// own): while positive, the broker leaves the hook alone, and its
    /// observers hear of no pre-update event.
    @exclusivity(unchecked) private var preUpdateHookLoans = 0

    /// Whether the connection looks for the commits of other connections
    /// (``Configuration/observesExternalChanges``) while it has library
    /// observers.
    let observesExternalChanges: Bool

    /// Watches the database file for the commits of other connections,
    /// while library observers are registered; nil until the first one.
    @exclusivity(unchecked) var externalChangeMonitor: ExternalChangeMonitor?

    /// Holds the fetches of paced value observations until their time;
    /// nil until the first one registers (``pacerForObservations``).
    @exclusivity(unchecked) private var fetchPacer: FetchPacer?

    /// The pacer of the writer's paced value observations, made on first
    /// use. On the writer's queue.
    var pacerForObservations: FetchPacer {
        if let fetchPacer { return fetchPacer }
        let pacer = FetchPacer()
        fetchPacer = pacer
        return pacer
    }

    init(database: Database) {
        self.database = database
        observesExternalChanges =
            database.configuration.observesExternalChanges && ExternalChangeMonitor.canWatch(path: database.path)
    }

    var isEmpty: Bool { registrations.isEmpty }

    /// Forgets deallocated observers, and uninstalls the hooks when none is left.
    func pruneIfEmpty() {
        registrations.removeAll { $0.observer == nil }
        if registrations.isEmpty {
            uninstallHooks()
            statementObservations = []
        }
    }

    // MARK: - Statements

    func statementWillExecute(_ statement: Statement) {
        let kinds = statement.eventKinds
        if !statementObservations.isEmpty { statementObservations.removeAll(keepingCapacity: true) }
        statementKinds = kinds
        hasNotifiedUndeclaredChange = false
        statementWantsPreUpdateEvents = false
        if kinds.isEmpty { return }
        // Only application observers may stop observing from
        // `observes(eventsOfKind:)`.
        withCurrentBroker(if: hasApplicationObservers) {
            let firstKind = kinds[0]
            let current = registrations
            for unretained in unretainedRegistrations {
                unretained._withUnsafeGuaranteedRef { registration in
                    // Most statements have one kind: the array is shared, not filtered.
                    let observed: [DatabaseEventKind]
                    if kinds.count == 1 {
                        guard registration.wantsChanges(ofKind: firstKind) else { return }
                        observed = kinds
                    } else {
                        let filtered = kinds.filter { registration.wantsChanges(ofKind: $0) }
                        if filtered.isEmpty { return }
                        observed = filtered.count == kinds.count ? kinds : filtered
                    }
                    statementObservations.append((registration, observed))
                    if registration.isApplicationObserver {
                        statementWantsPreUpdateEvents = true
                    }
                }
            }
            withExtendedLifetime(current) {}
        }
    }

    func statementDidExecute(_ statement: Statement) {
        if !statementObservations.isEmpty { statementObservations.removeAll(keepingCapacity: true) }
        guard let action = statement.savepointAction else { return }
        switch action {
        case .begin(let name):
            savepoints.append((name, pendingChanges.count))
        case .release(let name):
            guard let index = savepointIndex(name) else { return }
            savepoints.removeSubrange(index...)
            if savepoints.isEmpty {
                deliverPendingChanges()
            }
        case .rollback(let name):
            guard let index = savepointIndex(name) else { return }
            pendingChanges.removeSubrange(savepoints[index].pendingCount...)
            savepoints.removeSubrange((index + 1)...)
        }
        if !database.isInsideTransaction {
            // A savepoint that was the transaction ended with it.
            savepoints = []
            pendingChanges = []
        }
    }

    func statementDidFail() {
        if !statementObservations.isEmpty { statementObservations.removeAll(keepingCapacity: true) }
    }

    private func savepointIndex(_ name: String) -> Int? {
        savepoints.lastIndex { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    // MARK: - Changes

    /// Handles one row change reported by SQLite's update hook.
    func databaseDidChange(_ event: DatabaseEvent) {
        // Common: all observers are idle or parked.
        if statementObservations.isEmpty { return }
        if !statementKinds.contains(where: { event.matches(tableName: $0.tableName) }) {
            // SQLite reports the change of a table that the statement did
            // not declare: the shadow table of a full-text table. It is a
            // change of what the statement declared.
            notifyUndeclaredChange()
            return
        }
        withCurrentBroker {
            for (registration, kinds) in statementObservations
            where kinds.contains(where: { $0.eventKind == event.kind && event.matches(tableName: $0.tableName) }) {
                if savepoints.isEmpty {
                    guard let observer = registration.observerHearingChange() else { continue }
                    observer.databaseDidChange(with: event)
                } else {
                    pendingChanges.append(.change(registration, event.copy()))
                }
            }
        }
    }

    /// Notifies the observers of the current statement, once, of a change
    /// to a table the statement did not declare.
    private func notifyUndeclaredChange() {
        guard !hasNotifiedUndeclaredChange else { return }
        hasNotifiedUndeclaredChange = true
        for (registration, _) in statementObservations {
            if savepoints.isEmpty {
                guard let observer = registration.observerHearingChange() else { continue }
                withCurrentBroker { observer.databaseDidChange() }
            } else {
                pendingChanges.append(.unspecified(registration))
            }
        }
    }

    /// Handles one row change reported by SQLite's pre-update hook, when an
    /// observer of the statement wants pre-update events (the hook checks
    /// `statementWantsPreUpdateEvents`). The event is built only when one of
    /// them wants this change.
    func databaseWillChange(
        connection: SQLiteConnection, kind: DatabasePreUpdateEvent.Kind, databaseName: UnsafePointer<CChar>,
        tableName: UnsafePointer<CChar>, initialRowID: Int64, finalRowID: Int64
    ) {
        let eventKind = DatabaseEvent.Kind(rawValue: kind.rawValue)
        var event: DatabasePreUpdateEvent?
        for (registration, kinds) in statementObservations
        where registration.isApplicationObserver
            && kinds.contains(where: {
                $0.eventKind == eventKind && $0.tableName.withCString { sqlite3_stricmp($0, tableName) == 0 }
            })
        {
            let currentEvent =
                event
                ?? DatabasePreUpdateEvent(
                    connection: connection, kind: kind, databaseName: databaseName, tableName: tableName,
                    initialRowID: initialRowID, finalRowID: finalRowID)
            event = currentEvent
            if savepoints.isEmpty {
                guard let observer = registration.observerHearingChange() else { continue }
                withCurrentBroker { observer.databaseWillChange(with: currentEvent) }
            } else {
                pendingChanges.append(.preUpdate(registration, currentEvent.copy()))
            }
        }
    }

    /// Notifies the observers of changes SQLite does not report.
    func notifyChanges(in region: DatabaseRegion) throws {
        for registration in registrations {
            guard let observer = registration.changeObserver, !registration.skipsWhilePending() else { continue }
            guard try observes(region, observer) else { continue }
            if savepoints.isEmpty {
                registration.heardOfChanges = true
                withCurrentBroker { observer.databaseDidChange() }
            } else {
                pendingChanges.append(.unspecified(registration))
            }
        }
    }

    /// Whether an observer wants some change of the region.
    private func observes(_ region: DatabaseRegion, _ observer: any TransactionObserver) throws -> Bool {
        guard let tables = region.tableRegions else { return true }
        for (table, tableRegion) in tables {
            let columns: Set<String>
            if let regionColumns = tableRegion.columns {
                columns = regionColumns
            } else {
                columns = Set((try? database.columns(in: table))?.map(\.name) ?? [])
            }
            let kinds: [DatabaseEventKind] = [
                .insert(tableName: table), .delete(tableName: table), .update(tableName: table, columnNames: columns),
            ]
            if withCurrentBroker({ kinds.contains { observer.observes(eventsOfKind: $0) } }) {
                return true
            }
        }
        return false
    }

    private func deliverPendingChanges() {
        if pendingChanges.isEmpty { return }
        let changes = pendingChanges
        pendingChanges = []
        for change in changes {
            guard let observer = change.registration.observerHearingChange() else { continue }
            withCurrentBroker {
                switch change {
                case .change(_, let event): observer.databaseDidChange(with: event)
                case .preUpdate(_, let event): observer.databaseWillChange(with: event)
                case .unspecified: observer.databaseDidChange()
                }
            }
        }
    }

    // MARK: - Transactions

    /// Called by the commit hook: returns false to turn the commit into a rollback.
    func databaseWillCommit() -> Bool {
        deliverPendingChanges()
        savepoints = []
        if observesExternalChanges, let externalChangeMonitor {
            externalChangeMonitor.ownTransactionWillCommit()
        }
        guard hasApplicationObservers else { return true }
        do {
            try withCurrentBroker {
                for registration in registrations where registration.isApplicationObserver {
                    guard let observer = registration.observer else { continue }
                    try observer.databaseWillCommit()
                }
            }
        } catch {
            commitError = error
            return false
        }
        return true
    }

    /// Called by the rollback hook.
    func databaseWillRollback() {
        savepoints = []
        pendingChanges = []
    }

    /// Called once a transaction has committed or rolled back.
    func transactionDidComplete(committed: Bool) {
        // Before the observers, which may hold a fetch from this commit on.
        if committed, let fetchPacer { fetchPacer.writerDidCommit() }
        // Keeps the registrations alive, even if an observer is removed
        // meanwhile.
        let current = registrations
        let unretainedCurrent = unretainedRegistrations
        // Whether a registration ends now, or lost its observer.
        var prunes = false
        // The broker becomes current before the first observer is
        // notified: parked observers are not.
        var currentBroker = CurrentBrokerScope(self)
        for unretained in unretainedCurrent {
            unretained._withUnsafeGuaranteedRef { registration in
                registration.ignoresChangesUntilTransactionEnd = false
                if registration.extent == .nextTransaction { prunes = true }
                if registration.isParkedThroughCommit(committed: committed) { return }
                if registration.isQuietThroughCompletion() { return }
                currentBroker.enter()
                if !registration.notifyTransactionCompletion(committed: committed, database) {
                    prunes = true
                }
            }
        }
        currentBroker.exit()
        guard prunes else { return }
        for registration in current where registration.extent == .nextTransaction {
            registration.isRemoved = true
        }
        registrations.removeAll { $0.isRemoved }
        pruneIfEmpty()
    }

    // MARK: - Hooks

    func installHooks() {
        guard let connection = database.sqliteConnection else { return }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(
            connection,
            { context, kind, databaseName, tableName, rowID in
                guard let context, let databaseName, let tableName,
                    let kind = DatabaseEvent.Kind(rawValue: kind)
                else { return }
                // The connection owns the broker while its hooks run.
                Unmanaged<TransactionObservationBroker>.fromOpaque(context)._withUnsafeGuaranteedRef { broker in
                    broker.databaseDidChange(
                        DatabaseEvent(
                            kind: kind, rowID: rowID, names: .borrowed(database: databaseName, table: tableName)))
                }
            }, context)
        installPreUpdateHook(hasApplicationObservers)
    }

    /// Installs or removes the pre-update hook.
    private func installPreUpdateHook(_ installs: Bool) {
        guard preUpdateHookLoans == 0, let connection = database.sqliteConnection else { return }
        // Where the connection lacks pre-update hooks (or a test lowered
        // them), observers hear of no pre-update event.
        guard installs, database.isSQLiteFeatureAvailable(.preUpdateHook) else {
            _strata_preupdate_hook(connection, nil, nil)
            return
        }
        _strata_preupdate_hook(
            connection,
            { context, connection, kind, databaseName, tableName, initialRowID, finalRowID in
                guard let context, let connection, let databaseName, let tableName,
                    let kind = DatabasePreUpdateEvent.Kind(rawValue: kind)
                else { return }
                Unmanaged<TransactionObservationBroker>.fromOpaque(context)._withUnsafeGuaranteedRef { broker in
                    guard broker.statementWantsPreUpdateEvents else { return }
                    broker.databaseWillChange(
                        connection: connection, kind: kind, databaseName: databaseName, tableName: tableName,
                        initialRowID: initialRowID, finalRowID: finalRowID)
                }
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func uninstallHooks() {
        guard let connection = database.sqliteConnection else { return }
        sqlite3_update_hook(connection, nil, nil)
        if preUpdateHookLoans == 0 {
            _strata_preupdate_hook(connection, nil, nil)
        }
    }

    /// Gives SQLite's pre-update hook to another user, which installs its
    /// own: the broker's hook is removed until every loan is returned.
    func lendPreUpdateHook() {
        if preUpdateHookLoans == 0, let connection = database.sqliteConnection {
            _strata_preupdate_hook(connection, nil, nil)
        }
        preUpdateHookLoans += 1
    }

    /// Ends a loan of `lendPreUpdateHook()`; the last one reinstalls the
    /// broker's hook when its observers want pre-update events. The
    /// borrower must have removed its own hook.
    func returnPreUpdateHook() {
        precondition(preUpdateHookLoans > 0, "pre-update hook returned but not lent")
        preUpdateHookLoans -= 1
        if preUpdateHookLoans == 0 {
            installPreUpdateHook(hasApplicationObservers)
        }
    }

    // MARK: - Current broker

    /// The broker whose callback runs on this thread, for
    /// ``TransactionObserver/stopObservingDatabaseChangesUntilNextTransaction()``.
    static var current: TransactionObservationBroker? {
        guard let pointer = pthread_getspecific(currentBrokerKey) else { return nil }
        return Unmanaged<TransactionObservationBroker>.fromOpaque(pointer).takeUnretainedValue()
    }

    func withCurrentBroker<T>(_ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(currentBrokerKey)
        pthread_setspecific(currentBrokerKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(currentBrokerKey, previous) }
        return try body()
    }

    /// Runs `body`, with the broker current when `condition` is true.
    @inline(__always)
    private func withCurrentBroker<T>(if condition: Bool, _ body: () throws -> T) rethrows -> T {
        condition ? try withCurrentBroker(body) : try body()
    }

    /// Makes a broker current from the first call to `enter()` until `exit()`.
    private struct CurrentBrokerScope {
        let broker: UnsafeMutableRawPointer
        var previous: UnsafeMutableRawPointer?
        var isEntered = false

        init(_ broker: TransactionObservationBroker) {
            self.broker = Unmanaged.passUnretained(broker).toOpaque()
        }

        mutating func enter() {
            guard !isEntered else { return }
            isEntered = true
            previous = pthread_getspecific(currentBrokerKey)
            pthread_setspecific(currentBrokerKey, broker)
        }

        func exit() {
            if isEntered { pthread_setspecific(currentBrokerKey, previous) }
        }
    }
}

/// The thread-specific key of ``TransactionObservationBroker/current``.
private let currentBrokerKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
