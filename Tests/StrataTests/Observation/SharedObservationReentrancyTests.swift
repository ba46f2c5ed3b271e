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
        let received = Waitable(Received())
        let subscription = LockedBox<AnyDatabaseCancellable?>(nil)
        let first = shared.start(
            onError: { Issue.record($0) },
            onChange: { value in
                MainActor.assumeIsolated {
                    received.update { $0.first.append(value) }
                    if subscription.value == nil {
                        subscription.value = shared.start(
                            onError: { Issue.record($0) },
                            onChange: { value in
                                MainActor.assumeIsolated { received.update { $0.second.append(value) } }
                            })
                    }
                }
            })
        #expect(received.value.first == [0])
        #expect(fetches.value == 1)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        try await received.wait("two values for each subscriber") { @Sendable in
            $0.first.count >= 2 && $0.second.count >= 2
        }
        #expect(received.value.first == [0, 1])
        #expect(received.value.second == [0, 1])
        #expect(fetches.value == 2)
        first.cancel()
        subscription.value?.cancel()
    }

    @Test("A shared observation that fails while it starts starts again with the next subscriber")
    func failureDuringStart() async throws {
        let dbQueue = try DatabaseQueue()
        let shared =
            ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing")! }
            .shared(in: dbQueue, scheduling: .immediate)
        let received = Waitable(Received())
        let first = shared.start(
            onError: { _ in MainActor.assumeIsolated { received.update { $0.errors += 1 } } }, onChange: { _ in })
        try await received.wait("an error") { @Sendable in $0.errors > 0 }
        #expect(received.value.errors == 1)
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE missing(a)") }
        let second = shared.start(
            onError: { Issue.record($0) },
            onChange: { value in MainActor.assumeIsolated { received.update { $0.first.append(value) } } })
        #expect(received.value.first == [0])
        first.cancel()
        second.cancel()
    }
}

/// What the subscribers of a test received.
private struct Received {
    var first: [Int] = []
    var second: [Int] = []
    var errors = 0
}
