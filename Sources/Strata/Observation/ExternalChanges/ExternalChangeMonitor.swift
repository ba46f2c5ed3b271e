// Notices the commits that other connections make to the database file of
// a writer connection (Configuration.observesExternalChanges), and tells
// the library's observers of that connection, as if the writer had
// committed a change of every region.
//
// Detection: `PRAGMA data_version` on the writer changes when, and only
// when, another connection committed since the last time it was read: the
// writer's own commits never change it, so they are not reported twice.
// When to look: file notifications (FileChangeWatcher.swift), or a timer.
//
// In WAL mode, the last file event of a commit (the write of its frames
// to the WAL) comes before the commit is visible (SQLite then updates the
// WAL index, in shared memory, with no file event). A check that follows
// an event and sees no new commit is therefore tried again a few times,
// at growing delays (`recheckDelays`): the commit is seen by one of them,
// the last 6 s after the event, for a writer process that the system
// stopped between its last write and its commit.
//
// A suspended connection (Database.suspendNotification) takes no lock:
// the checks wait until it resumes.
//
// The connection's own commits write the files too. Each write would queue
// a file event in the kernel, a cost paid by each write of the connection
// (several per commit). So while the connection commits, the watcher
// ignores writes, and each own commit asks for a check instead (at most one
// per `minimumCheckInterval`): another process's commit is seen at the
// next own commit, or at the latest when the watcher resumes,
// `writeQuietInterval` after the last own commit, with a check.

import Dispatch
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Watches the file of one writer connection for commits made by other
/// connections. Its state is only touched on the connection's queue, except
/// the two flags.
final class ExternalChangeMonitor: @unchecked Sendable {
    /// The delays of the checks that follow a file event that showed no
    /// commit yet, in seconds.
    static let recheckDelays: [TimeInterval] = [0.01, 0.05, 0.25, 1, 5]

    /// The shortest time between two checks, in seconds. Each commit of the
    /// pool itself writes the WAL, and wakes the watcher: at most one check
    /// per interval keeps the cost of those wake-ups off the writes.
    static let minimumCheckInterval: TimeInterval = 0.01

    /// How long after the connection's last own commit the watcher notices
    /// writes again, in seconds.
    static let writeQuietInterval: TimeInterval = 0.05

    /// How often a suspended connection looks whether it was resumed, to
    /// check the data version then, in seconds.
    static let suspendedCheckInterval: TimeInterval = 0.5

    private let files: DatabaseFileNames
    private let usesNotifications: Bool
    private let pollingInterval: TimeInterval
    /// The connection's queue; weak: the connection owns the monitor.
    private weak var connection: SerializedDatabase?
    /// Where the watcher calls, off the connection's queue.
    private let eventQueue = DispatchQueue(label: "Strata.ExternalChanges")

    private var watcher: (any FileChangeWatcher)?
    /// The writer's `PRAGMA data_version` at the last check.
    private(set) var dataVersion: Int64 = 0
    /// The device and inode of the database file when watching started.
    private var fileIdentity: FileIdentity?
    /// How many rechecks followed the last file event.
    private var recheckCount = Int.max
    /// Set from the scheduling of a check until `minimumCheckInterval`
    /// after it ran: the checks asked meanwhile are one, pending.
    private let checkIsScheduled = AtomicFlag(false)
    /// Whether a check was asked while `checkIsScheduled`.
    private let checkIsPending = AtomicFlag(false)
    /// Set by file events: the next check starts the rechecks again.
    private let fileDidChange = AtomicFlag(false)
    /// When the connection last committed (`DispatchTime` nanoseconds).
    private let lastOwnCommit = Mutex<UInt64>(0)
    /// Whether the watcher ignores writes, until `writeQuietInterval` after
    /// the last own commit.
    private let watcherIgnoresWrites = AtomicFlag(false)

