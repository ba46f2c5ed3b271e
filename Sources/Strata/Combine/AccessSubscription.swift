#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
#endif

#if canImport(Combine) || OpenCombine

    extension DatabasePublishers {
        /// The publisher behind ``Read``, ``Write`` and ``Migrate``: one
        /// asynchronous database access per subscription, which starts at the
        /// subscriber's first demand, not when it subscribes.
        struct Access<Output>: Publisher {
            typealias Failure = any Error

            typealias Start =
                @Sendable (_ completion: @escaping @Sendable (Result<Output, any Error>) -> Void) -> Void

            let start: Start

            func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
                subscriber.receive(subscription: AccessSubscription(downstream: subscriber, start: start))
            }
        }
    }

    /// The subscription of ``DatabasePublishers/Access``: it starts the
    /// access when the subscriber first asks for a value, then delivers the
    /// result (one value and completion, or a failure) on the thread that
    /// completes the access. Cancellation lets the subscriber go: an access
    /// that already started runs to its end, and its result is dropped.
    final class AccessSubscription<Output>: Subscription, @unchecked Sendable {
        typealias Downstream = AnySubscriber<Output, any Error>

        private enum State {
            /// Subscribed, without demand yet.
            case waiting(Downstream, DatabasePublishers.Access<Output>.Start)
            /// The access runs.
            case started(Downstream)
            /// Completed or cancelled.
            case done
        }

        private let lock = Lock()
        private var state: State

        init<S: Subscriber>(downstream: S, start: @escaping DatabasePublishers.Access<Output>.Start)
        where S.Input == Output, S.Failure == any Error {
            state = .waiting(AnySubscriber(downstream), start)
        }

        func request(_ demand: Subscribers.Demand) {
            guard demand > 0 else { return }
            let start = lock.withLock { () -> DatabasePublishers.Access<Output>.Start? in
                guard case .waiting(let downstream, let start) = state else { return nil }
                state = .started(downstream)
                return start
            }
            start? { result in self.complete(result) }
        }

        func cancel() {
            lock.withLock { state = .done }
        }

        private func complete(_ result: Result<Output, any Error>) {
            let downstream = lock.withLock { () -> Downstream? in
                guard case .started(let downstream) = state else { return nil }
                state = .done
                return downstream
            }
            guard let downstream else { return }
            switch result {
            case .success(let value):
                _ = downstream.receive(value)
                downstream.receive(completion: .finished)
            case .failure(let error):
                downstream.receive(completion: .failure(error))
            }
        }
    }

#endif
