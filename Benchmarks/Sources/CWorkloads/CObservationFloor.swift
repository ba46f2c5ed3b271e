import Foundation
import StrataSQLite
import WorkloadSupport

/// The C floor of the observations curve: the least that `n` observations
/// of the latest row (`ObservationShape.latestRow`) can cost. A writer
/// connection commits one row per statement; after each commit, a reader
/// thread with a connection of its own runs the observed query `n` times in
/// one read transaction (the commits made meanwhile are seen together), as
/// an observation system with one reader would, without any bookkeeping.
public final class CObservationFloor: @unchecked Sendable {
    let writer: CConnection
    let reader: CConnection
    let insertStatement: OpaquePointer
    let observedStatement: OpaquePointer

    /// Opens the writer on a new file at `path`, switches it to WAL, fills
    /// the `item` table, then opens the reader.
    public init(path: String, threading: CThreading) throws {
        writer = try CConnection(path: path, threading: threading)
        try writer.execute("PRAGMA journal_mode = WAL")
        try writer.execute("PRAGMA synchronous = NORMAL")
        sqlite3_busy_timeout(writer.handle, 10_000)
        for sql in ObservationShape.latestRow.setupSQL { try writer.execute(sql) }
        insertStatement = try writer.prepare("INSERT INTO item (value) VALUES (?)")
        reader = try CConnection(path: path, threading: threading)
        sqlite3_busy_timeout(reader.handle, 10_000)
        observedStatement = try reader.prepare(ObservationShape.latestRow.observedSQL)
    }

    deinit {
        sqlite3_finalize(insertStatement)
        sqlite3_finalize(observedStatement)
    }

    /// Commits one-row transactions for `seconds` while the reader fetches
    /// for `observationCount` observations. Returns the commits and the
    /// values fetched meanwhile.
    public func writesWithObservations(observationCount: Int, seconds: Double) throws -> (writes: Int, values: Int) {
        let fetcher = Fetcher(self, observationCount: observationCount, recorder: nil)
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        var writes = 0
        do {
            while DispatchTime.now().uptimeNanoseconds < end {
                try insert(writes)
                fetcher.committed()
                writes += 1
            }
        } catch {
            _ = try? fetcher.stop()
            throw error
        }
        return (writes, try fetcher.stop())
    }

    /// `writes` times, commits one row and waits until the reader has
    /// fetched its id for each of `observationCount` observations. Returns
    /// the latencies in nanoseconds, from the start of each commit to each
    /// fetch's end.
    public func notificationLatencies(observationCount: Int, writes: Int) throws -> [Double] {
        let recorder = NotificationLatencies(observerCount: observationCount)
        let fetcher = Fetcher(self, observationCount: observationCount, recorder: recorder)
        do {
            var latest = try writer.scalar(ObservationShape.latestRow.observedSQL) ?? 0
            for _ in 0..<writes {
                latest += 1
                recorder.expect(latest)
                try insert(latest)
                fetcher.committed()
                recorder.wait()
            }
        } catch {
            _ = try? fetcher.stop()
            throw error
        }
        _ = try fetcher.stop()
        return recorder.take()
    }

    private func insert(_ value: Int) throws {
        sqlite3_bind_int64(insertStatement, 1, Int64(value))
        try writer.stepOnce(insertStatement)
    }

    /// The value of the observed query, on the reader.
    fileprivate func fetchObserved() throws -> Int {
        defer { sqlite3_reset(observedStatement) }
        let code = sqlite3_step(observedStatement)
        guard code == SQLITE_ROW else {
            try reader.check(code)
            return 0
        }
        return Int(sqlite3_column_int64(observedStatement, 0))
    }
}

/// The reader thread of ``CObservationFloor``.
private final class Fetcher: @unchecked Sendable {
    private let condition = NSCondition()
    private var commits = 0
    private var isStopped = false
    private var values = 0
    private var error: (any Error)?
    private let done = DispatchSemaphore(value: 0)

    init(_ floor: CObservationFloor, observationCount: Int, recorder: NotificationLatencies?) {
        Thread.detachNewThread { [self] in
            defer { done.signal() }
            var seen = 0
            while true {
                let next: Int? = condition.withLock {
                    while commits == seen && !isStopped { condition.wait() }
                    return isStopped ? nil : commits
                }
                guard let next else { return }
                seen = next
                do {
                    try floor.reader.execute("BEGIN")
                    for observer in 0..<observationCount {
                        let value = try floor.fetchObserved()
                        recorder?.delivered(value, by: observer)
                    }
                    try floor.reader.execute("COMMIT")
                    condition.withLock { values += observationCount }
                } catch {
                    condition.withLock { self.error = error }
                    recorder?.abandon()
                    return
                }
            }
        }
    }

    /// A commit happened: the reader fetches again.
    func committed() {
        condition.withLock {
            commits += 1
            condition.signal()
        }
    }

    /// Stops the reader; returns the values it fetched.
    func stop() throws -> Int {
        condition.withLock {
            isStopped = true
            condition.signal()
        }
        done.wait()
        return try condition.withLock {
            if let error { throw error }
            return values
        }
    }
}
