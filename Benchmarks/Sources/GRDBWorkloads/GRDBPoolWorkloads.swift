import Foundation
import GRDB
import WorkloadSupport

/// Pool workloads, identical for Strata and GRDB: readers scanning a big table
/// while a writer inserts batches, and bursts of small async reads.
public final class GRDBPoolWorkloads: @unchecked Sendable {
    let dbPool: DatabasePool

    /// Opens a pool on a new file at `path` and runs `setupSQL` (see
    /// `Fixture.poolSetup`: tables `t` and `batch`). The pool has at most
    /// `maximumReaderCount` readers (nil: the default, 5).
    public init(path: String, setupSQL: [String], maximumReaderCount: Int? = nil) throws {
        var configuration = Configuration()
        if let maximumReaderCount { configuration.maximumReaderCount = maximumReaderCount }
        dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in
            for sql in setupSQL { try db.execute(sql: sql) }
        }
    }

    /// `readers` threads scan table `t` `scans` times each while a writer
    /// inserts batches of 100 rows until they are done (or exactly `batches`
    /// batches, when given). Returns the rows read and the batches written.
    public func readersDuringWrites(
        readers: Int = 2, scans: Int, batches: Int? = nil
    ) throws -> (rows: Int, batches: Int) {
        let dbPool = self.dbPool
        return try WorkloadSupport.readersDuringWrites(readers: readers, scans: scans, batches: batches) { _ in
            try dbPool.read { db -> Int in
                var count = 0
                let cursor = try Row.fetchCursor(db, sql: "SELECT i0, i1 FROM t")
                while let row = try cursor.next() {
                    let value: Int = row[0]
                    count += value >= 0 ? 1 : 0
                }
                return count
            }
        } writeBatch: {
            try dbPool.write { db in
                for i in 0..<100 {
                    try db.execute(sql: "INSERT INTO batch VALUES (?, ?)", arguments: [i, "x"])
                }
            }
        }
    }

    /// Runs `count` concurrent async reads of one row each.
    public func asyncReadBurst(count: Int) async throws -> Int {
        let dbPool = self.dbPool
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<count {
                group.addTask {
                    try await dbPool.read { db in
                        try Int.fetchOne(db, sql: "SELECT i0 FROM t WHERE rowid = ?", arguments: [i % 1000 + 1]) ?? 0
                    }
                }
            }
            return try await group.reduce(0, +)
        }
    }
}
