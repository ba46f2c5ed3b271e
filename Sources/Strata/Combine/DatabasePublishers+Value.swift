#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
    import OpenCombineDispatch
#endif
import Dispatch

#if canImport(Combine) || OpenCombine

    extension DatabasePublishers {
        /// The publisher of ``ValueObservation/publisher(in:scheduling:)`` and
        /// ``SharedValueObservation/publisher()``: the fresh values of an
        /// observation, until it fails or the subscription is cancelled.
        ///
        /// Each subscription starts the observation. When the subscriber has no
        /// demand, the publisher keeps the latest value only, and delivers it
        /// when demand comes.
        public struct Value<Output>: Publisher {
            /// Observations fail with any error.
            public typealias Failure = any Error

            typealias Start =
                @Sendable (
                    _ onError: @escaping @Sendable (any Error) -> Void,
                    _ onChange: @escaping @Sendable (Output) -> Void
                ) -> AnyDatabaseCancellable

            let scheduler: any ValueObservationScheduler
            let start: Start

            /// Starts an observation for `subscriber`.
            public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
                let subscription = ValueSubscription(downstream: subscriber, scheduler: scheduler)
                subscriber.receive(subscription: subscription)
                subscription.start(start)
            }
        }
    }

    extension ValueObservation {
        /// A Combine publisher of the fresh values of the observation. The
        /// observation starts when the publisher is subscribed, and stops when
        /// the subscription is cancelled, or after the first error. Values are
        /// delivered by `scheduler`: by default asynchronously on the main
        /// queue; with `.immediate`, subscribed from the main queue, the initial
        /// value is delivered before the subscription returns.
        ///
        /// ```swift
        /// let cancellable = observation.publisher(in: dbQueue).sink { completion in
        ///     // Handle completion
        /// } receiveValue: { (players: [Player]) in
        ///     print("Fresh players", players)
        /// }
        /// ```
        public func publisher(
            in reader: any DatabaseReader,
            scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main)
        ) -> DatabasePublishers.Value<Reducer.Value> {
            let observation = self
            return DatabasePublishers.Value(scheduler: scheduler) { onError, onChange in
                observation.start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
            }
        }
    }

    extension SharedValueObservation {
        /// A Combine publisher of the values of the shared observation: each
        /// subscription gets the last value, if any, then the following ones,
        /// delivered by the scheduler of the shared observation.
        ///
        /// ```swift
        /// let cancellable = sharedObservation
        ///     .publisher()
        ///     .map { players in players.count }
        ///     .sink { completion in ... } receiveValue: { count in ... }
        /// ```
        public func publisher() -> DatabasePublishers.Value<Element> {
            DatabasePublishers.Value(scheduler: scheduler) { [self] onError, onChange in
                start(onError: onError, onChange: onChange)
            }
        }
    }

#endif
