import Dispatch
import Foundation
import WorkloadSupport
import GRDB

/// Observations on a pool while a writer commits small transactions,
/// identical for Strata and GRDB: each observation tracks a constant region
/// and fetches an aggregate of the 10,000-row table that the writer inserts
/// into, one row per transaction.
public final class GRDBObservationWorkloads: @unchecked Sendable {
    let dbPool: DatabasePool

    /// Opens a pool on a new file at `path`, with a table of 10,000 rows.
    public init(path: String) throws {
        dbPool = try DatabasePool(path: path)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
            try db.execute(
                sql: """
                    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000)
                    INSERT INTO item (value) SELECT x FROM c
                    """)
        }
    }

    /// Starts `observationCount` observations, waits for their initial
    /// values, then commits one-row transactions for `seconds`. Returns the
    /// transactions committed and the values the observations delivered
    /// meanwhile (initial values excluded), and the processor time and waits of
    /// the writing thread.
    public func writesWithObservations(
        observationCount: Int, seconds: Double
    ) throws -> (writes: Int, values: Int, writerCPUSeconds: Double, writerWaits: Int) {
        let counter = ObservationCounter()
        let ready = DispatchSemaphore(value: 0)
        var cancellables: [AnyDatabaseCancellable] = []
        for _ in 0..<observationCount {
            let isFirst = FirstValueFlag()
            let observation = ValueObservation.trackingConstantRegion { db -> [Int] in
                let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), SUM(value), MAX(value) FROM item WHERE id > 0")!
                return [row[0], row[1], row[2]]
            }
            cancellables.append(
                observation.start(
                    in: dbPool, scheduling: .async(onQueue: DispatchQueue.global()),
                    onError: { error in fatalError("\(error)") },
                    onChange: { _ in
                        if isFirst.take() { ready.signal() } else { counter.increment() }
                    }))
        }
        for _ in 0..<observationCount { ready.wait() }
        counter.reset()
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = threadCPUSeconds()
        let waitStart = threadWaitCount()
        let end = start + UInt64(seconds * 1e9)
        var writes = 0
        while DispatchTime.now().uptimeNanoseconds < end {
            try dbPool.write { db in
                try db.execute(sql: "INSERT INTO item (value) VALUES (?)", arguments: [writes])
            }
            writes += 1
        }
        let writerCPUSeconds = threadCPUSeconds() - cpuStart
        let writerWaits = threadWaitCount() - waitStart
        let values = counter.value
        for cancellable in cancellables { cancellable.cancel() }
        return (writes, values, writerCPUSeconds, writerWaits)
    }
}

private final class ObservationCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    func reset() { lock.lock(); count = 0; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

private final class FirstValueFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isFirst = true
    func take() -> Bool { lock.lock(); defer { isFirst = false; lock.unlock() }; return isFirst }
}
