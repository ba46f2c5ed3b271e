// The writes of a `DatabasePool`: its conformance to `DatabaseWriter`, whose
// accesses all go through the pool's one writer connection.

import Dispatch
import Foundation

extension DatabasePool: DatabaseWriter {
    /// Runs `updates` on the writer, outside of any transaction. Leaving a
    /// transaction open is a fatal error, unless
    /// ``Configuration/allowsUnsafeTransactions``.
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        checkNotReentrant()
        return try writer.syncFromOutsideQueue { db in
            defer { db.checkNoTransactionLeftOpen() }
            return try updates(db)
        }
    }

    /// Runs `updates` on the writer, outside of any transaction, without
    /// blocking the calling task.
    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await withoutActuallyEscaping(updates) { updates in
            try await writer.execute { db in
                defer { db.checkNoTransactionLeftOpen() }
                return try updates(db)
            }
        }
    }

    /// Runs `updates` alone: waits until all reads and writes end, and
    /// postpones new ones until it returns.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        checkNotReentrant()
        return try writer.sync { db in
            defer { db.checkNoTransactionLeftOpen() }
            return try readerPool.barrier { try updates(db) }
        }
    }

    /// Runs `updates` alone, without blocking the calling task.
    public func barrierWriteWithoutTransaction<T: Sendable>(
        _ updates: @Sendable (Database) throws -> T
    ) async throws -> T {
        let readerPool = self.readerPool
        return try await withoutActuallyEscaping(updates) { updates in
            try await writer.execute { db in
                defer { db.checkNoTransactionLeftOpen() }
                return try readerPool.barrier { try updates(db) }
            }
        }
    }

    /// Schedules an exclusive access; `updates` receives the writer
    /// connection, or the error that prevented the access.
    public func asyncBarrierWriteWithoutTransaction(
        _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void
    ) {
        let readerPool = self.readerPool
        writer.async { db in
            defer { db.checkNoTransactionLeftOpen() }
            readerPool.barrier {
                do {
                    try db.checkNotClosed()
                    updates(.success(db))
                } catch {
                    updates(.failure(error))
                }
            }
        }
    }

    /// Schedules a write outside of any transaction.
    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.async { db in
            defer { db.checkNoTransactionLeftOpen() }
            updates(db)
        }
    }

    /// Runs `updates` on the writer without transaction; may be called from
    /// another write access of this pool.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.reentrantSync(updates)
    }

    /// Same as ``asyncConcurrentRead(_:)``.
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        asyncConcurrentRead(value)
    }
}
