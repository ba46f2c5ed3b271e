import Dispatch
import Foundation

/// A read-only connection that sees the database of a ``DatabasePool`` as it
/// was when the snapshot was made, forever, without blocking writes.
///
/// ```swift
/// let snapshot = try dbPool.makeSnapshot()
/// try dbPool.write { db in
///     try db.execute(sql: "DELETE FROM player")
/// }
/// let count = try snapshot.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// } // The count before the deletion.
/// ```
///
/// A snapshot serializes its accesses on its own queue, and keeps a read
/// transaction open until it is closed or deinitialized: the WAL file can't
/// be fully checkpointed meanwhile.
public final class DatabaseSnapshot: Sendable {
    let serializedDatabase: SerializedDatabase

    /// The configuration of the connection.
    public var configuration: Configuration { serializedDatabase.configuration }

    /// The path of the database file.
    public var path: String { serializedDatabase.path }

    /// Opens a read-only connection and starts the transaction that pins its
    /// state. `writer`, the writer of the pool, stays open until the
    /// snapshot closes.
    init(path: String, configuration: Configuration, label: String, closingBefore writer: SerializedDatabase) throws {
        var configuration = configuration
        configuration.readonly = true
        configuration.allowsUnsafeTransactions = true
        serializedDatabase = try SerializedDatabase(
            path: path, configuration: configuration, defaultLabel: "GRDB.DatabasePool",
            qos: configuration.readQoS, label: label, isReader: true, closingBefore: writer)
        try serializedDatabase.sync { db in
            try db.beginTransaction(.deferred)
            // The first read of the transaction acquires its snapshot.
            try db.execute(sql: "SELECT rootpage FROM sqlite_master LIMIT 1")
        }
    }

    /// Closes the connection. Later accesses throw.
    public func close() throws {
        try serializedDatabase.sync { db in
            db.rollbackAfterError()
            try db.close()
        }
    }

    /// Interrupts the running statement, which throws `SQLITE_INTERRUPT`.
    public func interrupt() {
        serializedDatabase.interrupt()
    }
}

extension DatabaseSnapshot: DatabaseSnapshotReader {
    /// Runs `block` and returns its result. Writes throw `SQLITE_READONLY`.
    public func read<T>(_ block: (Database) throws -> T) rethrows -> T {
        try serializedDatabase.sync(block)
    }

    /// Runs `value` without blocking the calling task. Task cancellation
    /// throws `CancellationError` and interrupts the running statement.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await withoutActuallyEscaping(value) { value in
            try await serializedDatabase.execute(rollsBackCancelledTransaction: false) { db in
                try db.checkNotClosed()
                return try value(db)
            }
        }
    }

    /// Same as `read(_:)`: the content never changes.
    public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try serializedDatabase.sync(value)
    }

    /// Same as `read(_:)`, without blocking the calling task.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await read(value)
    }

    /// Runs `value`; may be called from another access of this snapshot.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try serializedDatabase.reentrantSync(value)
    }

    /// Schedules an access; `value` receives the connection, or an error when
    /// the snapshot is closed.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        serializedDatabase.async { db in
            do {
                try db.checkNotClosed()
                value(.success(db))
            } catch {
                value(.failure(error))
            }
        }
    }

    /// Same as ``asyncRead(_:)``: the content never changes.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        asyncRead(value)
    }
}
