import Dispatch
import Foundation

/// A database connection that allows concurrent accesses: one writer
/// connection, and up to ``Configuration/maximumReaderCount`` read-only
/// connections opened on demand.
///
/// ```swift
/// let dbPool = try DatabasePool(path: "/path/to/database.sqlite")
/// try dbPool.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// let count = try dbPool.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// ```
///
/// Unless the configuration is read-only, the database is switched to the WAL
/// mode, so that reads and writes run in parallel. Writes run one at a time on
/// the writer queue; each read runs in a transaction on a reader queue and sees
/// one unchanging state, the last commit before it started. Pools are for
/// database files only: in-memory databases need a ``DatabaseQueue``.
///
/// On Linux, the system SQLite is built without `SQLITE_ENABLE_SNAPSHOT` (no
/// `sqlite3_snapshot_*` functions): `makeSnapshotPool()` and
/// `DatabaseSnapshotPool` are not declared there. ``makeSnapshot()`` works.
public final class DatabasePool: Sendable {
    let writer: SerializedDatabase
    let readerPool: ReaderPool
    /// The reads that observations schedule after commits.
    let concurrentReadLanes: ConcurrentReadLanes
    /// Marks the queues of this pool, to detect reentrant accesses.
    private let poolKey: PoolQueueKey
    private let snapshotCount = Counter()

    /// The configuration of the connections.
    public var configuration: Configuration { writer.configuration }

    /// The path of the database file.
    public var path: String { writer.path }

