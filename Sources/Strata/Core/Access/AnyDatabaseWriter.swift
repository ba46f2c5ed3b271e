/// A type-erased ``DatabaseWriter``: it forwards every access to its base.
public final class AnyDatabaseWriter: Sendable {
    private let base: any DatabaseWriter

    /// The pool this writer wraps, if any, through other type-erased
    /// writers: observations on it fetch on the pool's readers.
    var underlyingPool: DatabasePool? {
        (base as? DatabasePool) ?? (base as? AnyDatabaseWriter)?.underlyingPool
    }

    /// Wraps `base`.
    public init(_ base: any DatabaseWriter) {
        self.base = base
    }
}

extension AnyDatabaseWriter: DatabaseReader {
    /// The configuration of the base writer.
    public var configuration: Configuration { base.configuration }

    /// The path of the base writer.
    public var path: String { base.path }

    /// Closes the base writer.
    public func close() throws {
        try base.close()
    }

    /// Interrupts the base writer.
    public func interrupt() {
        base.interrupt()
    }

    /// Reads from the base writer.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try base.read(value)
    }

    /// Reads from the base writer, without blocking the calling task.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.read(value)
    }

    /// Reads from the base writer, without isolation.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeRead(value)
    }

    /// Reads from the base writer, without isolation nor blocking the calling task.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.unsafeRead(value)
    }

    /// Reads from the base writer, reentrantly.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeReentrantRead(value)
    }

    /// Schedules a read on the base writer.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncRead(value)
    }

    /// Schedules a read without isolation on the base writer.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncUnsafeRead(value)
    }
}

extension AnyDatabaseWriter: DatabaseWriter {
    /// Writes in the base writer, outside of any transaction.
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try base.writeWithoutTransaction(updates)
    }

    /// Writes in the base writer, outside of any transaction, without blocking the calling task.
    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await base.writeWithoutTransaction(updates)
    }

    /// Writes in the base writer, alone.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try base.barrierWriteWithoutTransaction(updates)
    }

    /// Writes in the base writer, alone, without blocking the calling task.
    public func barrierWriteWithoutTransaction<T: Sendable>(
        _ updates: @Sendable (Database) throws -> T
    ) async throws -> T {
        try await base.barrierWriteWithoutTransaction(updates)
    }

    /// Schedules an exclusive write in the base writer.
    public func asyncBarrierWriteWithoutTransaction(
        _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void
    ) {
        base.asyncBarrierWriteWithoutTransaction(updates)
    }

    /// Schedules a write in the base writer, outside of any transaction.
    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        base.asyncWriteWithoutTransaction(updates)
    }

    /// Writes in the base writer, reentrantly.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try base.unsafeReentrantWrite(updates)
    }

    /// Spawns a concurrent read from the base writer.
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.spawnConcurrentRead(value)
    }
}
