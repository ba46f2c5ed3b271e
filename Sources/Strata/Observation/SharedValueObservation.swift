import Foundation

/// How long a ``SharedValueObservation`` keeps observing the database.
public enum SharedValueObservationExtent: Sendable {
    /// From the first subscription until the shared observation is
    /// deinitialized (or fails). Subscriptions keep it alive: it ends once
    /// the app has released it and every subscription is cancelled.
    case observationLifetime
    /// While it has subscribers: it stops when the last one leaves, and
    /// starts again with the next one.
    case whileObserved
}

/// One database observation shared by several subscribers: a single fetch
/// per change, whatever the number of subscribers, which also get the last
/// value when they subscribe.
///
/// ```swift
/// let sharedPlayers = ValueObservation
///     .tracking(Player.fetchAll)
///     .shared(in: dbQueue)
/// let cancellable = sharedPlayers.start { error in ... } onChange: { players in ... }
/// ```
public final class SharedValueObservation<Element: Sendable>: @unchecked Sendable {
    private typealias Client = (onError: @Sendable (any Error) -> Void, onChange: @Sendable (Element) -> Void)

    private let extent: SharedValueObservationExtent
    let scheduler: any ValueObservationScheduler
    private let startBase: (SharedValueObservation<Element>) -> AnyDatabaseCancellable
    private let lock = Lock()
    private var base = BaseState.idle
    private var nextBaseID = 0
    private var lastValue: Element?
    private var clients: [Int: Client] = [:]
    private var nextClientID = 0

    init<Reducer: ValueReducer>(
        observation: ValueObservation<Reducer>,
        reader: any DatabaseReader,
        scheduler: some ValueObservationScheduler,
        extent: SharedValueObservationExtent
    ) where Reducer.Value == Element {
        self.extent = extent
        self.scheduler = scheduler
        self.startBase = { [weak reader] shared in
            guard let reader else { return AnyDatabaseCancellable {} }
            return observation.start(
                in: reader, scheduling: scheduler,
                onError: { [weak shared] error in shared?.receive(.failure(error)) },
                onChange: { [weak shared] value in shared?.receive(.success(value)) })
        }
    }

    /// The observation of the database that subscribers share. It is
    /// marked as starting before it starts, so that a subscriber that
    /// subscribes from an `onChange` called during the start (`.immediate`
    /// scheduling) does not start it again.
    private enum BaseState {
        case idle
        case starting(id: Int)
        case started(id: Int, AnyDatabaseCancellable)

        var cancellable: AnyDatabaseCancellable? {
            if case .started(_, let cancellable) = self { return cancellable }
            return nil
        }
    }

    // Runs once the app and every subscription have released the shared
    // observation: the database observation stops.
    deinit {
        base.cancellable?.cancel()
    }

    /// Subscribes to the shared observation. The subscriber gets the last
    /// value, if any, then the following ones, until the returned
    /// cancellable is cancelled or deinitialized.
    @preconcurrency
    public func start(
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Element) -> Void
    ) -> AnyDatabaseCancellable {
        let (clientID, lastValue, baseID) = lock.withLock { () -> (Int, Element?, Int?) in
            let clientID = nextClientID
            nextClientID += 1
            clients[clientID] = (onError, onChange)
            guard case .idle = base else { return (clientID, self.lastValue, nil) }
            nextBaseID += 1
            base = .starting(id: nextBaseID)
            return (clientID, self.lastValue, nextBaseID)
        }
        if let lastValue {
            if scheduler.immediateInitialValue() {
                // Like the initial value of an observation, the current value
                // is notified during `start`, also to a subscriber that comes
                // after the first one (or from inside its `onChange`).
                onChange(lastValue)
            } else {
                scheduler.schedule { [weak self] in
                    guard let self, lock.withLock({ clients[clientID] != nil }) else { return }
                    onChange(lastValue)
                }
            }
        }
        if let baseID {
            let cancellable = startBase(self)
            let isCurrent = lock.withLock { () -> Bool in
                guard case .starting(id: baseID) = base else { return false }
                base = .started(id: baseID, cancellable)
                return true
            }
            // The observation failed, or lost its last subscriber, while it started.
            if !isCurrent { cancellable.cancel() }
        }
        // The subscription keeps the shared observation alive: the app may
        // keep only the cancellable. Cancelling releases it.
        return AnyDatabaseCancellable { self.removeClient(clientID) }
    }

    /// The values of the shared observation, as an asynchronous sequence.
    public func values(bufferingPolicy: AsyncValueObservation<Element>.BufferingPolicy = .unbounded)
        -> AsyncValueObservation<Element>
    {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { [self] continuation in
            start(
                onError: { error in continuation.finish(throwing: error) },
                onChange: { value in continuation.yield(value) })
        }
    }

    private func removeClient(_ clientID: Int) {
        let cancellable = lock.withLock { () -> AnyDatabaseCancellable? in
            clients[clientID] = nil
            guard clients.isEmpty, extent == .whileObserved else { return nil }
            defer {
                base = .idle
                lastValue = nil
            }
            return base.cancellable
        }
        cancellable?.cancel()
    }

    private func receive(_ result: Result<Element, any Error>) {
        let clients = lock.withLock { () -> [Client] in
            switch result {
            case .success(let value):
                lastValue = value
            case .failure:
                // A failed observation starts again with the next subscriber.
                lastValue = nil
                base = .idle
            }
            return Array(self.clients.values)
        }
        for client in clients {
            switch result {
            case .success(let value): client.onChange(value)
            case .failure(let error): client.onError(error)
            }
        }
        if case .failure = result {
            lock.withLock { self.clients.removeAll() }
        }
    }
}

extension ValueObservation {
    /// An observation shared by several subscribers, that fetches once per
    /// change. Values are notified by the scheduler (by default on the main
    /// queue).
    public func shared(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main),
        extent: SharedValueObservationExtent = .whileObserved
    ) -> SharedValueObservation<Reducer.Value> {
        SharedValueObservation(observation: self, reader: reader, scheduler: scheduler, extent: extent)
    }
}
