import Dispatch
import StrataSQLite
import WorkloadSupport

/// The C baseline of the WAL curve: a writer connection that commits one row
/// per statement (autocommit), and a reader connection that may hold a
/// snapshot open, on one WAL file, with a pool's settings (synchronous
/// NORMAL, SQLite's automatic checkpoint).
public final class CLongReaderWorkloads: @unchecked Sendable {
    let writer: CConnection
    let reader: CConnection
    let insertStatement: OpaquePointer

    /// The path of the write-ahead log.
    public let walPath: String

    /// Opens the writer on a new file at `path`, switches it to WAL, creates
    /// `LongReaderFixture`'s table, then opens the reader.
    public init(path: String, threading: CThreading) throws {
        writer = try CConnection(path: path, threading: threading)
        try writer.execute("PRAGMA journal_mode = WAL")
        try writer.execute("PRAGMA synchronous = NORMAL")
        sqlite3_busy_timeout(writer.handle, 10_000)
        for sql in LongReaderFixture.setupSQL { try writer.execute(sql) }
        insertStatement = try writer.prepare(LongReaderFixture.insertSQL)
        reader = try CConnection(path: path, threading: threading)
        sqlite3_busy_timeout(reader.handle, 10_000)
        walPath = path + "-wal"
    }

    deinit { sqlite3_finalize(insertStatement) }

    /// Commits one row.
    public func insert(_ value: Int) throws {
        sqlite3_bind_int64(insertStatement, 1, Int64(value))
        try writer.stepOnce(insertStatement)
    }

    /// Begins a transaction on the reader, reads the table (the snapshot
    /// starts there), signals `started`, and commits once `release` is
    /// signaled. Blocks the calling thread all along.
    public func holdSnapshot(started: DispatchSemaphore, release: DispatchSemaphore) throws {
        try reader.execute("BEGIN")
        _ = try reader.scalar(LongReaderFixture.snapshotSQL)
        started.signal()
        release.wait()
        try reader.execute("COMMIT")
    }
}
