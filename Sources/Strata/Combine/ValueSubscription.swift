#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
#endif

#if canImport(Combine) || OpenCombine

    /// The subscription of ``DatabasePublishers/Value``: it runs an observation
    /// and hands its values to the subscriber as demand allows.
    ///
    /// Values arrive on the observation's scheduler. Without demand, the latest
    /// one waits (an observation only promises fresh values, not all of them)
    /// until `request(_:)` schedules its delivery on the same scheduler, which
    /// keeps values in order. Cancellation, or a failure, stops the observation
    /// and lets the subscriber go.
    ///
    /// The subscriber is type-erased: the subscription is generic over the
    /// value type only, so that the observation's `@Sendable` closures capture
    /// no conformance of the subscriber's type.
    final class ValueSubscription<Output>: Subscription, @unchecked Sendable {
        typealias Downstream = AnySubscriber<Output, any Error>

        private struct State {
            /// Nil once the subscription is cancelled or completed.
            var downstream: Downstream?
            var demand = Subscribers.Demand.none
            var pending: Output?
            var cancellable: AnyDatabaseCancellable?
        }

        private let scheduler: any ValueObservationScheduler
        private let lock = Lock()
        private var state: State

        init<S: Subscriber>(downstream: S, scheduler: any ValueObservationScheduler)
        where S.Input == Output, S.Failure == any Error {
            self.scheduler = scheduler
            self.state = State(downstream: AnySubscriber(downstream))
        }

        /// Starts the observation, after the subscriber got the subscription.
        func start(_ start: DatabasePublishers.Value<Output>.Start) {
            let cancellable = start(
                { error in self.complete(.failure(error)) },
                { value in self.receive(value) })
            let isDone = lock.withLock { () -> Bool in
                guard state.downstream != nil else { return true }
                state.cancellable = cancellable
                return false
            }
            // Cancelled, or failed, while the observation started.
            if isDone { cancellable.cancel() }
        }

        func request(_ demand: Subscribers.Demand) {
            let hasPendingValue = lock.withLock { () -> Bool in
                guard state.downstream != nil else { return false }
                state.demand += demand
                return state.pending != nil
            }
            if hasPendingValue {
                scheduler.schedule { self.deliverPendingValue() }
            }
        }

        func cancel() {
            let cancellable = lock.withLock { () -> AnyDatabaseCancellable? in
                state.downstream = nil
                state.pending = nil
                defer { state.cancellable = nil }
                return state.cancellable
            }
            cancellable?.cancel()
        }

        /// A fresh value, on the scheduler.
        private func receive(_ value: Output) {
            let downstream = lock.withLock { () -> Downstream? in
                guard let downstream = state.downstream else { return nil }
                guard state.demand > 0 else {
                    state.pending = value
                    return nil
                }
                state.demand -= 1
                state.pending = nil
                return downstream
            }
            if let downstream {
                send(value, to: downstream)
            }
        }

        /// Delivers the value that waited for demand, on the scheduler.
        private func deliverPendingValue() {
            let delivery = lock.withLock { () -> (Downstream, Output)? in
                guard let downstream = state.downstream, state.demand > 0, let value = state.pending else { return nil }
                state.demand -= 1
                state.pending = nil
                return (downstream, value)
            }
            if let (downstream, value) = delivery {
                send(value, to: downstream)
            }
        }

        private func send(_ value: Output, to downstream: Downstream) {
            let demand = downstream.receive(value)
            if demand > 0 {
                lock.withLock { state.demand += demand }
            }
        }

        private func complete(_ completion: Subscribers.Completion<any Error>) {
            let (downstream, cancellable) = lock.withLock { () -> (Downstream?, AnyDatabaseCancellable?) in
                defer {
                    state.downstream = nil
                    state.pending = nil
                    state.cancellable = nil
                }
                return (state.downstream, state.cancellable)
            }
            cancellable?.cancel()
            downstream?.receive(completion: completion)
        }
    }

#endif
