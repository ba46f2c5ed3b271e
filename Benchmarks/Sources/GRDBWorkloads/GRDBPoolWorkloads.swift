import Dispatch
import Foundation
import GRDB

/// Pool workloads, identical for Strata and GRDB: readers scanning a big table
/// while a writer inserts batches, and bursts of small async reads.
public final class GRDBPoolWorkloads: @unchecked Sendable {
    let dbPool: DatabasePool

    /// Opens a pool on a new file at `path` and runs `setupSQL`.
    public init(path: String, setupSQL: [String]) throws {
        dbPool = try DatabasePool(path: path)
        try dbPool.write { db in
            for sql in setupSQL { try db.execute(sql: sql) }
            try db.execute(sql: "CREATE TABLE batch (a INTEGER, b TEXT)")
        }
    }

    /// Two threads scan table `t` `scans` times each while a writer inserts
    /// batches of 100 rows until they are done. Returns the rows read and the
    /// batches written.
    public func readersDuringWrites(scans: Int) throws -> (rows: Int, batches: Int) {
        let state = PoolWorkloadState()
        let dbPool = self.dbPool
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            while state.withLock({ $0.readersDone < 2 }) {
                do {
                    try dbPool.write { db in
                        for i in 0..<100 {
                            try db.execute(sql: "INSERT INTO batch VALUES (?, ?)", arguments: [i, "x"])
                        }
                    }
                    state.withLock { $0.batches += 1 }
                } catch {
                    state.withLock { $0.error = error }
                    return
                }
            }
        }
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                defer { state.withLock { $0.readersDone += 1 } }
                for _ in 0..<scans {
                    do {
                        let count = try dbPool.read { db -> Int in
                            var count = 0
                            let cursor = try Row.fetchCursor(db, sql: "SELECT i0, i1 FROM t")
                            while let row = try cursor.next() {
                                let value: Int = row[0]
                                count += value >= 0 ? 1 : 0
                            }
                            return count
                        }
                        state.withLock { $0.rows += count }
                    } catch {
                        state.withLock { $0.error = error }
                        return
                    }
                }
            }
        }
        group.wait()
        return try state.withLock { values in
            if let error = values.error { throw error }
            return (values.rows, values.batches)
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

/// The counters of ``GRDBPoolWorkloads/readersDuringWrites(scans:)``.
private final class PoolWorkloadState: @unchecked Sendable {
    struct Values {
        var rows = 0
        var batches = 0
        var readersDone = 0
        var error: (any Error)?
    }

    private let lock = NSLock()
    private var values = Values()

    func withLock<T>(_ body: (inout Values) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&values)
    }
}
