import Foundation
import StrataSQLite

/// Watches the WAL and the read transactions of the connections it is
/// configured on: it gives the storage health report
/// (``DatabasePool/storageHealth()``) its WAL and reader figures, and warns
/// when the WAL passes a size, or when a read transaction stays open while
/// the WAL grows (the classic cause of a WAL that never stops growing:
/// SQLite cannot checkpoint past the oldest reader).
///
/// Set it on ``Configuration/storageHealthMonitor``; the connections of a
/// pool share it. Each warning goes to the handler, and to the logger as a
/// warning when the `Logging` trait gives the configuration one. Each
/// condition warns once per episode: the WAL size again only after it went
/// back under the limit, and a long read once per read transaction.
///
/// ```swift
/// var config = Configuration()
/// config.storageHealthMonitor = StorageHealthMonitor(
///     walSizeLimit: 64 * 1024 * 1024, readTransactionThreshold: 30
/// ) { warning in
///     print(warning)  // Storage health: a read transaction open for 31.2s by nightly export ...
/// }
/// let dbPool = try DatabasePool(path: path, configuration: config)
///
/// // Name the accesses whose long reads you want to recognize:
/// try StorageHealthMonitor.$accessLabel.withValue("nightly export") {
///     try dbPool.read { db in /* ... */ }
/// }
/// ```
///
/// Keeping the WAL bounded: checkpoint with `.truncate` at a quiet moment,
/// when no long read is open. The WAL is then back to 0 bytes:
///
/// ```swift
/// let result = try dbPool.walCheckpoint(.truncate)  // or: writeWithoutTransaction { try $0.checkpoint(.truncate) }
/// if !result.isComplete { /* a reader is still open: try again later */ }
/// ```
///
/// How it watches: a WAL hook on the connection that writes, which replaces
/// SQLite's automatic checkpoint and runs it itself (so
/// `PRAGMA wal_autocheckpoint` reads 0 on that connection; setting it
/// removes the hook, and the monitor then no longer sees commits), and the
/// start and end of the accesses of the readers.
///
/// Cost: nothing when it is nil (no hook, no clock read). When it is set,
/// per commit a lock and a clock read, per read access a lock and a dictionary
/// update, and per access a read of ``accessLabel``; with the accounting
/// that any instrument turns on, measured in release under callgrind: about
/// 4,300 instructions per single-row commit (+9%) and 5,600 per one-row
/// read of a pool (+20%), half of it the monitor's own.
public final class StorageHealthMonitor: Sendable {
    /// The label of the accesses that start in the scope of a value
    /// (`StorageHealthMonitor.$accessLabel.withValue("export") { ... }`, sync
    /// or async): reports and warnings name the read transactions they open
    /// by it. Nil, the default, names them by their connection only.
    @TaskLocal public static var accessLabel: String?

    /// The WAL size, in bytes, past which the monitor warns; nil for no
    /// warning.
    public let walSizeLimit: Int64?
    /// How long, in seconds, a read transaction may stay open while the WAL
    /// grows before the monitor warns; nil for no warning.
    public let readTransactionThreshold: TimeInterval?
    private let report: @Sendable (StorageHealthWarning) -> Void
    private let state = Mutex(State())

    /// A read transaction open on a reader connection.
    private struct Reader {
        weak var db: Database?
        /// Identifies the read transaction, for its warning.
        let id: Int
        /// When it started (`DispatchTime` nanoseconds).
        let start: UInt64
        let label: String?
        let connection: String
    }

    /// What the monitor knows of one database file (a class, changed in
    /// place under the monitor's lock).
    private final class FileState {
        let path: String
        var pageSize = 0
        var walFrameCount: Int?
        var lastCheckpoint: StorageHealthReport.Checkpoint?
        /// By connection.
        var readers: [ObjectIdentifier: Reader] = [:]
        var isOverWALSizeLimit = false
        /// The read transactions already warned about.
        var warnedReaders: Set<Int> = []
        /// Warnings to deliver once the commit that raised them has ended.
        var pendingWarnings: [StorageHealthWarning] = []

