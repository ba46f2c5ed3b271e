import Dispatch
import Foundation
import WorkloadSupport
import GRDB

/// Observations on a pool while a writer commits small transactions,
/// identical for Strata and GRDB: each observation fetches from the table
/// that the writer inserts into, one row per transaction, in one of the
/// shapes of `ObservationShape` (by default, a constant region and an
/// aggregate of 10,000 rows).
public final class GRDBObservationWorkloads: @unchecked Sendable {
    let dbPool: DatabasePool

    let shape: ObservationShape

    /// Opens a pool on a new file at `path`, with the `item` table of
    /// `shape` (10,000 rows by default).
    public init(path: String, shape: ObservationShape = .constantAggregate) throws {
        dbPool = try DatabasePool(path: path)
        self.shape = shape
        try dbPool.write { db in
            for sql in shape.setupSQL { try db.execute(sql: sql) }
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
            let sql = shape.observedSQL
            let fetch: @Sendable (Database) throws -> [Int] = { db in
                let row = try Row.fetchOne(db, sql: sql)!
                return (0..<row.count).map { row[$0] }
            }
            let observation =
                shape.tracksChangingRegion
                ? ValueObservation.tracking(fetch) : ValueObservation.trackingConstantRegion(fetch)
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

extension GRDBObservationWorkloads {
    /// One-row write transactions on a database queue at `path` while one
    /// `tracking` observation counts the 50,000-row `item` table: each
    /// commit is followed by the observation's fetch on the same
    /// connection, inside the write access, for profilers: what the library
    /// adds around each fetch. Returns the measured part, which commits its
    /// argument's number of transactions on the calling thread.
    public static func writesWithFetchOnWriter(path: String) throws -> (Int) throws -> Int {
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            for sql in ObservationShape.trackingCount.setupSQL { try db.execute(sql: sql) }
        }
        let ready = DispatchSemaphore(value: 0)
        let isFirst = FirstValueFlag()
        let cancellable = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: ObservationShape.trackingCount.observedSQL)!
        }
        .start(
            in: dbQueue, scheduling: .async(onQueue: DispatchQueue.global()),
            onError: { error in fatalError("\(error)") },
            onChange: { _ in if isFirst.take() { ready.signal() } })
        ready.wait()
        return { writes in
            defer { cancellable.cancel() }
            for index in 0..<writes {
                try dbQueue.write { db in
                    try db.execute(sql: "INSERT INTO item (value) VALUES (?)", arguments: [index])
                }
            }
            return writes
        }
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
