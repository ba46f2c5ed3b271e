#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
#endif

#if canImport(Combine) || OpenCombine
    import Dispatch
    import Foundation
    import Strata

    /// A wait that did not end in time.
    struct WaitTimeout: Error, CustomStringConvertible {
        var description: String
    }

    /// A state that tests wait on: each change wakes the waiters whose
    /// condition holds. Waits are bounded in time, and never sleep.
    final class Waitable<State>: @unchecked Sendable {
        private struct Waiter {
            let id: Int
            let condition: (State) -> Bool
            let continuation: CheckedContinuation<Void, any Error>
        }

        private let lock = TestLock()
        private var state: State
        private var waiters: [Waiter] = []
        private var nextID = 0

        init(_ state: State) {
            self.state = state
        }

        var value: State { lock.withLock { state } }

        func update(_ body: (inout State) -> Void) {
            let ready = lock.withLock { () -> [Waiter] in
                body(&state)
                let ready = waiters.filter { $0.condition(state) }
                waiters.removeAll { waiter in ready.contains { $0.id == waiter.id } }
                return ready
            }
            for waiter in ready { waiter.continuation.resume() }
        }

        /// Returns once `condition` holds; throws `WaitTimeout` after `timeout` seconds.
        func wait(
            _ description: String, timeout: Double = 10, until condition: @escaping (State) -> Bool
        ) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let id = lock.withLock { () -> Int? in
                    if condition(state) { return nil }
                    nextID += 1
                    waiters.append(Waiter(id: nextID, condition: condition, continuation: continuation))
                    return nextID
                }
                guard let id else {
                    continuation.resume()
                    return
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                    let waiter = self.lock.withLock { () -> Waiter? in
                        guard let index = self.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                        return self.waiters.remove(at: index)
                    }
                    waiter?.continuation.resume(throwing: WaitTimeout(description: "timed out: \(description)"))
                }
            }
        }
    }

    /// Queues that tests recognize: events record where they were delivered.
    enum TestQueues {
        static let key = DispatchSpecificKey<String>()

        static func make(_ label: String) -> DispatchQueue {
            let queue = DispatchQueue(label: label)
            queue.setSpecific(key: key, value: label)
            return queue
        }

        /// Marks the main queue. On Linux, the main queue may be drained by a
        /// thread that is not the main thread (the test runner's main thread
        /// parks in `dispatch_main`): `Thread.isMainThread` can't tell.
        private static let markMain: Void = DispatchQueue.main.setSpecific(key: key, value: "main")

        /// "main" on the main queue, the label of a queue made by `make`, or "other".
        static var current: String {
            markMain
            return DispatchQueue.getSpecific(key: key) ?? "other"
        }
    }

    /// A subscriber that records what it receives, and where.
    final class PublisherRecorder<Input>: Subscriber, @unchecked Sendable {
        typealias Failure = any Error

        struct State {
            var values: [Input] = []
            var valueQueues: [String] = []
            var completion: Subscribers.Completion<any Error>?
            var completionQueue: String?

            var isFinished: Bool {
                if case .finished = completion { return true }
                return false
            }

            var failure: (any Error)? {
                if case .failure(let error) = completion { return error }
                return nil
            }
        }

        let state = Waitable(State())
        private let lock = TestLock()
        private var subscription: (any Subscription)?
        private let initialDemand: Subscribers.Demand
        private let demandPerValue: Subscribers.Demand

        /// By default, an unlimited demand.
        init(initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
            self.initialDemand = initialDemand
            self.demandPerValue = demandPerValue
        }

        var values: [Input] { state.value.values }

        func receive(subscription: any Subscription) {
            lock.withLock { self.subscription = subscription }
            if initialDemand > 0 {
                subscription.request(initialDemand)
            }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            let queue = TestQueues.current
            state.update {
                $0.values.append(input)
                $0.valueQueues.append(queue)
            }
            return demandPerValue
        }

        func receive(completion: Subscribers.Completion<any Error>) {
            let queue = TestQueues.current
            state.update {
                $0.completion = completion
                $0.completionQueue = queue
            }
        }

        func request(_ demand: Subscribers.Demand) {
            lock.withLock { subscription }?.request(demand)
        }

        func cancel() {
            let subscription = lock.withLock { () -> (any Subscription)? in
                defer { self.subscription = nil }
                return self.subscription
            }
            subscription?.cancel()
        }

        func waitForValues(_ count: Int, timeout: Double = 10) async throws {
            try await state.wait("\(count) values", timeout: timeout) {
                $0.values.count >= count || $0.completion != nil
            }
        }

        func waitForCompletion(timeout: Double = 10) async throws {
            try await state.wait("completion", timeout: timeout) { $0.completion != nil }
        }
    }

    /// A value observation scheduler over a queue, that counts the values it
    /// was asked to deliver.
    final class CountingScheduler: ValueObservationScheduler, @unchecked Sendable {
        let queue: DispatchQueue
        let scheduledCount = Waitable(0)

        init(queue: DispatchQueue) {
            self.queue = queue
        }

        func immediateInitialValue() -> Bool { false }

        func schedule(_ action: @escaping @Sendable () -> Void) {
            scheduledCount.update { $0 += 1 }
            queue.async(execute: action)
        }
    }

    /// A database with a `player` table, for the publishers' tests.
    func makePublisherTestDatabase(_ kind: WriterKind, _ directory: TemporaryDirectory) throws -> any DatabaseWriter {
        let writer = try kind.open(directory)
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER)")
        }
        return writer
    }

    /// An object whose deallocation tells that an observation let go of its closures.
    final class Token: Sendable {}

    /// A weak reference that crosses threads.
    final class WeakToken: @unchecked Sendable {
        weak var token: Token?
        init(_ token: Token) { self.token = token }
    }
#endif
