import Foundation
import Strata
import StrataTestSupport
import Testing

/// With `.immediate` scheduling, every subscriber of a shared observation
/// gets the current value during `start`, not only the first one.
@MainActor
struct SharedObservationImmediateTests {
    @Test("B06: with .immediate scheduling, a subscriber that comes after a cancelled one gets the value during start")
    func laterSubscriberAfterCancel() throws {
        let dbQueue = try inMemoryDatabase("CREATE TABLE t(a)")
        let shared =
            ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
            .shared(in: dbQueue, scheduling: .immediate, extent: .observationLifetime)
        let first = ObservedValues<Int>()
        let firstCancellable = shared.start(onError: { Issue.record($0) }, onChange: { first.record($0) })
        #expect(first.values == [0])
        firstCancellable.cancel()

        let second = ObservedValues<Int>()
        let secondCancellable = shared.start(onError: { Issue.record($0) }, onChange: { second.record($0) })
        #expect(second.values == [0])
        secondCancellable.cancel()
    }

    @Test(
        "B06: with .immediate scheduling, a subscriber started from the first one's onChange gets the value during start",
        arguments: [SharedValueObservationExtent.observationLifetime, .whileObserved])
    func laterSubscriberFromOnChange(extent: SharedValueObservationExtent) throws {
        let dbQueue = try inMemoryDatabase("CREATE TABLE t(a)")
        let shared =
            ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
            .shared(in: dbQueue, scheduling: .immediate, extent: extent)
        let second = ObservedValues<Int>()
        let secondCancellable = LockedBox<AnyDatabaseCancellable?>(nil)
        let secondValuesAtStart = LockedBox<[Int]?>(nil)
        let firstCancellable = shared.start(
            onError: { Issue.record($0) },
            onChange: { _ in
                guard secondCancellable.withLock({ $0 == nil }) else { return }
                let cancellable = shared.start(onError: { Issue.record($0) }, onChange: { second.record($0) })
                secondCancellable.withLock { $0 = cancellable }
                secondValuesAtStart.withLock { $0 = second.values }
            })
        #expect(secondValuesAtStart.withLock { $0 } == [0])
        firstCancellable.cancel()
        secondCancellable.withLock { $0 }?.cancel()
    }
}
