#if canImport(Observation)
    import Foundation
    import Observation
    import Strata
    import StrataTestSupport
    import Testing

    /// Live values on every kind of reader, and on a scheduler of their own
    /// (issue 50). Each test returns at once on Apple systems older than
    /// Observation.
    @Suite("Live values: readers and schedulers")
    struct LiveValueReadersTests {
        @Test("A live value on a replica follows what the follower applies")
        func replica() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let fixture = try ReplicaFixture()
            let live = LiveValue(
                ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! },
                in: fixture.replica, initialValue: -1)
            try await waitUntil("the first value", reading: { _ = live.value }) { live.value == 3 }
            try await fixture.insertAndApply(2)
            try await waitUntil("the applied players", reading: { _ = live.value }) { live.value == 5 }
        }

        @Test("A live value on a database that observes other writers sees their commits")
        func externalChanges() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let directory = try TemporaryDirectory()
            let (writer, path) = try ExternalChangeWriter.poolWAL.open(directory)
            let live = LiveValue(
                ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! },
                in: writer, initialValue: -1)
            try await waitUntil("the first value", reading: { _ = live.value }) { live.value == 0 }
            // Another pool on the file: a writer the first one does not know.
            let other = try DatabasePool(path: path)
            try await other.write { db in try db.execute(sql: "INSERT INTO player (value) VALUES (1)") }
            try await waitUntil("the other writer's commit", reading: { _ = live.value }) { live.value == 1 }
        }

        @Test("With a scheduler of its own, a live value changes on that scheduler")
        func ownScheduler() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let queue = TestQueues.make("live-values")
            // Suspended until the tracking below starts: no change is missed.
            queue.suspend()
            let dbQueue = try makePlayerDatabase()
            let queues = Waitable<[String]>([])
            let live = LiveValue(
                ValueObservation.tracking { db in try Player.fetchCount(db) }, in: dbQueue, initialValue: -1,
                scheduling: .async(onQueue: queue))
            // Observation calls the change handler where the value changes.
            @Sendable func track() {
                withObservationTracking({ _ = live.value }) {
                    queues.update { $0.append(TestQueues.current) }
                    track()
                }
            }
            track()
            queue.resume()
            _ = try await dbQueue.write { db in try Player(name: "Arthur", score: 1).inserted(db) }
            try await queues.wait("two changes") { $0.count >= 2 }
            #expect(Set(queues.value) == ["live-values"])
            // Observation reports a change before it happens: once the queue
            // has run what it was given, the value is there.
            queue.sync {}
            #expect(live.value == 1)
        }
    }
#endif
