import Dispatch
import Strata
import WorkloadSupport

extension StrataObservationWorkloads {
    /// Starts `observationCount` observations of the latest row
    /// (`ObservationShape.latestRow`), each notified on a global queue,
    /// waits for their initial values, then `writes` times commits one row
    /// and waits until every observation has delivered its id. Returns the
    /// latencies in nanoseconds, from the moment each write access is asked
    /// for to each delivery. The same code is compiled against GRDB.
    public func notificationLatencies(observationCount: Int, writes: Int) throws -> [Double] {
        precondition(shape == .latestRow, "the latency needs the latest row's id")
        let recorder = NotificationLatencies(observerCount: observationCount)
        let sql = shape.observedSQL
        var latest = try dbPool.read { db in try Int.fetchOne(db, sql: sql) ?? 0 }
        recorder.expect(latest)
        var cancellables: [AnyDatabaseCancellable] = []
        defer { for cancellable in cancellables { cancellable.cancel() } }
        for observer in 0..<observationCount {
            let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: sql) ?? 0 }
            cancellables.append(
                observation.start(
                    in: dbPool, scheduling: .async(onQueue: DispatchQueue.global()),
                    onError: { error in fatalError("\(error)") },
                    onChange: { value in recorder.delivered(value, by: observer) }))
        }
        recorder.wait()
        _ = recorder.take()
        for _ in 0..<writes {
            latest += 1
            recorder.expect(latest)
            try dbPool.write { db in
                try db.execute(sql: "INSERT INTO item (value) VALUES (?)", arguments: [latest])
            }
            recorder.wait()
        }
        return recorder.take()
    }
}
