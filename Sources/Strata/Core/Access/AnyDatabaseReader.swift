/// A type-erased ``DatabaseReader``: it forwards every access to its base.
public final class AnyDatabaseReader: Sendable {
    private let base: any DatabaseReader

    /// Wraps `base`.
    public init(_ base: any DatabaseReader) {
        self.base = base
    }
}

extension AnyDatabaseReader: DatabaseReader {
    /// The configuration of the base reader.
    public var configuration: Configuration { base.configuration }

    /// The path of the base reader.
    public var path: String { base.path }

    /// Closes the base reader.
    public func close() throws {
        try base.close()
    }

    /// Interrupts the base reader.
    public func interrupt() {
        base.interrupt()
    }

    /// Reads from the base reader.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try base.read(value)
    }

    /// Reads from the base reader, without blocking the calling task.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.read(value)
    }

    /// Reads from the base reader, without isolation.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeRead(value)
    }

    /// Reads from the base reader, without isolation nor blocking the calling task.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.unsafeRead(value)
    }

    /// Reads from the base reader, reentrantly.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeReentrantRead(value)
    }

    /// Schedules a read on the base reader.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncRead(value)
    }

    /// Schedules a read without isolation on the base reader.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncUnsafeRead(value)
    }
}