    /// Opens or creates a database file, and switches it to the WAL mode
    /// unless the configuration is read-only. Throws `DatabaseError` when the
    /// file can't be opened, is not a database, or can't use the WAL mode.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        let baseLabel = configuration.label ?? "GRDB.DatabasePool"
        writer = try SerializedDatabase(
            path: path, configuration: configuration, defaultLabel: "GRDB.DatabasePool",
            qos: configuration.writeQoS, label: "\(baseLabel).writer")
        if !configuration.readonly {
            try writer.sync { db in
                let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                if mode?.lowercased() != "wal" {
                    throw DatabaseError(message: "could not activate WAL Mode at path: \(path)")
                }
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                if case .immediateError = configuration.busyMode, !configuration.waitsForExternalLocks {
                    db.retryBrieflyWhenBusy()
                }
                // A new file gets its WAL header now, before readers open it.
                if try db.schemaVersion() == 0 {
                    let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                    try db.execute(sql: "PRAGMA user_version = \(userVersion)")
                }
            }
        }
        var configurationForReaders = configuration
        configurationForReaders.readonly = true
        // Readers never leave transactions open: their accesses manage them.
        configurationForReaders.allowsUnsafeTransactions = false
        let readerConfiguration = configurationForReaders
        let poolKey = PoolQueueKey()
        self.poolKey = poolKey
        writer.queue.setSpecific(key: poolKey.key, value: poolKey.value)
        // Readers keep the writer open: when the pool goes away, the writer
        // closes after them, checkpoints the WAL and deletes it.
        let writer = self.writer
        readerPool = ReaderPool(
            maximumCount: configuration.maximumReaderCount, instrument: configuration.makeInstrument(),
            label: baseLabel
        ) { number in
            let reader = try SerializedDatabase(
                path: path, configuration: readerConfiguration, defaultLabel: "GRDB.DatabasePool",
                qos: configuration.readQoS, label: "\(baseLabel).reader.\(number)", isReader: true,
                closingBefore: writer)
            reader.queue.setSpecific(key: poolKey.key, value: poolKey.value)
            return reader
        }
        concurrentReadLanes = ConcurrentReadLanes(
            readerPool: readerPool, maximumReaderCount: configuration.maximumReaderCount)
        concurrentReadLanes.writer = writer
    }

    /// Whether the current code runs in an access of this pool.
    var runsCurrentAccess: Bool {
        DispatchQueue.getSpecific(key: poolKey.key) == poolKey.value
    }

    /// Stops with "Database methods are not reentrant." when the current code
    /// runs in an access of this pool.
    func checkNotReentrant() {
        if runsCurrentAccess {
            fatalError("Database methods are not reentrant.")
        }
    }

    // MARK: - Closing, interrupting, memory

    /// Closes the connections. Later accesses throw. Throws when SQLite can't
    /// close a connection yet (it is then closed later). When the writer
    /// can't close, the pool stays open: later writes and reads succeed.
    public func close() throws {
        checkNotReentrant()
        var firstError: (any Error)?
        // Readers first: the writer, closing last, checkpoints the WAL and
        // deletes it.
        do { try readerPool.close() } catch { firstError = error }
        do {
            try writer.sync { db in try db.close() }
        } catch {
            readerPool.reopen()
            firstError = firstError ?? error
        }
        if let firstError { throw firstError }
    }

    /// Interrupts the running statements of all connections, which throw
    /// `SQLITE_INTERRUPT`. Wraps `sqlite3_interrupt`.
    public func interrupt() {
        writer.interrupt()
        for reader in readerPool.readers {
            reader.interrupt()
        }
    }

    /// Frees as much memory as possible: closes the idle readers (unless
    /// ``Configuration/persistentReadOnlyConnections``), and waits for the
    /// writer to release its caches.
    public func releaseMemory() {
        checkNotReentrant()
        writer.sync { db in db.releaseMemory() }
        if configuration.persistentReadOnlyConnections {
            readerPool.forEachIdleReader { reader in reader.sync { db in db.releaseMemory() } }
        } else {
            readerPool.invalidateAll()
        }
    }

    /// Frees memory without blocking: connections release their caches when
    /// their current access ends.
    public func releaseMemoryEventually() {
        writer.async { db in db.releaseMemory() }
        if configuration.persistentReadOnlyConnections {
            for reader in readerPool.readers {
                reader.async { db in db.releaseMemory() }
            }
        } else {
            readerPool.invalidateAll()
        }
    }

    /// Closes the read-only connections: idle ones now, busy ones when their
    /// access ends. Later reads open fresh connections.
    public func invalidateReadOnlyConnections() {
        readerPool.invalidateAll()
    }

    // MARK: - Snapshots

    /// Returns a snapshot: a read-only connection that sees the database as it
    /// is now, forever, without blocking writes.
    ///
    /// Called from the writer queue outside of a transaction, the snapshot sees
    /// the last committed state. Calling it inside a write transaction is a
    /// fatal error.
    public func makeSnapshot() throws -> DatabaseSnapshot {
        try unsafeReentrantWrite { db in
            if db.isInsideTransaction {
                fatalError("makeSnapshot() must not be called from inside a transaction.")
            }
            try db.checkNotClosed()
            let number = snapshotCount.next()
            return try DatabaseSnapshot(
                path: path, configuration: configuration,
                label: "\(configuration.label ?? "GRDB.DatabasePool").snapshot.\(number)", closingBefore: writer)
        }
    }

    // MARK: - Writes

    /// Runs `updates` in a transaction that commits or rolls back as they return.
    ///
    /// ```swift
    /// try dbPool.writeInTransaction { db in
    ///     try db.execute(sql: "INSERT ...")
    ///     return .commit
    /// }
    /// ```
    public func writeInTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion
    ) throws {
        checkNotReentrant()
        try writer.sync { db in
            try db.inTransaction(kind) { try updates(db) }
        }
    }

    // MARK: - Concurrent reads

    /// From the writer queue, outside of any transaction: blocks until a
    /// reader is isolated on the last committed state, then runs `value` on
    /// that reader, asynchronously. Other calls are a fatal error.
    ///
    /// ```swift
    /// try dbPool.writeWithoutTransaction { db in
    ///     try db.inTransaction {
    ///         try db.execute(sql: "INSERT ...")
    ///         return .commit
    ///     }
    ///     dbPool.asyncConcurrentRead { dbResult in
    ///         // Sees the insert, whatever the writes that follow.
    ///     }
    /// }
    /// ```
    public func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        guard writer.isOnQueue else {
            fatalError("asyncConcurrentRead must be called from the writer queue.")
        }
        writer.execute { db in
            if db.isInsideTransaction {
                fatalError("asyncConcurrentRead must not be called from inside a transaction.")
            }
        }
        let reader: SerializedDatabase
        do {
            reader = try readerPool.acquire()
        } catch {
            value(.failure(error))
            return
        }
        let isolated = DispatchSemaphore(value: 0)
        let readerPool = self.readerPool
        reader.async { db in
            defer { readerPool.release(reader) }
            do {
                try db.beginIsolatedReadTransaction()
            } catch {
                isolated.signal()
                value(.failure(error))
                return
            }
            isolated.signal()
            value(.success(db))
            db.endIsolatedReadTransaction()
        }
        isolated.wait()
    }
}

