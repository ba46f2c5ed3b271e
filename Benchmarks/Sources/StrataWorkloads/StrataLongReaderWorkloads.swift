import Dispatch
import Strata
import WorkloadSupport

/// The WAL curve of `cost-curves`, identical for Strata and GRDB: a pool
/// whose writer commits one row at a time while a reader may hold a
/// snapshot open.
public final class StrataLongReaderWorkloads: @unchecked Sendable {
    let dbPool: DatabasePool

    /// Opens a pool on a new file at `path` and creates `LongReaderFixture`'s
    /// table.
    public init(path: String) throws {
        dbPool = try DatabasePool(path: path)
        try dbPool.write { db in
            for sql in LongReaderFixture.setupSQL { try db.execute(sql: sql) }
        }
    }

    /// The path of the pool's write-ahead log.
    public var walPath: String { dbPool.path + "-wal" }

    /// Commits one row, in a write access of its own.
    public func insert(_ value: Int) throws {
        try dbPool.write { db in
            try db.execute(sql: LongReaderFixture.insertSQL, arguments: [value])
        }
    }

    /// Opens a read access, reads the table (the snapshot starts there),
    /// signals `started`, and keeps the access open until `release` is
    /// signaled. Blocks the calling thread all along.
    public func holdSnapshot(started: DispatchSemaphore, release: DispatchSemaphore) throws {
        try dbPool.read { db in
            _ = try Int.fetchOne(db, sql: LongReaderFixture.snapshotSQL)
            started.signal()
            release.wait()
        }
    }
}