    /// Whether the monitor watches.
    private(set) var isRunning = false
    /// Whether the monitor stopped after an error: it does not start again,
    /// and the observations that start later fail at once.
    private var failure: (any Error)?
    /// Whether the watcher uses file notifications (false: a timer). On
    /// the connection's queue.
    private(set) var usesFileNotifications = false
    /// How many checks ran, for the tests.
    private(set) var checkCount = 0

    init(path: String, configuration: Configuration, connection: SerializedDatabase?) {
        files = DatabaseFileNames(path: path)
        usesNotifications = configuration.externalChangeUsesFileNotifications
        pollingInterval = configuration.externalChangePollingInterval
        self.connection = connection
    }

    deinit {
        watcher?.stop()
    }

    /// Whether a database at this path can be watched: not in memory, nor
    /// a temporary database.
    static func canWatch(path: String) -> Bool {
        !path.isEmpty && path != ":memory:" && !path.hasPrefix("file::memory:") && !path.contains("mode=memory")
    }

    // MARK: - Start and stop

    /// Reads the current data version and starts watching. On the
    /// connection's queue, outside of a transaction or at its start.
    /// Throws the error that stopped the monitor before, if any.
    func start(_ db: Database) throws {
        if let failure { throw failure }
        guard !isRunning, let sqliteConnection = db.sqliteConnection else { return }
        let version = try Self.dataVersion(sqliteConnection)
        dataVersion = version
        fileIdentity = FileIdentity(path: files.databasePath)
        let (watcher, notifies) = FileChangeWatchers.make(
            path: files.databasePath, usesNotifications: usesNotifications, pollingInterval: pollingInterval,
            queue: eventQueue,
            onChange: { [weak self] isNotification in self?.watcherDidCall(isNotification: isNotification) })
        self.watcher = watcher
        usesFileNotifications = notifies
        isRunning = true
    }

    /// Stops watching. On the connection's queue.
    func stop() {
        guard isRunning else { return }
        isRunning = false
        watcher?.stop()
        watcher = nil
    }

    // MARK: - Own commits

    /// Called as the connection commits a write transaction, on its queue.
    func ownTransactionWillCommit() {
        guard isRunning, usesFileNotifications else { return }
        lastOwnCommit.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
        // Another process's commit is seen at this check rather than at a
        // file event.
        scheduleCheck()
        guard !watcherIgnoresWrites.exchange(true), let watcher else { return }
        eventQueue.async { [weak self] in
            watcher.setIgnoresWrites(true)
            self?.scheduleWriteNotificationsResumption(of: watcher, after: Self.writeQuietInterval)
        }
    }

