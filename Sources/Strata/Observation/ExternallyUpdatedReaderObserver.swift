// Value observations in a reader whose database only other processes
// change (a replica that a follower keeps up to date): no transaction of
// this process tells when to fetch, so the reader does. The observation
// fetches its initial value, then fetches again each time the reader says
// new reads see a change, one fetch at a time.

import Foundation

/// A reader whose database other processes change, and that tells when:
/// value observations started in it notify a fresh value after each change.
protocol ExternallyUpdatedReader: DatabaseReader {
    /// Calls `onChange` after each change that new reads can see, until the
    /// returned cancellable is cancelled. The calls come from any thread.
    func addExternalUpdateListener(_ onChange: @escaping @Sendable () -> Void) -> AnyDatabaseCancellable
}

/// Runs one value observation in an ``ExternallyUpdatedReader``.
final class ExternallyUpdatedReaderObserver<Reducer: ValueReducer>: @unchecked Sendable {
    private struct State {
        var isCancelled = false
        /// A fetch runs: a change that comes meanwhile fetches again after.
        var isFetching = false
        var needsFetch = false
        var listener: AnyDatabaseCancellable?
    }

    private let reader: any ExternallyUpdatedReader
    private let scheduler: any ValueObservationScheduler
    private let events: ValueObservation<Reducer>.Events
    private let onError: @Sendable (any Error) -> Void
    private let onChange: @Sendable (Reducer.Value) -> Void
    private let state = Mutex(State())
    /// Only used by the one fetch that runs (see `State.isFetching`).
    private var reducer: Reducer

    init(
        reader: any ExternallyUpdatedReader, observation: ValueObservation<Reducer>,
        scheduler: any ValueObservationScheduler, onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void
    ) {
        self.reader = reader
        self.scheduler = scheduler
        self.events = observation.events
        self.onError = onError
        self.onChange = onChange
        self.reducer = observation.reducer
    }

    private var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Listens to the reader's changes, and fetches the initial value: now
    /// when the scheduler wants it immediately, or else in the background.
    func start() -> AnyDatabaseCancellable {
        // Listening starts before the initial fetch, so that a change made
        // meanwhile fetches again.
        let listener = reader.addExternalUpdateListener { [weak self] in self?.databaseDidChange() }
        state.withLock { $0.listener = listener }
        if scheduler.immediateInitialValue() {
            state.withLock { $0.isFetching = true }
            let result = Result { try reader.read { db in try fetchAndReduce(db) } }
            switch result {
            case .success(let value):
                if let value {
                    events.didReceiveValue?(value)
                    onChange(value)
                }
            case .failure(let error):
                if stop() {
                    events.didFail?(error)
                    onError(error)
                }
            }
            fetchEnded()
        } else {
            requestFetch()
        }
        return AnyDatabaseCancellable { [self] in
            guard stop() else { return }
            events.didCancel?()
        }
    }

    /// Stops listening. Returns false when the observation had stopped
    /// already.
    private func stop() -> Bool {
        let listener: AnyDatabaseCancellable?? = state.withLock { state in
            guard !state.isCancelled else { return nil }
            state.isCancelled = true
            defer { state.listener = nil }
            return state.listener
        }
        guard let listener else { return false }
        listener?.cancel()
        return true
    }

    private func databaseDidChange() {
        guard !isCancelled else { return }
        events.databaseDidChange?()
        requestFetch()
    }

    /// Fetches now, or after the running fetch.
    private func requestFetch() {
        let startsFetch: Bool = state.withLock { state in
            guard !state.isCancelled else { return false }
            if state.isFetching {
                state.needsFetch = true
                return false
            }
            state.isFetching = true
            return true
        }
        if startsFetch { fetchInBackground() }
    }

    private func fetchInBackground() {
        reader.asyncRead { [self] result in
            let reduced = result.flatMap { db in Result { try fetchAndReduce(db) } }
            switch reduced {
            case .success(let value?):
                notify(value)
            case .success(nil):
                break
            case .failure(let error):
                notify(error)
            }
            fetchEnded()
        }
    }

    /// Fetches, and reduces the fetched value: nil when it must not be
    /// notified (a duplicate, for example).
    private func fetchAndReduce(_ db: Database) throws -> Reducer.Value? {
        guard !isCancelled else { return nil }
        events.willFetch?()
        let fetched = try reducer._fetch(db)
        return try reducer._value(fetched)
    }

    /// Starts the fetch that a change asked for while one ran.
    private func fetchEnded() {
        let fetchesAgain: Bool = state.withLock { state in
            guard !state.isCancelled, state.needsFetch else {
                state.isFetching = false
                return false
            }
            state.needsFetch = false
            return true
        }
        if fetchesAgain { fetchInBackground() }
    }

    private func notify(_ value: Reducer.Value) {
        guard !isCancelled else { return }
        events.didReceiveValue?(value)
        scheduler.schedule { [self] in
            guard !isCancelled else { return }
            onChange(value)
        }
    }

    private func notify(_ error: any Error) {
        guard stop() else { return }
        events.didFail?(error)
        scheduler.schedule { [onError] in onError(error) }
    }
}
