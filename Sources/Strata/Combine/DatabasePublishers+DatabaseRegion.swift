#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
#endif

#if canImport(Combine) || OpenCombine

    extension DatabasePublishers {
        /// The publisher of ``DatabaseRegionObservation/publisher(in:)``: the
        /// database connection, right after each transaction that modified the
        /// tracked region has committed, on the writer's queue.
        ///
        /// The connection can only be used during the delivery. A commit that
        /// happens while the subscriber has no demand is not delivered.
        public struct DatabaseRegion: Publisher {
            /// The connection, right after an impactful commit.
            public typealias Output = Database
            /// The tracked region may fail to be computed.
            public typealias Failure = any Error

            let observation: DatabaseRegionObservation
            let writer: any DatabaseWriter

            /// Starts the observation for `subscriber`.
            public func receive<S: Subscriber>(subscriber: S) where S.Input == Database, S.Failure == any Error {
                let subscription = RegionSubscription(downstream: subscriber)
                subscriber.receive(subscription: subscription)
                subscription.start(observation, in: writer)
            }
        }
    }

    extension DatabaseRegionObservation {
        /// A Combine publisher of the database connection, right after each
        /// transaction that modified the tracked region has committed, on the
        /// writer's queue, before any other write can happen. The observation
        /// starts when the publisher is subscribed, and stops when the
        /// subscription is cancelled.
        ///
        /// ```swift
        /// let cancellable = observation.publisher(in: dbQueue).sink { completion in
        ///     // Handle completion
        /// } receiveValue: { (db: Database) in
        ///     print("Players were changed")
        /// }
        /// ```
        public func publisher(in writer: any DatabaseWriter) -> DatabasePublishers.DatabaseRegion {
            DatabasePublishers.DatabaseRegion(observation: self, writer: writer)
        }
    }

    /// The subscription of ``DatabasePublishers/DatabaseRegion``. The
    /// subscriber is type-erased, so that the observation's `@Sendable`
    /// closures capture no conformance of its type.
    final class RegionSubscription: Subscription, @unchecked Sendable {
        typealias Downstream = AnySubscriber<Database, any Error>

        private struct State {
            /// Nil once the subscription is cancelled or completed.
            var downstream: Downstream?
            var demand = Subscribers.Demand.none
            var cancellable: AnyDatabaseCancellable?
        }

        private let lock = Lock()
        private var state: State

        init<S: Subscriber>(downstream: S) where S.Input == Database, S.Failure == any Error {
            self.state = State(downstream: AnySubscriber(downstream))
        }

        /// Starts the observation, after the subscriber got the subscription.
        func start(_ observation: DatabaseRegionObservation, in writer: any DatabaseWriter) {
            let cancellable = observation.start(
                in: writer,
                onError: { error in self.complete(.failure(error)) },
                onChange: { db in self.receive(db) })
            let isDone = lock.withLock { () -> Bool in
                guard state.downstream != nil else { return true }
                state.cancellable = cancellable
                return false
            }
            if isDone { cancellable.cancel() }
        }

        func request(_ demand: Subscribers.Demand) {
            lock.withLock {
                guard state.downstream != nil else { return }
                state.demand += demand
            }
        }

        func cancel() {
            let cancellable = lock.withLock { () -> AnyDatabaseCancellable? in
                state.downstream = nil
                defer { state.cancellable = nil }
                return state.cancellable
            }
            cancellable?.cancel()
        }

        /// An impactful commit, on the writer queue.
        private func receive(_ db: Database) {
            let downstream = lock.withLock { () -> Downstream? in
                guard let downstream = state.downstream, state.demand > 0 else { return nil }
                state.demand -= 1
                return downstream
            }
            guard let downstream else { return }
            let demand = downstream.receive(db)
            if demand > 0 {
                lock.withLock { state.demand += demand }
            }
        }

        private func complete(_ completion: Subscribers.Completion<any Error>) {
            let (downstream, cancellable) = lock.withLock { () -> (Downstream?, AnyDatabaseCancellable?) in
                defer {
                    state.downstream = nil
                    state.cancellable = nil
                }
                return (state.downstream, state.cancellable)
            }
            cancellable?.cancel()
            downstream?.receive(completion: completion)
        }
    }

#endif
