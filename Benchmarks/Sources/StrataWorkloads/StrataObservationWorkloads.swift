import Dispatch
import Foundation
import WorkloadSupport
import Strata

/// Observations on a pool while a writer commits small transactions,
/// identical for Strata and GRDB: each observation fetches from the table
/// that the writer inserts into, one row per transaction, in one of the
/// shapes of `ObservationShape` (by default, a constant region and an
/// aggregate of 10,000 rows).
public final class StrataObservationWorkloads: @unchecked Sendable {
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
        if ProcessInfo.processInfo.environment["SQLITE_AUTOCHECKPOINT"] != nil {
            // SQLite's own automatic checkpoint, instead of the pool's paced one.
            try dbPool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 1000") }
        }
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
        if ProcessInfo.processInfo.environment["OBSERVATION_WAL_SIZE"] != nil {
            // The WAL's size is the largest it reached: it does not shrink.
            let attributes = try FileManager.default.attributesOfItem(atPath: dbPool.path + "-wal")
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            FileHandle.standardError.write("WAL of \(size / 1024) KiB after \(writes) writes\n".data(using: .utf8)!)
        }
        for cancellable in cancellables { cancellable.cancel() }
        return (writes, values, writerCPUSeconds, writerWaits)
    }
}

extension StrataObservationWorkloads {
    /// What the observations of ``writesWithQuietObservations(_:observationCount:writes:)``
    /// do while the writer commits.
    public enum QuietObservations: Sendable {
        /// Their next fetch stays pending until the writes end: the broker
        /// parks them.
        case parked
        /// They track a table the writer never touches.
        case idle
    }

    /// Starts `observationCount` observations that do not fetch while the
    /// returned function commits its argument's number of one-row
    /// transactions, for profilers: what the observations cost the writer
    /// alone. The observations stop when the function returns.
    public func quietObservations(_ kind: QuietObservations, observationCount: Int) throws -> (Int) throws -> Int {
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE IF NOT EXISTS other (id INTEGER PRIMARY KEY)") }
        let ready = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let table = kind == .idle ? "other" : "item"
        var cancellables: [AnyDatabaseCancellable] = []
        for _ in 0..<observationCount {
            let isFirst = FirstValueFlag()
            let observation = ValueObservation.trackingConstantRegion { db -> Int in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")!
            }
            cancellables.append(
                observation.start(
                    in: dbPool, scheduling: .async(onQueue: DispatchQueue.global()),
                    onError: { error in fatalError("\(error)") },
                    onChange: { _ in
                        // Holds the delivery of the first fresh value: the
                        // next fetch stays pending.
                        if isFirst.take() { ready.signal() } else { release.wait(); release.signal() }
                    }))
        }
        for _ in 0..<observationCount { ready.wait() }
        if kind == .parked {
            // One write starts a fetch per observation, whose value waits for
            // `release`; the next write makes the following fetch pending.
            for _ in 0..<2 {
                try dbPool.write { db in try db.execute(sql: "INSERT INTO item (value) VALUES (0)") }
            }
        }
        return { [dbPool] writes in
            defer {
                release.signal()
                for cancellable in cancellables { cancellable.cancel() }
            }
            for index in 0..<writes {
                try dbPool.write { db in
                    try db.execute(sql: "INSERT INTO item (value) VALUES (?)", arguments: [index])
                }
            }
            return writes
        }
    }
}

extension StrataObservationWorkloads {
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