        init(path: String) {
            self.path = path
        }
    }

    private struct State {
        var files: [String: FileState] = [:]
        /// The file of the last lookup: the connections of a pool share
        /// their path's storage, which compares at once (no hashing).
        var lastFile: FileState?
        var nextReaderID = 0

        /// The state of the file at `path`, created on demand.
        mutating func file(_ path: String) -> FileState {
            if let lastFile, lastFile.path == path { return lastFile }
            let file: FileState
            if let existing = files[path] {
                file = existing
            } else {
                file = FileState(path: path)
                files[path] = file
            }
            lastFile = file
            return file
        }
    }

    /// Creates a monitor.
    ///
    /// - parameter walSizeLimit: The WAL size, in bytes, past which it
    ///   warns (nil: never).
    /// - parameter readTransactionThreshold: How long, in seconds, a read
    ///   transaction may stay open while commits make the WAL grow before it
    ///   warns (nil: never).
    /// - parameter report: Called with each warning, on the writer's queue,
    ///   after the commit that raised it, inside the write access: it must
    ///   not access the writer (a reentrant access is a programmer error).
    public init(
        walSizeLimit: Int64? = nil, readTransactionThreshold: TimeInterval? = nil,
        report: @escaping @Sendable (StorageHealthWarning) -> Void = { _ in }
    ) {
        self.walSizeLimit = walSizeLimit
        self.readTransactionThreshold = readTransactionThreshold
        self.report = report
    }

    /// What the report needs: the WAL frames in use, the last checkpoint, and
    /// the read transactions open on the file of `db`, but the one of `db`.
    func snapshot(of db: Database) -> (
        walFrameCount: Int?, lastCheckpoint: StorageHealthReport.Checkpoint?,
        readTransactions: [StorageHealthReport.ReadTransaction]
    ) {
        let now = DispatchTime.now().uptimeNanoseconds
        return state.withLock { state in
            let file = state.file(db.path)
            let readers = file.readers.values
                .filter { $0.db != nil && $0.db !== db }
                .sorted { $0.start < $1.start }
                .map { Self.readTransaction($0, now: now) }
            return (file.walFrameCount, file.lastCheckpoint, readers)
        }
    }

    private static func readTransaction(_ reader: Reader, now: UInt64) -> StorageHealthReport.ReadTransaction {
        StorageHealthReport.ReadTransaction(
            label: reader.label, connection: reader.connection,
            age: Double(now &- reader.start) / 1_000_000_000)
    }

    /// Delivers the warnings that the commits of `db` raised.
    private func deliverWarnings(_ db: Database) {
        let warnings = state.withLock { state -> [StorageHealthWarning] in
            let file = state.file(db.path)
            guard !file.pendingWarnings.isEmpty else { return [] }
            defer { file.pendingWarnings = [] }
            return file.pendingWarnings
        }
        for warning in warnings {
            report(warning)
            db.instrument?.diagnosticWasReported(db, message: warning.description)
        }
    }

    /// `PRAGMA page_size`, read without a statement of the library (no trace).
    private static func pageSize(_ db: Database) -> Int {
        guard let connection = db.sqliteConnection else { return 0 }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "PRAGMA page_size", -1, &statement, nil) == SQLITE_OK else { return 0 }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return 0 }
        return Int(sqlite3_column_int64(statement, 0))
    }

    private static let labelKey = "storageHealth.label"
}

extension StorageHealthMonitor: DatabaseInstrument {
    var observesWALCommits: Bool { true }
    var statementTiming: StatementTiming { .none }
    /// The long reads are measured from the start of each access.
    var timesAccesses: Bool { true }

    func connectionDidOpen(_ db: Database) {
        guard !db.isReadOnlyConnection else { return }
        let pageSize = Self.pageSize(db)
        state.withLock { $0.file(db.path).pageSize = pageSize }
    }