// MARK: - DatabaseReader

extension DatabasePool: DatabaseReader {
    /// Runs `value` in a read-only transaction on a reader: it sees the last
    /// committed state, unchanged until it returns. Writes throw
    /// `SQLITE_READONLY`.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        checkNotReentrant()
        let reader = try readerPool.acquire()
        defer { readerPool.release(reader) }
        return try reader.syncFromOutsideQueue { db in try db.isolatedRead { try value(db) } }
    }

    /// Runs `value` in a read-only transaction, without blocking the calling
    /// task, which waits for a reader when all are busy. Task cancellation
    /// throws `CancellationError` and interrupts the running statement.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        let reader = try await readerPool.acquire()
        defer { readerPool.release(reader) }
        return try await withoutActuallyEscaping(value) { value in
            try await reader.execute { db in try db.isolatedRead { try value(db) } }
        }
    }

    /// Runs `value` on a reader, outside of any transaction: successive
    /// statements may see different states.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        checkNotReentrant()
        let reader = try readerPool.acquire()
        defer { readerPool.release(reader) }
        return try reader.syncFromOutsideQueue { db in
            try db.checkNotClosed()
            return try value(db)
        }
    }

    /// Runs `value` on a reader, outside of any transaction, without blocking
    /// the calling task.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        let reader = try await readerPool.acquire()
        defer { readerPool.release(reader) }
        return try await withoutActuallyEscaping(value) { value in
            try await reader.execute { db in
                try db.checkNotClosed()
                return try value(db)
            }
        }
    }

    /// Like `unsafeRead(_:)`, but from a read of
    /// this pool it runs right away on the same reader, and from a write on
    /// the writer connection.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        if let reader = readerPool.currentReader {
            return try reader.execute(value)
        }
        if writer.isOnQueue {
            // From a write: read through the writer connection.
            return try writer.execute(value)
        }
        let reader = try readerPool.acquire()
        defer { readerPool.release(reader) }
        return try reader.sync { db in
            try db.checkNotClosed()
            return try value(db)
        }
    }

    /// Schedules a read-only transaction on a reader; `value` receives the
    /// connection, or the error that prevented the access.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        let readerPool = self.readerPool
        readerPool.acquire { result in
            switch result {
            case .failure(let error):
                value(.failure(error))
            case .success(let reader):
                reader.async { db in
                    defer { readerPool.release(reader) }
                    do {
                        try db.isolatedRead { value(.success(db)) }
                    } catch {
                        value(.failure(error))
                    }
                }
            }
        }
    }

    /// Schedules an access on a reader, outside of any transaction.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        let readerPool = self.readerPool
        readerPool.acquire { result in
            switch result {
            case .failure(let error):
                value(.failure(error))
            case .success(let reader):
                reader.async { db in
                    defer { readerPool.release(reader) }
                    do {
                        try db.checkNotClosed()
                        value(.success(db))
                    } catch {
                        value(.failure(error))
                    }
                }
            }
        }
    }
}

/// The dispatch-specific key that marks the queues of one pool.
private final class PoolQueueKey: @unchecked Sendable {
    let key = DispatchSpecificKey<ObjectIdentifier>()
    var value: ObjectIdentifier { ObjectIdentifier(self) }
}

/// A thread-safe counter.
private final class Counter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
