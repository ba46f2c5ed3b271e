/// A ``DatabaseReader`` that reads one unchanging state of the database, such
/// as ``DatabaseSnapshot``.
///
/// Since the content never changes, unsafe reads are as safe as reads, and
/// reads can be reentrant.
public protocol DatabaseSnapshotReader: DatabaseReader {}

extension DatabaseSnapshotReader {
    /// Runs `value` and returns its result; may be called from another access
    /// of this reader.
    public func reentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try unsafeReentrantRead(value)
    }

    /// Same as `DatabaseReader/read(_:)`: the
    /// content never changes.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try read(value)
    }

    /// Same as ``DatabaseReader/asyncRead(_:)``: the content never changes.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        asyncRead(value)
    }
}
