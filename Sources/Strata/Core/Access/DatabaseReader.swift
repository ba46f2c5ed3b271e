import Foundation

/// A type that reads a database: ``DatabaseQueue``, ``DatabasePool``, snapshots.
///
/// Write code generic over `any DatabaseReader` to accept all of them.
public protocol DatabaseReader: AnyObject, Sendable {
    /// The configuration of the connections.
    var configuration: Configuration { get }

    /// The path of the database file.
    var path: String { get }

    /// Closes the connections. Later accesses throw.
    func close() throws

    /// Interrupts the running statements, which throw `SQLITE_INTERRUPT`.
    func interrupt()

    /// Runs `value` in a read-only access isolated from writes, and returns its result.
    func read<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` in a read-only access, without blocking the calling task.
    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `value` without transaction nor isolation.
    func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` without transaction nor isolation, without blocking the calling task.
    func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T

    /// Like `unsafeRead(_:)`, but reentrant.
    func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Schedules a read-only access; `value` receives the connection or an error.
    func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)

    /// Schedules an access without transaction nor isolation.
    func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)
}

extension DatabaseReader {
    /// Copies the database into another one, replacing its content.
    ///
    /// - Parameters:
    ///   - writer: the destination.
    ///   - pagesPerStep: pages copied at each step (-1: all at once).
    ///   - progress: called after each step; throw to abort the backup.
    public func backup(
        to writer: any DatabaseWriter,
        pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil
    ) throws {
        try unsafeReentrantRead { sourceDb in
            try writer.barrierWriteWithoutTransaction { destDb in
                try sourceDb.backup(to: destDb, pagesPerStep: pagesPerStep, progress: progress)
            }
        }
    }
}

/// A type that reads and writes a database: ``DatabaseQueue`` and ``DatabasePool``.
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `updates` outside of any transaction, serialized with other writes.
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T

    /// Runs `updates` outside of any transaction, without blocking the calling task.
    func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `updates` alone: waits for other accesses to end, and postpones new ones.
    func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

    /// Runs `updates` alone, without blocking the calling task.
    func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T

    /// Schedules an exclusive access; `updates` receives the connection or an error.
    func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, any Error>) -> Void)

    /// Schedules a write outside of any transaction.
    func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void)

    /// Runs `updates` without transaction; reentrant.
    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T

    /// From the writer, outside of transactions: runs `value` in a read-only
    /// access that sees the last committed state.
    func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)
}

extension DatabaseWriter {
    /// Runs `updates` in a transaction: it commits when they return, and rolls
    /// back and rethrows when they throw.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
    /// }
    /// ```
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            try db.checkNotClosed()
            return try db.inWriteTransaction { try updates(db) }
        }
    }

    /// Runs `updates` in a transaction, without blocking the calling task.
    /// Task cancellation rolls the transaction back and throws `CancellationError`.
    public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction { db in
            try db.checkNotClosed()
            return try db.inWriteTransaction { try updates(db) }
        }
    }

    /// Schedules a transaction; `completion` receives its result, after commit
    /// or rollback.
    public func asyncWrite<T>(
        _ updates: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Database, Result<T, any Error>) -> Void
    ) {
        asyncWriteWithoutTransaction { db in
            let result = Result {
                try db.checkNotClosed()
                return try db.inWriteTransaction { try updates(db) }
            }
            completion(db, result)
        }
    }

    /// Deletes all tables, views, indexes and triggers, leaving an empty database.
    public func erase() throws {
        try barrierWriteWithoutTransaction { db in try db.erase() }
    }

    /// Deletes the database content, without blocking the calling task.
    public func erase() async throws {
        try await barrierWriteWithoutTransaction { db in try db.erase() }
    }

    /// Rebuilds the database file (`VACUUM`).
    public func vacuum() throws {
        try writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    }

    /// Rebuilds the database file, without blocking the calling task.
    public func vacuum() async throws {
        try await writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    }

    /// Writes a compacted copy of the database to a new file (`VACUUM INTO`).
    public func vacuum(into filePath: String) throws {
        try writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
    }

    /// Writes a compacted copy of the database, without blocking the calling task.
    public func vacuum(into filePath: String) async throws {
        try await writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
    }
}

extension Database {
    /// Runs `updates` in a write transaction, or in a savepoint when a
    /// transaction is already open, and returns their value.
    ///
    /// The same as `inTransaction(.immediate)` or `inSavepoint` with a
    /// closure that returns `.commit`, without an optional to carry the
    /// value out of the closure: where `T` is not known at compile time
    /// (`write` is not inlined into its callers), each use of `T?` looked
    /// its type up in the runtime's cache (issue 46).
    func inWriteTransaction<T>(_ updates: () throws -> T) throws -> T {
        if isInsideTransaction {
            return try inCommittedSavepoint(updates)
        }
        return try runTransaction(.immediate, updates) { _ in .commit }
    }

    /// `inSavepoint` with a closure that returns `.commit`, inside a
    /// transaction: the savepoint of a nested write.
    private func inCommittedSavepoint<T>(_ updates: () throws -> T) throws -> T {
        var result: T? = nil
        try inSavepoint {
            result = try updates()
            return .commit
        }
        return result!
    }

    /// Runs `value` in a deferred read-only transaction, and returns its value.
    /// Writes are forbidden (`PRAGMA query_only`) before the transaction begins.
    func isolatedRead<T>(_ value: () throws -> T) throws -> T {
        try checkNotClosed()
        if isInsideTransaction {
            return try readOnly(value)
        }
        return try readOnly {
            try beginTransaction(.deferred)
            let result: T
            do {
                result = try value()
            } catch {
                // A read-only transaction has nothing to undo: it ends with
                // COMMIT, as after a success. The error of `value` wins.
                endReadTransactionAfterError()
                throw error
            }
            try commitReadTransaction()
            return result
        }
    }

    /// Ends a read-only transaction whose closure threw, if SQLite has not
    /// ended it already. A failed COMMIT is reported and rolls back.
    func endReadTransactionAfterError() {
        guard isInsideTransaction else { return }
        do {
            try executeBookkeeping(.commit)
        } catch {
            reportBookkeepingFailure(error, "COMMIT TRANSACTION")
            rollbackAfterError()
        }
    }

    /// Ends a read-only transaction. Bookkeeping: a read that completed keeps
    /// its value, even when its task is cancelled now.
    func commitReadTransaction() throws {
        do {
            try executeBookkeeping(.commit)
        } catch {
            rollbackAfterError()
            throw error
        }
    }

    /// Deletes all schema objects, with foreign keys checks disabled.
    func erase() throws {
        let foreignKeysEnabled = try Bool.fetchOne(self, sql: "PRAGMA foreign_keys") ?? false
        if foreignKeysEnabled { try execute(sql: "PRAGMA foreign_keys = OFF") }
        let result = Result {
            try inTransaction {
                let objects = try Row.fetchAll(
                    self,
                    sql: """
                        SELECT type, name FROM sqlite_master
                        WHERE name NOT LIKE 'sqlite_%' AND type IN ('table', 'view', 'trigger')
                        """)
                for object in objects {
                    let type: String = object["type"]
                    let name: String = object["name"]
                    try execute(sql: "DROP \(type.uppercased()) IF EXISTS \(name.quotedDatabaseIdentifier)")
                }
                return .commit
            }
        }
        guard foreignKeysEnabled else { return try result.get() }
        try executeBookkeeping(sql: "PRAGMA foreign_keys = ON", after: result)
    }
}
