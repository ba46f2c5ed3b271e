import Foundation
import Strata
import StrataTestSupport
import Testing

/// How long a shared observation lives when the app keeps only its
/// subscriptions.
struct SharedObservationLifetimeTests {
    @Test("B09: a subscription keeps its shared observation alive after the app drops the shared object")
    func subscriptionKeepsSharedObservationAlive() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let queue = DispatchQueue(label: "shared")
        let fetches = Counter()
        let cancels = Counter()
        let values = ObservedValues<Int>()
        weak var weakShared: SharedValueObservation<Int>?
        var cancellable: AnyDatabaseCancellable? = {
            let shared =
                ValueObservation
                .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
                .handleEvents(willFetch: { fetches.increment() }, didCancel: { cancels.increment() })
                .shared(in: dbQueue, scheduling: .async(onQueue: queue), extent: .observationLifetime)
            weakShared = shared
            return shared.start(onError: { values.record(error: $0) }, onChange: { values.record($0) })
        }()
        await values.waitForValues(1)

        // The app holds the cancellable only: changes are still notified.
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        await values.waitForValues(2, timeout: .seconds(5))
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        await values.waitForValues(3, timeout: .seconds(5))
        #expect(values.values == [0, 1, 2])
        #expect(weakShared != nil)
        #expect(cancels.value == 0)

        // Cancelling the last subscription stops the database observation,
        // and releases the shared observation.
        cancellable?.cancel()
        cancellable = nil
        queue.sync {}  // No notification is still running.
        #expect(weakShared == nil)
        #expect(cancels.value == 1)
        let fetchesBeforeWrite = fetches.value
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        try await dbQueue.write { _ in }  // After any fetch the commit scheduled.
        queue.sync {}
        #expect(fetches.value == fetchesBeforeWrite)
        #expect(values.values == [0, 1, 2])
    }
}
