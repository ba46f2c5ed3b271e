#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
#endif

#if canImport(Combine) || OpenCombine
    import Dispatch
    import Foundation
    import Strata

    /// Subscribes to the region observation of table `player`: after each
    /// commit that changes it, reads the player count in the connection the
    /// publisher delivers, and appends it to `counts`.
    package func appendPlayerCountAfterEachCommit(
        in writer: any DatabaseWriter, to counts: Waitable<[Int]>
    ) -> AnyCancellable {
        DatabaseRegionObservation(tracking: Table("player"))
            .publisher(in: writer)
            .sink(
                receiveCompletion: { _ in },
                receiveValue: { db in
                    let count = try! Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                    counts.update { $0.append(count) }
                })
    }

    /// A subscriber that records what it receives, and where.
    package final class PublisherRecorder<Input>: Subscriber, @unchecked Sendable {
        package typealias Failure = any Error

        package struct State {
            package var values: [Input] = []
            package var valueQueues: [String] = []
            package var completion: Subscribers.Completion<any Error>?
            package var completionQueue: String?

            package var isFinished: Bool {
                if case .finished = completion { return true }
                return false
            }

            package var failure: (any Error)? {
                if case .failure(let error) = completion { return error }
                return nil
            }

            package init(
                values: [Input] = [], valueQueues: [String] = [], completion: Subscribers.Completion<any Error>? = nil,
                completionQueue: String? = nil
            ) {
                self.values = values
                self.valueQueues = valueQueues
                self.completion = completion
                self.completionQueue = completionQueue
            }
        }

        package let state = Waitable(State())
        private let lock = TestLock()
        private var subscription: (any Subscription)?
        private let initialDemand: Subscribers.Demand
        private let demandPerValue: Subscribers.Demand

        /// By default, an unlimited demand.
        package init(initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
            self.initialDemand = initialDemand
            self.demandPerValue = demandPerValue
        }

        package var values: [Input] { state.value.values }

        package func receive(subscription: any Subscription) {
            lock.withLock { self.subscription = subscription }
            if initialDemand > 0 {
                subscription.request(initialDemand)
            }
        }

        package func receive(_ input: Input) -> Subscribers.Demand {
            let queue = TestQueues.current
            state.update {
                $0.values.append(input)
                $0.valueQueues.append(queue)
            }
            return demandPerValue
        }

        package func receive(completion: Subscribers.Completion<any Error>) {
            let queue = TestQueues.current
            state.update {
                $0.completion = completion
                $0.completionQueue = queue
            }
        }

        package func request(_ demand: Subscribers.Demand) {
            lock.withLock { subscription }?.request(demand)
        }

        package func cancel() {
            let subscription = lock.withLock { () -> (any Subscription)? in
                defer { self.subscription = nil }
                return self.subscription
            }
            subscription?.cancel()
        }

        package func waitForValues(_ count: Int, timeout: Duration = .seconds(10)) async throws {
            try await state.wait("\(count) values", timeout: timeout) {
                $0.values.count >= count || $0.completion != nil
            }
        }

        package func waitForCompletion(timeout: Duration = .seconds(10)) async throws {
            try await state.wait("completion", timeout: timeout) { $0.completion != nil }
        }
    }

    extension Publisher where Failure == any Error {
        /// Subscribes a new recorder with an unlimited demand, and returns it
        /// at once.
        package func subscribeRecorder() -> PublisherRecorder<Output> {
            let recorder = PublisherRecorder<Output>()
            subscribe(recorder)
            return recorder
        }

        /// Subscribes a new recorder with an unlimited demand, and returns it
        /// once the publisher completes.
        package func recordUntilCompletion(timeout: Duration = .seconds(10)) async throws -> PublisherRecorder<Output> {
            let recorder = PublisherRecorder<Output>()
            subscribe(recorder)
            try await recorder.waitForCompletion(timeout: timeout)
            return recorder
        }
    }

    /// A value observation scheduler over a queue, that counts the values it
    /// was asked to deliver.
    package final class CountingScheduler: ValueObservationScheduler, @unchecked Sendable {
        package let queue: DispatchQueue
        package let scheduledCount = Waitable(0)

        package init(queue: DispatchQueue) {
            self.queue = queue
        }

        package func immediateInitialValue() -> Bool { false }

        package func schedule(_ action: @escaping @Sendable () -> Void) {
            scheduledCount.update { $0 += 1 }
            queue.async(execute: action)
        }
    }

    /// A database with a `player` table, for the publishers' tests.
    package func makePublisherTestDatabase(
        _ kind: WriterKind, _ directory: TemporaryDirectory, configuration: Configuration = Configuration()
    ) throws -> any DatabaseWriter {
        let writer = try kind.open(directory, configuration: configuration)
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER)")
        }
        return writer
    }

    /// A database with a `player` table, for the publishers' tests, on a
    /// file of a new temporary directory that lives as long as the writer
    /// (its configuration keeps it).
    package func makePublisherTestDatabase(_ kind: WriterKind) throws -> any DatabaseWriter {
        let directory = LockedBox(try TemporaryDirectory())
        var configuration = Configuration()
        configuration.prepareDatabase { _ in _ = directory }
        return try makePublisherTestDatabase(kind, directory.value, configuration: configuration)
    }

    /// An object whose deallocation tells that an observation let go of its closures.
    package final class Token: Sendable {
        package init() {}
    }

    /// A weak reference that crosses threads.
    package final class WeakToken: @unchecked Sendable {
        package weak var token: Token?
        package init(_ token: Token) { self.token = token }
    }
#endif
