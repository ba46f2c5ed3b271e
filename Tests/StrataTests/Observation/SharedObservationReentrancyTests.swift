import Foundation
import Strata
import StrataTestSupport
import Testing

/// Subscribing to a shared observation from inside its own `onChange`.
@MainActor
struct SharedObservationReentrancyTests {
    @Test("A subscriber started from onChange with .immediate scheduling does not start the observation again")
    func subscribeFromOnChange() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let fetches = Counter()
        let shared =
            ValueObservation
            .tracking { db -> Int in
                fetches.increment()
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
            }
            .shared(in: dbQueue, scheduling: .immediate)
        let box = Box()
        let first = shared.start(
            onError: { Issue.record($0) },
            onChange: { value in
                MainActor.assumeIsolated {
                    box.first.append(value)
                    if box.subscription == nil {
                        box.subscription = shared.start(
                            onError: { Issue.record($0) },
                            onChange: { value in MainActor.assumeIsolated { box.second.append(value) } })
                    }
                }
            })
        #expect(box.first == [0])
        #expect(fetches.value == 1)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while (box.first.count < 2 || box.second.count < 2) && ContinuousClock.now < deadline {
            await Task.yield()
        }
        #expect(box.first == [0, 1])
        #expect(box.second == [0, 1])
        #expect(fetches.value == 2)
        first.cancel()
        box.subscription?.cancel()
    }

    @Test("A shared observation that fails while it starts starts again with the next subscriber")
    func failureDuringStart() async throws {
        let dbQueue = try DatabaseQueue()
        let shared =
            ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing")! }
            .shared(in: dbQueue, scheduling: .immediate)
        let box = Box()
        let first = shared.start(onError: { _ in MainActor.assumeIsolated { box.errors += 1 } }, onChange: { _ in })
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while box.errors == 0 && ContinuousClock.now < deadline {
            await Task.yield()
        }
        #expect(box.errors == 1)
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE missing(a)") }
        let second = shared.start(
            onError: { Issue.record($0) }, onChange: { value in MainActor.assumeIsolated { box.first.append(value) } })
        #expect(box.first == [0])
        first.cancel()
        second.cancel()
    }
}

/// What the subscribers of a test received, on the main actor.
@MainActor
private final class Box {
    var first: [Int] = []
    var second: [Int] = []
    var errors = 0
    var subscription: AnyDatabaseCancellable?
}
