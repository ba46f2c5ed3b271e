import Foundation

extension ValueObservation {
    /// Starts the observation from the main actor. By default, values and
    /// errors are notified asynchronously on the main actor; with
    /// `scheduling: .immediate`, the initial value is notified before the
    /// method returns. The observation stops when the returned cancellable
    /// is cancelled or deinitialized, or after an error.
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue) { error in
    ///     // Handle error
    /// } onChange: { players in
    ///     print("Fresh players: \(players)")
    /// }
    /// ```
    @MainActor
    @preconcurrency
    public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationMainActorScheduler = .mainActor,
        onError: @escaping @MainActor @Sendable (any Error) -> Void,
        onChange: @escaping @MainActor @Sendable (Reducer.Value) -> Void
    ) -> AnyDatabaseCancellable {
        start(
            in: reader,
            scheduling: scheduler as any ValueObservationScheduler,
            onError: { error in MainActor.assumeIsolated { onError(error) } },
            onChange: { value in MainActor.assumeIsolated { onChange(value) } })
    }

    /// Starts the observation: values and errors are notified by the
    /// scheduler. The observation stops when the returned cancellable is
    /// cancelled or deinitialized, or after an error.
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: queue)) { error in
    ///     // Handle error
    /// } onChange: { players in
    ///     print("Fresh players: \(players)")
    /// }
    /// ```
    @preconcurrency
    public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void
    ) -> AnyDatabaseCancellable {
        start(in: reader, scheduling: scheduler as any ValueObservationScheduler, onError: onError, onChange: onChange)
    }

    private func start(
        in reader: any DatabaseReader,
        scheduling scheduler: any ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void
    ) -> AnyDatabaseCancellable {
        events.willStart?()
        if let reader = reader as? any ExternallyUpdatedReader {
            // A replica: the reader says when to fetch again.
            return ExternallyUpdatedReaderObserver(
                reader: reader, observation: self, scheduler: scheduler, onError: onError, onChange: onChange
            ).start()
        }
        guard let writer = reader as? any DatabaseWriter else {
            return startReadOnly(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
        }
        let observer = ValueObserver(
            writer: writer, observation: self, scheduler: scheduler, onError: onError, onChange: onChange)
        if scheduler.immediateInitialValue() {
            // The value or error is notified once the access has ended, so
            // that the callbacks can access the database.
            // The initial value is reduced before the writer can commit and
            // schedule the next fetch.
            let result = writer.unsafeReentrantWrite { db in
                observer.startObserving(db).flatMap { fetched in observer.reduceNow(fetched) }
            }
            switch result {
            case .success(let value?):
                events.didReceiveValue?(value)
                onChange(value)
            case .success(nil):
                break
            case .failure(let error):
                observer.notifyNow(error)
            }
        } else {
            writer.asyncWriteWithoutTransaction { db in
                guard !observer.isCancelled else { return }
                switch observer.startObserving(db) {
                case .success(let fetched): observer.reduceAndNotify(fetched)
                case .failure(let error): observer.notify(error)
                }
            }
        }
        return AnyDatabaseCancellable { observer.cancel() }
    }

    /// Readers that can't write (snapshots) never change: the observation
    /// notifies one value.
    private func startReadOnly(
        in reader: any DatabaseReader,
        scheduling scheduler: any ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void
    ) -> AnyDatabaseCancellable {
        var reducer = self.reducer
        let events = self.events
        let result: Result<Reducer.Value?, any Error> = Result {
            events.willFetch?()
            let fetched = try reader.unsafeReentrantRead { db in try reducer._fetch(db) }
            return try reducer._value(fetched)
        }
        if case .success(let value?) = result {
            events.didReceiveValue?(value)
        }
        let notify: @Sendable () -> Void = {
            switch result {
            case .success(let value):
                if let value {
                    onChange(value)
                }
            case .failure(let error):
                events.didFail?(error)
                onError(error)
            }
        }
        if scheduler.immediateInitialValue() {
            notify()
        } else {
            scheduler.schedule(notify)
        }
        return AnyDatabaseCancellable {}
    }

    /// The values of the observation, as an asynchronous sequence. The
    /// observation starts when iteration starts, and stops when it ends.
    ///
    /// ```swift
    /// for try await players in observation.values(in: dbQueue) {
    ///     print("Fresh players: \(players)")
    /// }
    /// ```
    public func values(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .task,
        bufferingPolicy: AsyncValueObservation<Reducer.Value>.BufferingPolicy = .unbounded
    ) -> AsyncValueObservation<Reducer.Value> {
        let observation = self
        return AsyncValueObservation(bufferingPolicy: bufferingPolicy) { continuation in
            observation.start(
                in: reader,
                scheduling: scheduler as any ValueObservationScheduler,
                onError: { error in continuation.finish(throwing: error) },
                onChange: { value in continuation.yield(value) })
        }
    }
}

/// The values of a ``ValueObservation``, as an asynchronous sequence
/// (``ValueObservation/values(in:scheduling:bufferingPolicy:)``).
public struct AsyncValueObservation<Element: Sendable>: AsyncSequence, Sendable {
    /// How values are buffered while the iteration is busy.
    public typealias BufferingPolicy = AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy
    /// Making an iterator starts the observation; ending the iteration, or dropping the
    /// iterator, cancels it.
    public typealias AsyncIterator = Iterator

    let bufferingPolicy: BufferingPolicy
    let start: @Sendable (AsyncThrowingStream<Element, any Error>.Continuation) -> AnyDatabaseCancellable

    init(
        bufferingPolicy: BufferingPolicy,
        start: @escaping @Sendable (AsyncThrowingStream<Element, any Error>.Continuation) -> AnyDatabaseCancellable
    ) {
        self.bufferingPolicy = bufferingPolicy
        self.start = start
    }

    /// Starts the observation.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream(
            bufferingPolicy: bufferingPolicy)
        let cancellable = start(continuation)
        continuation.onTermination = { _ in cancellable.cancel() }
        return Iterator(base: stream.makeAsyncIterator(), cancellable: cancellable)
    }

    /// Iterates the values of the observation.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.AsyncIterator
        let cancellable: AnyDatabaseCancellable

        /// The next value, or nil when the iteration is cancelled.
        public mutating func next() async throws -> Element? {
            try await base.next()
        }
    }
}
