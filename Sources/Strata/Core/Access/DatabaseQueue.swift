import Dispatch
import Foundation

/// A database connection that serializes all accesses, reads and writes.
///
/// ```swift
/// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite")
/// try dbQueue.write { db in
///     try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
/// }
/// let count = try dbQueue.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// ```
///
/// A queue is usable from any thread and task; it closes when deinitialized.
public final class DatabaseQueue: Sendable {
    let writer: SerializedDatabase

    /// A file to delete when the queue is deinitialized (temporary copies).
    private let temporaryDirectory: URL?

    /// The configuration of the connection.
    public var configuration: Configuration { writer.configuration }

    /// The path of the database file.
    public var path: String { writer.path }

    /// Opens or creates a database file. Throws `DatabaseError` when it can't
    /// be opened, or is not a database.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        writer = try SerializedDatabase(
            path: path, configuration: configuration, defaultLabel: "GRDB.DatabaseQueue",
            qos: configuration.writeQoS, isReader: configuration.readonly)
        temporaryDirectory = nil
        if configuration.journalMode == .wal && !configuration.readonly {
            try writer.sync { db in
                let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                if mode?.lowercased() != "wal" {
                    throw DatabaseError(message: "could not activate WAL mode at path: \(path)")
                }
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
    }

    /// Opens an in-memory database: a private empty one when `name` is nil, or
    /// one shared by the queues of the process with the same name while one
    /// of them is open.
    public init(named name: String? = nil, configuration: Configuration = Configuration()) throws {
        let path: String
        if let name {
            let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
            path = "file:strata-memory-\(encoded)?mode=memory&cache=shared"
        } else {
            path = ":memory:"
        }
        writer = try SerializedDatabase(
            path: path, configuration: configuration, defaultLabel: "GRDB.DatabaseQueue",
            qos: configuration.writeQoS, isReader: configuration.readonly)
        temporaryDirectory = nil
    }

    private init(writer: SerializedDatabase, temporaryDirectory: URL?) {
        self.writer = writer
        self.temporaryDirectory = temporaryDirectory
    }

    deinit {
        if let temporaryDirectory {
            try? FileManager.default.removeItem(at: temporaryDirectory)
        }
    }

    /// Returns an in-memory queue that holds a copy of a database file.
    public static func inMemoryCopy(fromPath path: String, configuration: Configuration = Configuration()) throws
        -> DatabaseQueue
    {
        var sourceConfiguration = configuration
        sourceConfiguration.readonly = true
        sourceConfiguration.prepareDatabaseFunctions = []
        let source = try DatabaseQueue(path: path, configuration: sourceConfiguration)
        var copyConfiguration = configuration
        copyConfiguration.readonly = false
        let copy = try DatabaseQueue(configuration: copyConfiguration)
        try source.backup(to: copy)
        try source.close()
        if configuration.readonly {
            try copy.writer.sync { db in
                try db.execute(sql: "PRAGMA query_only = 1")
                db.isReadOnlyConnection = true
            }
        }
        return copy
    }

    /// Returns a queue on a temporary copy of a database file, deleted when the
    /// queue is deinitialized: tests can modify it freely.
    public static func temporaryCopy(fromPath path: String, configuration: Configuration = Configuration()) throws
        -> DatabaseQueue
    {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            let copyPath = directory.appendingPathComponent("db.sqlite").path
            var sourceConfiguration = Configuration()
            sourceConfiguration.readonly = true
            let source = try DatabaseQueue(path: path, configuration: sourceConfiguration)
            var writableConfiguration = Configuration()
            writableConfiguration.foreignKeysEnabled = false
            let destination = try DatabaseQueue(path: copyPath, configuration: writableConfiguration)
            try source.backup(to: destination)
            try source.close()
            try destination.close()
            let writer = try SerializedDatabase(
                path: copyPath, configuration: configuration, defaultLabel: "GRDB.DatabaseQueue",
                qos: configuration.writeQoS, isReader: configuration.readonly)
            return DatabaseQueue(writer: writer, temporaryDirectory: directory)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    // MARK: - Closing, interrupting, memory

    /// Closes the connection. Later accesses throw. Throws when SQLite can't
    /// close yet (the connection is then closed later).
    public func close() throws {
        try writer.sync { db in try db.close() }
    }

    /// Interrupts the running statement, which throws `SQLITE_INTERRUPT`.
    /// Wraps `sqlite3_interrupt`.
    public func interrupt() {
        writer.interrupt()
    }

    /// Frees memory, waiting for the current access to end.
    public func releaseMemory() {
        writer.sync { db in db.releaseMemory() }
    }

    // MARK: - Transactions

    /// Runs `updates` outside of any transaction: same as `writeWithoutTransaction(_:)`.
    public func inDatabase<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writeWithoutTransaction(updates)
    }

    /// Runs `updates` in a transaction that commits or rolls back as they return.
    ///
    /// ```swift
    /// try dbQueue.inTransaction { db in
    ///     try db.execute(sql: "INSERT ...")
    ///     return .commit
    /// }
    /// ```
    public func inTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion
    ) throws {
        try writer.sync { db in
            try db.inTransaction(kind) { try updates(db) }
        }
    }
}

