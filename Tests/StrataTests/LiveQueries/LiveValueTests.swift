#if canImport(Observation)
    import Foundation
    import Observation
    import Strata
    import StrataTestSupport
    import Testing

    /// Counts the changes of what `read` reads, as Observation reports them:
    /// tracking is registered again inside each change, so that none is
    /// missed between two, and the change is counted on the main queue,
    /// once the main actor (where the tests' live values change) has set
    /// the new value.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    final class ObservationChanges: Sendable {
        let count = Waitable(0)
        private let read: @Sendable () -> Void

        init(_ read: @escaping @Sendable () -> Void) {
            self.read = read
            track()
        }

        private func track() {
            withObservationTracking(read) { [weak self] in
                guard let self else { return }
                track()
                DispatchQueue.main.async { self.count.update { $0 += 1 } }
            }
        }
    }

    /// Returns once `condition` holds, checked now and after each change of
    /// what `read` reads (changes made on the main actor, where they are
    /// counted once complete).
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func waitUntil(
        _ description: String, reading read: @escaping @Sendable () -> Void,
        _ condition: @escaping @Sendable () -> Bool
    ) async throws {
        let changes = ObservationChanges(read)
        while true {
            // The count before the check: a change that completes after it
            // is counted after it, and ends the wait below.
            let seen = changes.count.value
            if condition() { return }
            try await changes.count.wait(description) { $0 > seen }
        }
    }

    /// `LiveValue`: a value observation as an observable object (issue 50).
    /// Each test returns at once on Apple systems older than Observation.
    @Suite("Live values")
    struct LiveValueTests {
        @Test("The initial value until the first fetch is notified, then the fetched one")
        func initialValue() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let dbQueue = try makePlayerDatabase()
            // The scheduler's queue is suspended: nothing can be notified yet.
            let queue = DispatchQueue(label: "suspended")
            queue.suspend()
            let live = LiveValue(
                ValueObservation.tracking { db in try Player.fetchCount(db) }, in: dbQueue, initialValue: -1,
                scheduling: .async(onQueue: queue))
            #expect(live.value == -1)
            #expect(live.isLoading)
            queue.resume()
            try await waitUntil("the first value", reading: { _ = live.isLoading }) { !live.isLoading }
            #expect(live.value == 0)
        }

        @Test("One change per transaction that changes the value, none for other tables")
        func oneChangePerChangingTransaction() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let dbQueue = try makePlayerDatabase()
            try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE other(a)") }
            let live = LiveValue(
                ValueObservation.tracking { db in try Player.fetchCount(db) }, in: dbQueue, initialValue: -1)
            try await waitUntil("the first value", reading: { _ = live.isLoading }) { !live.isLoading }
            #expect(live.value == 0)
            #expect(!live.isLoading)

            let changes = ObservationChanges { _ = live.value }
            try await dbQueue.write { db in _ = try Player(name: "Arthur", score: 1).inserted(db) }
            try await changes.count.wait("a change") { $0 == 1 }
            #expect(live.value == 1)
            // Another table: no fetch, no change. The next insert's change is
            // then the second one.
            try await dbQueue.write { db in try db.execute(sql: "INSERT INTO other VALUES (1)") }
            try await dbQueue.write { db in _ = try Player(name: "Barbara", score: 2).inserted(db) }
            try await changes.count.wait("another change") { $0 == 2 }
            #expect(live.value == 2)
            #expect(changes.count.value == 2)
        }

        @Test("With removeDuplicates, a transaction that leaves the value as it was changes nothing")
        func sameValueNoChange() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let dbQueue = try makePlayerDatabase(players: [Player(name: "Arthur", score: 1)])
            let observation = ValueObservation.tracking { db in try Player.fetchCount(db) }.removeDuplicates()
            let live = LiveValue(observation, in: dbQueue, initialValue: -1)
            try await waitUntil("the first value", reading: { _ = live.isLoading }) { !live.isLoading }
            let changes = ObservationChanges { _ = live.value }
            // The table changes, the count does not.
            try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 10") }
            try await dbQueue.write { db in _ = try Player(name: "Barbara", score: 2).inserted(db) }
            try await changes.count.wait("the count's change") { $0 >= 1 }
            #expect(live.value == 2)
            #expect(changes.count.value == 1)
        }

        @Test("1,000 fast transactions: values arrive in order, and the last one is a fresh fetch")
        func orderUnderManyTransactions() async throws {
            guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) else { return }
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
            try await dbPool.write { db in
                try db.execute(sql: "CREATE TABLE counter(n); INSERT INTO counter VALUES (0)")
            }
            let live = LiveValue(
                ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT n FROM counter")! },
                in: dbPool, initialValue: -1)
            let writes = Task.detached {
                for _ in 0..<1000 {
                    try await dbPool.write { db in try db.execute(sql: "UPDATE counter SET n = n + 1") }
                }
            }
            // Observations gives the value after each change, the latest when
            // several came in between: in order, up to the last. It reads on
            // the main actor, where the values change: Observation installs
            // its tracking after the read, and would miss a change made on
            // another thread in between.
            let values = Waitable<[Int]>([])
            let observing = Task { @MainActor in
                for await value in Observations({ live.value }) {
                    values.update { $0.append(value) }
                    if value == 1000 { break }
                }
            }
            try await writes.value
            try await values.wait("the last value", timeout: .seconds(60)) { $0.last == 1000 }
            observing.cancel()
            #expect(values.value == values.value.sorted())
            let fresh = try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT n FROM counter")! }
            #expect(live.value == fresh)
        }

        @Test("By default, a burst of commits changes the value a few times, not once per commit")
        func displayPacing() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            // A queue would fetch and notify after each of the 100 commits
            // (`pacing: .everyCommit`).
            let dbQueue = try makePlayerDatabase()
            let live = LiveValue(
                ValueObservation.tracking { db in try Player.fetchCount(db) }, in: dbQueue, initialValue: -1)
            try await waitUntil("the first value", reading: { _ = live.isLoading }) { !live.isLoading }
            let changes = ObservationChanges { _ = live.value }
            try await dbQueue.writeWithoutTransaction { db in
                for index in 0..<100 {
                    try db.inTransaction {
                        _ = try Player(name: "Player \(index)", score: index).inserted(db)
                        return .commit
                    }
                }
            }
            try await waitUntil("the last value", reading: { _ = live.value }) { live.value == 100 }
            // One change, unless the machine paused the burst for longer than
            // the quiet period (half a millisecond) more than once.
            #expect(changes.count.value < 10)
        }

        @Test("A new request replaces the old one: no value of the old one arrives after it")
        func trackReplacesTheObservation() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let dbQueue = try makePlayerDatabase(players: [
                Player(name: "Arthur", score: 100), Player(name: "Barbara", score: 1000),
            ])
            func names(matching pattern: String) -> ValueObservation<ValueReducers.Fetch<[String]>> {
                ValueObservation.tracking { db in
                    try String.fetchAll(
                        db, sql: "SELECT name FROM player WHERE name LIKE ? ORDER BY name", arguments: [pattern])
                }
            }
            let live = LiveValue(names(matching: "%"), in: dbQueue, initialValue: [])
            try await waitUntil("the first value", reading: { _ = live.isLoading }) { !live.isLoading }
            #expect(live.value == ["Arthur", "Barbara"])
            let changes = ObservationChanges { _ = live.value }

            // A write the old request sees, then the new request at once: the
            // old request's value of that write never shows.
            try await dbQueue.write { db in _ = try Player(name: "Anna", score: 1).inserted(db) }
            live.track(names(matching: "B%"), in: dbQueue)
            try await waitUntil("the new request's first value", reading: { _ = live.isLoading }) { !live.isLoading }
            #expect(live.value == ["Barbara"])
            try await dbQueue.write { db in _ = try Player(name: "Bob", score: 2).inserted(db) }
            try await waitUntil("the new request's change", reading: { _ = live.value }) {
                live.value == ["Barbara", "Bob"]
            }
            _ = changes
            #expect(!live.value.contains("Anna"))
        }

        @Test("An error ends the observation, is exposed, and resume starts again")
        func errorsSurface() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let dbQueue = try DatabaseQueue()
            let live = LiveValue(
                ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing")! },
                in: dbQueue, initialValue: 0)
            try await waitUntil("the error", reading: { _ = live.error }) { live.error != nil }
            let error = try #require(live.error as? DatabaseError)
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(!live.isLoading)

            try await dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE missing(a); INSERT INTO missing VALUES (1)")
            }
            live.resume()
            #expect(live.error == nil)
            try await waitUntil("a value", reading: { _ = live.value }) { live.value == 1 }
        }

        @Test("Released, the live value stops its observation; paused, it keeps its last value")
        func releaseAndPause() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let dbQueue = try makePlayerDatabase()
            weak var released: LiveValue<Int>?
            do {
                let live = LiveValue(
                    ValueObservation.tracking { db in try Player.fetchCount(db) }, in: dbQueue, initialValue: -1)
                released = live
                try await waitUntil("the first value", reading: { _ = live.isLoading }) { !live.isLoading }
            }
            #expect(released == nil)

            // Fetched after each commit, as the check below assumes.
            let live = LiveValue(
                ValueObservation.tracking { db in try Player.fetchCount(db) }, in: dbQueue, initialValue: -1,
                pacing: .everyCommit)
            try await waitUntil("the first value", reading: { _ = live.isLoading }) { !live.isLoading }
            live.pause()
            #expect(live.isPaused)
            try await dbQueue.write { db in _ = try Player(name: "Arthur", score: 1).inserted(db) }
            // A read after the write: had the observation run, its value
            // would have been scheduled on the main actor before this one.
            try await dbQueue.read { _ in }
            await Task.yield()
            #expect(live.value == 0)
            live.resume()
            try await waitUntil("a fresh value", reading: { _ = live.value }) { live.value == 1 }
            #expect(!live.isPaused)
        }
    }
#endif
