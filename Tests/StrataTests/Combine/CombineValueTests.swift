#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
    import OpenCombineDispatch
#endif

#if canImport(Combine) || OpenCombine
    import Dispatch
    import Foundation
    import Strata
    import StrataTestSupport
    import Testing

    private let playerCount = ValueObservation.tracking { db in
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
    }

    private struct PlayerFailure: Error {}

    /// Fails once the player table is not empty.
    private let failingAfterFirstPlayer = ValueObservation.tracking { db in
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        if count > 0 { throw PlayerFailure() }
        return count
    }

    private func insertPlayer(_ writer: any DatabaseWriter, _ name: String = "Arthur") async throws {
        try await writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: [name]) }
    }

    @Suite("Combine: ValueObservation and SharedValueObservation publishers")
    struct CombineValueTests {
        @Test(
            "The publisher notifies the initial value, then each change, in order, on the main queue by default",
            arguments: WriterKind.allCases)
        func defaultScheduling(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            let recorder = playerCount.publisher(in: writer).subscribeRecorder()
            defer { recorder.cancel() }
            try await recorder.waitForValues(1)
            try await insertPlayer(writer)
            try await recorder.waitForValues(2)
            try await insertPlayer(writer)
            try await recorder.waitForValues(3)
            #expect(recorder.values == [0, 1, 2])
            #expect(recorder.state.value.valueQueues == ["main", "main", "main"])
            #expect(recorder.state.value.completion == nil)
        }

        @Test("The publisher starts the observation when subscribed, once per subscription")
        func startsWhenSubscribed() async throws {
            let writer = try makePublisherTestDatabase(.queue)
            let starts = Waitable(0)
            let publisher =
                playerCount
                .handleEvents(willStart: { starts.update { $0 += 1 } })
                .publisher(in: writer, scheduling: .async(onQueue: TestQueues.make("starts")))
            #expect(starts.value == 0)
            let first = PublisherRecorder<Int>()
            let second = PublisherRecorder<Int>()
            publisher.subscribe(first)
            publisher.subscribe(second)
            defer {
                first.cancel()
                second.cancel()
            }
            try await first.waitForValues(1)
            try await second.waitForValues(1)
            #expect(starts.value == 2)
        }

        @Test("async(onQueue:) delivers on the queue", arguments: WriterKind.allCases)
        func asyncOnQueue(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            let recorder = playerCount.publisher(in: writer, scheduling: .async(onQueue: TestQueues.make("values")))
                .subscribeRecorder()
            defer { recorder.cancel() }
            try await recorder.waitForValues(1)
            try await insertPlayer(writer)
            try await recorder.waitForValues(2)
            #expect(recorder.values == [0, 1])
            #expect(recorder.state.value.valueQueues == ["values", "values"])
        }

        @Test("immediate delivers the initial value before the subscription returns, the others on the main queue")
        @MainActor
        func immediate() async throws {
            let writer = try makePublisherTestDatabase(.pool)
            let recorder = playerCount.publisher(in: writer, scheduling: .immediate).subscribeRecorder()
            defer { recorder.cancel() }
            #expect(recorder.values == [0])
            #expect(recorder.state.value.valueQueues == ["main"])
            try await insertPlayer(writer)
            try await recorder.waitForValues(2)
            #expect(recorder.values == [0, 1])
            #expect(recorder.state.value.valueQueues == ["main", "main"])
        }

        @Test("immediate with a sink, as an application subscribes")
        @MainActor
        func immediateSink() throws {
            let dbQueue = try inMemoryDatabase("CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            var received: [Int] = []
            let cancellable = playerCount.publisher(in: dbQueue, scheduling: .immediate).sink(
                receiveCompletion: { _ in },
                receiveValue: { received.append($0) })
            #expect(received == [0])
            cancellable.cancel()
        }

        @Test("An observation that fails completes the publisher with its error", arguments: WriterKind.allCases)
        func failure(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            let queue = TestQueues.make("failure")
            let recorder = failingAfterFirstPlayer.publisher(in: writer, scheduling: .async(onQueue: queue))
                .subscribeRecorder()
            try await recorder.waitForValues(1)
            try await insertPlayer(writer)
            try await recorder.waitForCompletion()
            #expect(recorder.values == [0])
            #expect(recorder.state.value.failure is PlayerFailure)
            #expect(recorder.state.value.completionQueue == "failure")

            // A failure of the initial fetch.
            let missing = ValueObservation.tracking { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM missing")! }
                .publisher(in: writer, scheduling: .async(onQueue: queue))
                .subscribeRecorder()
            try await missing.waitForCompletion()
            #expect(missing.values.isEmpty)
            #expect(missing.state.value.failure is DatabaseError)
        }

        @Test("Cancellation stops the observation and releases it", arguments: WriterKind.allCases)
        func cancellation(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            let queue = TestQueues.make("cancellation")
            let cancelled = Waitable(false)
            var token: Token? = Token()
            let weakToken = WeakToken(token!)
            let recorder = PublisherRecorder<Int>()
            do {
                let captured = token!
                ValueObservation
                    .tracking { db in
                        withExtendedLifetime(captured) {}
                        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                    }
                    .handleEvents(didCancel: { cancelled.update { $0 = true } })
                    .publisher(in: writer, scheduling: .async(onQueue: queue))
                    .subscribe(recorder)
            }
            token = nil
            try await recorder.waitForValues(1)
            recorder.cancel()
            try await cancelled.wait("didCancel") { $0 }

            // Changes after cancellation are not notified.
            try await insertPlayer(writer)
            // The observer is removed by an async write: the next write runs after it.
            try await writer.write { _ in }
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
            #expect(recorder.values == [0])
            #expect(weakToken.token == nil)
        }

        @Test("Without demand, the publisher keeps the latest value and delivers it on demand")
        func demand() async throws {
            let writer = try makePublisherTestDatabase(.queue)
            let scheduler = CountingScheduler(queue: TestQueues.make("demand"))
            let produced = Waitable<[Int]>([])
            let recorder = PublisherRecorder<Int>(initialDemand: .max(1))
            playerCount
                .handleEvents(didReceiveValue: { value in produced.update { $0.append(value) } })
                .publisher(in: writer, scheduling: scheduler)
                .subscribe(recorder)
            defer { recorder.cancel() }
            try await recorder.waitForValues(1)
            try await insertPlayer(writer)
            try await insertPlayer(writer)
            // Wait until the value 2 was produced and handed to the scheduler,
            // then until the scheduler ran it.
            try await produced.wait("value 2") { $0.last == 2 }
            let producedCount = produced.value.count
            try await scheduler.scheduledCount.wait("scheduled") { $0 >= producedCount }
            await withCheckedContinuation { continuation in scheduler.queue.async { continuation.resume() } }
            #expect(recorder.values == [0])

            recorder.request(.max(1))
            try await recorder.waitForValues(2)
            #expect(recorder.values == [0, 2])

            // Demand returned by the subscriber counts too.
            let unlimited = PublisherRecorder<Int>(initialDemand: .max(1), demandPerValue: .max(1))
            playerCount.publisher(in: writer, scheduling: .async(onQueue: scheduler.queue)).subscribe(unlimited)
            defer { unlimited.cancel() }
            try await unlimited.waitForValues(1)
            try await insertPlayer(writer)
            try await unlimited.waitForValues(2)
            #expect(unlimited.values == [2, 3])
        }

        @Test("The values of a publisher are the values of values(in:)")
        func sameAsValues() async throws {
            let writer = try makePublisherTestDatabase(.pool)
            let recorder = playerCount.publisher(in: writer, scheduling: .async(onQueue: TestQueues.make("same")))
                .subscribeRecorder()
            defer { recorder.cancel() }
            var iterator = playerCount.values(in: writer).makeAsyncIterator()
            let first = try await iterator.next()
            try await recorder.waitForValues(1)
            try await insertPlayer(writer)
            let second = try await iterator.next()
            try await recorder.waitForValues(2)
            #expect([first, second] == [0, 1])
            #expect(recorder.values == [0, 1])
        }

        @Test(
            "SharedValueObservation.publisher() shares one observation between subscribers",
            arguments: WriterKind.allCases)
        func shared(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            let fetches = Waitable(0)
            let queue = TestQueues.make("shared")
            let shared =
                playerCount
                .handleEvents(willFetch: { fetches.update { $0 += 1 } })
                .shared(in: writer, scheduling: .async(onQueue: queue))
            let first = shared.publisher().subscribeRecorder()
            try await first.waitForValues(1)
            // A late subscriber gets the last value.
            let second = shared.publisher().subscribeRecorder()
            try await second.waitForValues(1)
            #expect(fetches.value == 1)

            try await insertPlayer(writer)
            try await first.waitForValues(2)
            try await second.waitForValues(2)
            #expect(first.values == [0, 1])
            #expect(second.values == [0, 1])
            #expect(fetches.value == 2)
            #expect(first.state.value.valueQueues == ["shared", "shared"])

            // Cancelling both stops the shared observation (.whileObserved).
            first.cancel()
            second.cancel()
            try await insertPlayer(writer)
            try await writer.write { _ in }
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
            #expect(fetches.value == 2)
            #expect(first.values == [0, 1])
        }

        @Test("A failing shared observation fails its publishers")
        func sharedFailure() async throws {
            let writer = try makePublisherTestDatabase(.queue)
            let shared = failingAfterFirstPlayer.shared(
                in: writer, scheduling: .async(onQueue: TestQueues.make("shared-failure")))
            let recorder = shared.publisher().subscribeRecorder()
            try await recorder.waitForValues(1)
            try await insertPlayer(writer)
            try await recorder.waitForCompletion()
            #expect(recorder.values == [0])
            #expect(recorder.state.value.failure is PlayerFailure)
        }
    }
#endif