    /// On `eventQueue`: once no own commit happened for
    /// `writeQuietInterval`, the watcher notices writes again, and a check
    /// looks for the commits of others made meanwhile.
    private func scheduleWriteNotificationsResumption(of watcher: any FileChangeWatcher, after delay: TimeInterval) {
        eventQueue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            let quiet = UInt64(Self.writeQuietInterval * 1_000_000_000)
            let elapsed = DispatchTime.now().uptimeNanoseconds &- lastOwnCommit.withLock { $0 }
            if elapsed < quiet {
                scheduleWriteNotificationsResumption(of: watcher, after: Double(quiet - elapsed) / 1_000_000_000)
                return
            }
            watcher.setIgnoresWrites(false)
            watcherIgnoresWrites.store(false)
            fileDidChange.store(true)
            scheduleCheck()
        }
    }

    // MARK: - Checks

    /// Called on `eventQueue`.
    private func watcherDidCall(isNotification: Bool) {
        if isNotification {
            fileDidChange.store(true)
        }
        scheduleCheck()
    }

    /// Schedules a check on the connection's queue, unless one is
    /// scheduled, or ran less than `minimumCheckInterval` ago: the check is
    /// then pending, and runs once that interval has passed.
    private func scheduleCheck() {
        guard !checkIsScheduled.exchange(true) else {
            checkIsPending.store(true)
            return
        }
        guard let connection else { return }
        connection.async { [self] db in
            // This check sees what the pending asks wanted to see.
            _ = checkIsPending.exchange(false)
            check(db)
            eventQueue.asyncAfter(deadline: .now() + Self.minimumCheckInterval) { [weak self] in
                guard let self else { return }
                checkIsScheduled.store(false)
                if checkIsPending.exchange(false) {
                    scheduleCheck()
                }
            }
        }
    }

    private func scheduleRecheck() {
        guard recheckCount < Self.recheckDelays.count else { return }
        let delay = Self.recheckDelays[recheckCount]
        recheckCount += 1
        eventQueue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.scheduleCheck() }
    }

    /// Compares the data version, and tells the observers of a new commit.
    /// On the connection's queue (the tests call it too).
    func check(_ db: Database) {
        guard isRunning, let broker = db.observationBroker else { return }
        checkCount += 1
        guard let sqliteConnection = db.sqliteConnection,
            broker.registrations.contains(where: { !$0.isApplicationObserver })
        else {
            // Closed, or no observation registered since the start (its
            // first fetch failed).
            stop()
            return
        }
        if fileDidChange.exchange(false) {
            recheckCount = 0
        }
        if let error = fileReplacementError() {
            fail(error, broker)
            return
        }
        if db.suspension?.isSuspended == true {
            // Reading the data version may take a lock, which a suspended
            // process must not hold: look again later, until it resumes.
            fileDidChange.store(true)
            eventQueue.asyncAfter(deadline: .now() + Self.suspendedCheckInterval) { [weak self] in
                self?.scheduleCheck()
            }
            return
        }
        if db.isInsideTransaction {
            // A transaction left open (allowsUnsafeTransactions): its data
            // version is its snapshot's. Look again later.
            recheckCount = min(recheckCount, Self.recheckDelays.count - 1)
            scheduleRecheck()
            return
        }
        let version: Int64
        do {
            version = try Self.dataVersion(sqliteConnection)
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        {
            // Another connection is committing in rollback-journal mode:
            // look again when it is done.
            recheckCount = min(recheckCount, Self.recheckDelays.count - 1)
            scheduleRecheck()
            return
        } catch {
            fail(error, broker)
            return
        }
        if version != dataVersion {
            dataVersion = version
            broker.notifyExternalCommit()
        } else {
            scheduleRecheck()
        }
    }

    private func fail(_ error: any Error, _ broker: TransactionObservationBroker) {
        stop()
        failure = error
        broker.notifyExternalFailure(error)
    }

    /// An error when the database file is gone or another file took its
    /// place: the connection keeps the old file open, and would never see
    /// the commits made to the new one.
    private func fileReplacementError() -> DatabaseError? {
        guard let fileIdentity else { return nil }
        let current = FileIdentity(path: files.databasePath)
        if current == fileIdentity { return nil }
        let what = current == nil ? "deleted" : "replaced by another file"
        return DatabaseError(
            resultCode: .SQLITE_READONLY_DBMOVED,
            message: "the database file \(files.databasePath) was \(what): "
                + "the connection no longer sees the changes made to it; open the database again")
    }

    /// The connection's `PRAGMA data_version`, read without the statement
    /// machinery: no trace, no instrument, no observer hears of it.
    static func dataVersion(_ connection: SQLiteConnection) throws -> Int64 {
        var statement: SQLiteStatement?
        let code = sqlite3_prepare_v2(connection, "PRAGMA data_version", -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw DatabaseError.lastError(of: connection, resultCode: code)
        }
        defer { sqlite3_finalize(statement) }
        let step = sqlite3_step(statement)
        guard step == SQLITE_ROW else {
            throw DatabaseError.lastError(of: connection, resultCode: step)
        }
        return sqlite3_column_int64(statement, 0)
    }
}

/// The device and inode of a file.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }
}
