import Dispatch
import Foundation

/// A read-only pool on a database file that another process keeps up to
/// date: the output of `litestream restore -f` (Litestream's follow mode),
/// or any follower that writes pages under SQLite's exclusive lock.
///
/// ```swift
/// // litestream restore -f -o /data/replica.sqlite s3://bucket/db
/// let replica = try DatabaseReplica(path: "/data/replica.sqlite")
/// let count = try replica.read { db in try Player.fetchCount(db) }
///
/// // Notifies a fresh value after each change that the follower applies.
/// let cancellable = ValueObservation
///     .tracking { db in try Player.fetchCount(db) }
///     .removeDuplicates()
///     .start(in: replica, onError: { _ in }, onChange: { count in print(count) })
/// ```
///
/// A ``DatabasePool`` can't read such a file for long: its connections keep
/// a lock on the file while they are open, so the follower waits forever,
/// and a connection's cache would not see pages written behind SQLite's
/// back. A replica keeps a read-only pool open only between the follower's
/// applies. A timer looks at the file's locks every `followerCheckInterval`
/// (while a connection is open or an observation runs): when the follower
/// waits for the exclusive lock, new accesses wait, the pool closes once the
/// running accesses end, and the next access after the apply opens fresh
/// connections. Value observations started in a replica fetch again after
/// each apply: every change counts as a change of every region, so use
/// ``ValueObservation/removeDuplicates()`` to skip equal values.
///
/// Reads see one state from start to end, as in a pool: an apply waits for
/// them. A long read delays the follower, and the reads that start after it
/// waits.
///
/// The replica is read-only (its configuration's `readonly` is always
/// true). When the configuration's `busyMode` is `.immediateError`, the
/// default, the replica waits up to 5 seconds for the follower's lock
/// instead: a connection that opens while an apply begins would otherwise
/// throw `SQLITE_BUSY`.
public final class DatabaseReplica: Sendable {
    /// The configuration of the connections: read-only.
    public let configuration: Configuration

    /// The path of the database file.
    public let path: String

    private let connections: ReplicaConnections
    private let monitor: ReplicaMonitor

    /// Opens the replica at `path`, which the follower must have restored
    /// already. Throws `DatabaseError` when the file can't be opened or is
    /// not a database.
    ///
    /// - Parameters:
    ///   - path: the file that the follower keeps up to date.
    ///   - configuration: the configuration of the connections. `readonly`
    ///     is set, and `observesExternalChanges` is ignored: the replica
    ///     tells its observations itself.
    ///   - followerCheckInterval: how often the replica looks at the file's
    ///     locks while a connection is open or an observation runs (10 ms by
    ///     default): the longest an apply waits for the replica, and the
    ///     delay before observations hear of it.
    public init(
        path: String, configuration: Configuration = Configuration(), followerCheckInterval: TimeInterval = 0.01
    ) throws {
        var configuration = configuration
        configuration.readonly = true
        configuration.observesExternalChanges = false
        if case .immediateError = configuration.busyMode {
            configuration.busyMode = .timeout(5)
        }
        self.configuration = configuration
        self.path = path
        let label = configuration.label ?? "Strata.DatabaseReplica"
        let monitor = ReplicaMonitor(path: path, interval: followerCheckInterval, label: "\(label).monitor")
        let poolConfiguration = configuration
        connections = ReplicaConnections(
            openPool: { [weak monitor] in
                monitor?.prepareToOpenPool()
                return try DatabasePool(path: path, configuration: poolConfiguration)
            },
            closePool: { [weak monitor] pool in
                if let monitor {
                    monitor.close(pool)
                } else {
                    // The replica is gone; its pool closes off the current
                    // thread, which may run one of its accesses.
                    DispatchQueue.global().async { try? pool.close() }
                }
            },
            didOpenPool: { [weak monitor] in monitor?.startLooking() })
        monitor.attach(connections)
        self.monitor = monitor
        // Fails early on a missing file or one that is not a database.
        try connections.acquire().read { db in _ = try db.schemaVersion() }
        connections.release()
    }

    deinit {
        connections.closeEventually()
        monitor.stop()
    }

    /// Whether a read-only pool is open now: false between the moment the
    /// follower asks for the file and the next access after its apply.
    public var hasOpenConnections: Bool { connections.hasOpenPool }
}

// MARK: - DatabaseReader

extension DatabaseReplica: DatabaseReader {
    /// Closes the connections. Later accesses throw.
    public func close() throws {
        defer { monitor.stop() }
        try connections.close()
    }

    /// Interrupts the running statements, which throw `SQLITE_INTERRUPT`.
    public func interrupt() {
        connections.whileOpen { pool in pool.interrupt() }
    }

    /// Runs `value` in a read-only transaction: it sees the state of the
    /// last apply, unchanged until it returns.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try withPool { pool in try pool.read(value) }
    }

    /// Runs `value` in a read-only transaction, without blocking the calling
    /// task.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await withPool { pool in try await pool.read(value) }
    }

    /// Runs `value` outside of any transaction. The follower can't apply
    /// changes while it runs, so it sees one state too.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try withPool { pool in try pool.unsafeRead(value) }
    }

    /// Runs `value` outside of any transaction, without blocking the calling
    /// task.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await withPool { pool in try await pool.unsafeRead(value) }
    }

    /// Like `unsafeRead(_:)`, but from a read of this replica it runs right
    /// away on the same connection.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        if let pool = connections.poolOfCurrentAccess() {
            return try pool.unsafeReentrantRead(value)
        }
        return try withPool { pool in try pool.unsafeReentrantRead(value) }
    }

    /// Schedules a read-only transaction; `value` receives the connection, or
    /// the error that prevented the access.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        schedule(value, with: { pool, access in pool.asyncRead(access) })
    }

    /// Schedules an access outside of any transaction.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        schedule(value, with: { pool, access in pool.asyncUnsafeRead(access) })
    }

    /// Schedules `value` with `access` (a scheduling method of the pool)
    /// once the gate is open, and ends the access after `value` returns.
    private func schedule(
        _ value: @escaping ScheduledAccess,
        with access: @escaping @Sendable (DatabasePool, @escaping ScheduledAccess) -> Void
    ) {
        let connections = self.connections
        connections.acquire { result in
            switch result {
            case .failure(let error):
                value(.failure(error))
            case .success(let pool):
                access(pool) { result in
                    defer { connections.release() }
                    value(result)
                }
            }
        }
    }

    private func withPool<T: Sendable>(_ body: (DatabasePool) async throws -> T) async throws -> T {
        let pool = try await connections.acquire()
        defer { connections.release() }
        return try await body(pool)
    }

    private func withPool<T>(_ body: (DatabasePool) throws -> T) throws -> T {
        if let pool = connections.poolOfCurrentAccess() {
            // A read from a read of this replica: the pool stops with its
            // "not reentrant" message, as a pool's would.
            pool.checkNotReentrant()
        }
        let pool = try connections.acquire()
        defer { connections.release() }
        return try body(pool)
    }
}

/// What a scheduled access receives: the connection, or an error.
private typealias ScheduledAccess = @Sendable (Result<Database, any Error>) -> Void

// MARK: - Observation

extension DatabaseReplica: ExternallyUpdatedReader {
    func addExternalUpdateListener(_ onChange: @escaping @Sendable () -> Void) -> AnyDatabaseCancellable {
        monitor.addListener(onChange)
    }
}