    func connectionDidClose(_ db: Database) {
        state.withLock { state in
            let file = state.file(db.path)
            if let reader = file.readers.removeValue(forKey: ObjectIdentifier(db)) {
                file.warnedReaders.remove(reader.id)
            }
        }
    }

    func accessWillWait(_ access: DatabaseAccessContext) {
        if let label = Self.accessLabel {
            access.attachments[Self.labelKey] = label
        }
    }

    func accessDidStart(_ access: DatabaseAccessContext, _ db: Database) {
        guard access.role == .reader else { return }
        let key = ObjectIdentifier(db)
        let label = access.attachments[Self.labelKey] as? String
        state.withLock { state in
            // A snapshot's transaction stays open between its accesses: its
            // first access started it.
            let file = state.file(db.path)
            if let reader = file.readers[key], reader.db === db { return }
            state.nextReaderID += 1
            file.readers[key] = Reader(
                db: db, id: state.nextReaderID, start: access.start, label: label, connection: access.label)
        }
    }

    func accessDidEnd(_ access: DatabaseAccessContext, _ db: Database, error: (any Error)?) {
        guard access.role == .reader else {
            deliverWarnings(db)
            return
        }
        // A snapshot keeps its transaction open after its accesses.
        guard let connection = db.sqliteConnection, sqlite3_get_autocommit(connection) != 0 else { return }
        connectionDidClose(db)
    }

    func transactionDidEnd(_ db: Database, committed: Bool) {
        guard !db.isReadOnlyConnection else { return }
        deliverWarnings(db)
    }

    func walDidCommit(_ db: Database, frameCount: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            let file = state.file(db.path)
            let previousFrameCount = file.walFrameCount ?? 0
            file.walFrameCount = frameCount
            let walSize = StorageHealthReport.walSize(frameCount: frameCount, pageSize: file.pageSize)
            checkWALSize(walSize, file)
            guard let readTransactionThreshold, frameCount > previousFrameCount else { return }
            file.readers = file.readers.filter { $0.value.db != nil }
            let threshold = UInt64(readTransactionThreshold * 1_000_000_000)
            for reader in file.readers.values.sorted(by: { $0.start < $1.start })
            where now &- reader.start >= threshold && !file.warnedReaders.contains(reader.id) {
                file.warnedReaders.insert(reader.id)
                file.pendingWarnings.append(
                    .longReadTransaction(Self.readTransaction(reader, now: now), walSize: walSize))
            }
        }
    }

    func walCheckpointDidRun(
        _ db: Database, mode: Database.CheckpointMode?, code: CInt, walFrameCount: Int, checkpointedFrameCount: Int
    ) {
        let checkpoint = StorageHealthReport.Checkpoint(
            date: Date(), mode: mode, walFrameCount: walFrameCount, checkpointedFrameCount: checkpointedFrameCount,
            isBlocked: code == SQLITE_BUSY || checkpointedFrameCount < walFrameCount)
        state.withLock { state in
            let file = state.file(db.path)
            file.lastCheckpoint = checkpoint
            if code == SQLITE_OK, walFrameCount >= 0, checkpointedFrameCount == walFrameCount,
                mode == .restart || mode == .truncate
            {
                // The next commit writes the WAL from its start.
                file.walFrameCount = 0
            } else if walFrameCount >= 0 {
                file.walFrameCount = walFrameCount
            }
            if let frameCount = file.walFrameCount {
                checkWALSize(StorageHealthReport.walSize(frameCount: frameCount, pageSize: file.pageSize), file)
            }
        }
    }

    /// Raises the WAL size warning when the WAL passes the limit, and ends
    /// its episode when the WAL went back under.
    private func checkWALSize(_ walSize: Int64, _ file: FileState) {
        guard let walSizeLimit else { return }
        if walSize > walSizeLimit {
            if !file.isOverWALSizeLimit {
                file.isOverWALSizeLimit = true
                file.pendingWarnings.append(.walSizeLimitExceeded(walSize: walSize, limit: walSizeLimit))
            }
        } else {
            file.isOverWALSizeLimit = false
        }
    }
}