// MARK: - DatabaseReader

extension DatabaseQueue: DatabaseReader {
    /// Runs `value` in a read-only transaction: writes throw `SQLITE_READONLY`.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.sync { db in try db.isolatedRead { try value(db) } }
    }

    /// Runs `value` in a read-only transaction, without blocking the calling task.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await withoutActuallyEscaping(value) { value in
            try await writer.execute { db in try db.isolatedRead { try value(db) } }
        }
    }

    /// Runs `value` without transaction; on a queue, it may write.
    public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try writer.sync(value)
    }

    /// Runs `value` without transaction, without blocking the calling task.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await withoutActuallyEscaping(value) { value in
            try await writer.execute(value)
        }
    }

    /// Runs `value` without transaction; may be called from another access of this queue.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try writer.reentrantSync(value)
    }

    /// Schedules a read-only transaction.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        writer.async { db in
            do {
                try db.isolatedRead { value(.success(db)) }
            } catch {
                value(.failure(error))
            }
        }
    }

    /// Schedules an access without transaction.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        writer.async { db in
            do {
                try db.checkNotClosed()
                value(.success(db))
            } catch {
                value(.failure(error))
            }
        }
    }
}

// MARK: - DatabaseWriter

extension DatabaseQueue: DatabaseWriter {
    /// Runs `updates` without transaction. Leaving a transaction open is a
    /// fatal error, unless ``Configuration/allowsUnsafeTransactions``.
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.sync { db in
            defer { db.checkNoTransactionLeftOpen() }
            return try updates(db)
        }
    }

    /// Runs `updates` without transaction, without blocking the calling task.
    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await withoutActuallyEscaping(updates) { updates in
            try await writer.execute { db in
                defer { db.checkNoTransactionLeftOpen() }
                return try updates(db)
            }
        }
    }

    /// Runs `updates` without transaction: a queue has no concurrent access.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction(updates)
    }

    /// Runs `updates` without transaction, without blocking the calling task.
    public func barrierWriteWithoutTransaction<T: Sendable>(
        _ updates: @Sendable (Database) throws -> T
    ) async throws -> T {
        try await writeWithoutTransaction(updates)
    }

    /// Schedules an access without transaction.
    public func asyncBarrierWriteWithoutTransaction(
        _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void
    ) {
        writer.async { db in
            defer { db.checkNoTransactionLeftOpen() }
            do {
                try db.checkNotClosed()
                updates(.success(db))
            } catch {
                updates(.failure(error))
            }
        }
    }

    /// Schedules a write without transaction.
    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.async { db in
            defer { db.checkNoTransactionLeftOpen() }
            updates(db)
        }
    }

    /// Runs `updates` without transaction; may be called from another access of this queue.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.reentrantSync(updates)
    }

    /// Runs `value` in a read-only access. From the queue, it runs right away
    /// and sees the last committed state; from elsewhere, it is scheduled.
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        if writer.isOnQueue {
            writer.execute { db in
                do {
                    try db.isolatedRead { value(.success(db)) }
                } catch {
                    value(.failure(error))
                }
            }
        } else {
            asyncRead(value)
        }
    }
}
