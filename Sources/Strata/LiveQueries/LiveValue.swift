// A value observation whose latest value is a property that Swift's
// Observation framework tracks: `withObservationTracking`, `Observations`,
// SwiftUI. The registrar is driven by hand (not the `@Observable` macro):
// the value is written from the observation's scheduler, and read from any
// thread, under a lock.

#if canImport(Observation)
    import Foundation
    import Observation

    /// The fresh value of a ``ValueObservation``, as an observable object:
    /// reading ``value`` inside `withObservationTracking`, `Observations` or a
    /// SwiftUI view registers an access, and each new value that the
    /// observation notifies is one change.
    ///
    /// ```swift
    /// let live = LiveValue(ValueObservation.tracking(Player.fetchAll), in: dbPool, initialValue: [])
    /// for await players in Observations({ live.value }) {
    ///     print(players.count)
    /// }
    /// ```
    ///
    /// The observation starts when the live value is created, and its first
    /// fetch runs then: until it is notified, ``value`` is the initial value
    /// and ``isLoading`` is true. Values are notified on the scheduler
    /// (`.mainActor` by default), which is where the changes happen. A
    /// transaction that does not change the tracked region notifies nothing;
    /// one that changes it without changing the value notifies the same
    /// value again, unless the observation removes duplicates
    /// (``ValueObservation/removeDuplicates()``). An error ends the
    /// observation and is kept in ``error``, with the last value.
    ///
    /// While commits keep coming, the observation fetches at the pace of
    /// ``ObservationPacing/display`` by default: a value per frame at most.
    /// Read ``value`` where the values arrive (the main actor by default):
    /// Observation watches a property once its read is over, and a change
    /// made on another thread in between would go unnoticed by that reader.
    ///
    /// The observation stops when the live value is released, or on
    /// ``pause()``; ``resume()`` starts it again, and `track(_:)` replaces
    /// it (a search field's new request): no value of the replaced
    /// observation arrives after that.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    public final class LiveValue<Value: Sendable>: Observable, @unchecked Sendable {
        /// What the lock protects.
        private struct State {
            var value: Value
            var error: (any Error)?
            var isLoading = true
            var isPaused = false
            /// Bumped by each start: a value of an older observation is dropped.
            var generation = 0
            var cancellable: AnyDatabaseCancellable?
            /// Starts the current observation, for the given generation.
            var start: @Sendable (LiveValue, Int) -> AnyDatabaseCancellable
            let scheduler: any ValueObservationScheduler
            let pacing: ObservationPacing
            /// The reader of the current observation.
            var reader: any DatabaseReader
        }

        private let registrar = ObservationRegistrar()
        private let state: Mutex<State>
        /// The key paths of the observable properties, made once: a key
        /// path literal of a generic class is instantiated at each use, and
        /// that cost more than the rest of a delivery.
        private let keyPaths = ObservableKeyPaths()

        /// Starts observing `observation` in `reader`; ``value`` is
        /// `initialValue` until the first fetch is notified on `scheduler`.
        /// While commits keep coming, the observation fetches at the pace
        /// of `pacing`, which replaces the observation's own (by default,
        /// ``ObservationPacing/display``: a value per frame at most, while
        /// the writer is busy; ``ObservationPacing/everyCommit`` fetches
        /// after each commit).
        public init<Reducer: ValueReducer>(
            _ observation: ValueObservation<Reducer>,
            in reader: any DatabaseReader,
            initialValue: Value,
            scheduling scheduler: some ValueObservationScheduler = .mainActor,
            pacing: ObservationPacing = .display
        ) where Reducer.Value == Value {
            state = Mutex(
                State(
                    value: initialValue, start: Self.starter(observation.paced(pacing), reader, scheduler),
                    scheduler: scheduler, pacing: pacing, reader: reader))
            startObservation()
        }

        deinit {
            state.withLock { $0.cancellable }?.cancel()
        }

        /// The last value the observation notified, or the initial value
        /// before the first one.
        public var value: Value {
            registrar.access(self, keyPath: keyPaths.value)
            return state.withLock { $0.value }
        }

        /// The error that ended the observation, if any; nil again once
        /// ``resume()`` or ``track(_:in:)`` starts it anew.
        public var error: (any Error)? {
            registrar.access(self, keyPath: keyPaths.error)
            return state.withLock { $0.error }
        }

        /// True until the observation notifies its first value or an error,
        /// and again after ``track(_:in:)`` until the new observation does.
        public var isLoading: Bool {
            registrar.access(self, keyPath: keyPaths.isLoading)
            return state.withLock { $0.isLoading }
        }

        /// Whether ``pause()`` stopped the observation.
        public var isPaused: Bool {
            registrar.access(self, keyPath: keyPaths.isPaused)
            return state.withLock { $0.isPaused }
        }

        /// Stops the observation; ``value`` keeps its last value.
        public func pause() {
            let cancellable = state.withLock { state -> AnyDatabaseCancellable? in
                guard !state.isPaused else { return nil }
                state.generation += 1
                defer { state.cancellable = nil }
                return state.cancellable
            }
            cancellable?.cancel()
            setPaused(true)
        }

        /// Starts the observation again after ``pause()`` or an error: it
        /// fetches a fresh value.
        public func resume() {
            guard state.withLock({ $0.isPaused || $0.cancellable == nil || $0.error != nil }) else { return }
            setPaused(false)
            startObservation()
        }

        /// Replaces the observation: the current one stops, and the new one
        /// starts in `reader`, with the same scheduler and pacing. ``value``
        /// keeps the last value until the new observation notifies its
        /// first one; no value of the replaced observation is notified after
        /// this call.
        public func track<Reducer: ValueReducer>(
            _ observation: ValueObservation<Reducer>, in reader: any DatabaseReader
        ) where Reducer.Value == Value {
            let (scheduler, pacing) = state.withLock { ($0.scheduler, $0.pacing) }
            let start = Self.starter(observation.paced(pacing), reader, scheduler)
            let old = state.withLock { state -> AnyDatabaseCancellable? in
                state.start = start
                state.reader = reader
                state.generation += 1
                defer { state.cancellable = nil }
                return state.cancellable
            }
            old?.cancel()
            setPaused(false)
            startObservation()
        }

        /// Replaces the observation with one in the same reader: see
        /// ``track(_:in:)``.
        ///
        /// ```swift
        /// $best.track(ValueObservation.tracking { db in try request.fetchAll(db) })
        /// ```
        public func track<Reducer: ValueReducer>(_ observation: ValueObservation<Reducer>)
        where Reducer.Value == Value {
            track(observation, in: state.withLock { $0.reader })
        }

        // MARK: - Private

        /// A function that starts `observation` and delivers its values to
        /// a live value, tagged with the generation of that start.
        private static func starter<Reducer: ValueReducer>(
            _ observation: ValueObservation<Reducer>,
            _ reader: any DatabaseReader,
            _ scheduler: any ValueObservationScheduler
        ) -> @Sendable (LiveValue, Int) -> AnyDatabaseCancellable where Reducer.Value == Value {
            { [observation] live, generation in
                observation.start(
                    in: reader, scheduling: scheduler,
                    onError: { [weak live] error in live?.receive(.failure(error), generation: generation) },
                    onChange: { [weak live] value in live?.receive(.success(value), generation: generation) })
            }
        }

        private func startObservation() {
            let (start, generation, wasLoading, hadError) = state.withLock { state in
                state.generation += 1
                defer { (state.isLoading, state.error) = (true, nil) }
                return (state.start, state.generation, state.isLoading, state.error != nil)
            }
            if !wasLoading { registrar.withMutation(of: self, keyPath: keyPaths.isLoading) {} }
            if hadError { registrar.withMutation(of: self, keyPath: keyPaths.error) {} }
            let cancellable = start(self, generation)
            let stale = state.withLock { state -> Bool in
                guard state.generation == generation else { return true }
                state.cancellable = cancellable
                return false
            }
            if stale { cancellable.cancel() }
        }

        /// A value or an error of the observation of `generation`: dropped
        /// when a newer observation replaced it.
        private func receive(_ result: Result<Value, any Error>, generation: Int) {
            guard state.withLock({ $0.generation == generation }) else { return }
            switch result {
            case .success(let value):
                registrar.withMutation(of: self, keyPath: keyPaths.value) {
                    state.withLock { $0.value = value }
                }
            case .failure(let error):
                registrar.withMutation(of: self, keyPath: keyPaths.error) {
                    state.withLock { $0.error = error }
                }
            }
            if state.withLock({ $0.isLoading }) {
                registrar.withMutation(of: self, keyPath: keyPaths.isLoading) {
                    state.withLock { $0.isLoading = false }
                }
            }
        }

        private struct ObservableKeyPaths: Sendable {
            let value: KeyPath<LiveValue, Value> & Sendable = \.value
            let error: KeyPath<LiveValue, (any Error)?> & Sendable = \.error
            let isLoading: KeyPath<LiveValue, Bool> & Sendable = \.isLoading
            let isPaused: KeyPath<LiveValue, Bool> & Sendable = \.isPaused
        }

        private func setPaused(_ paused: Bool) {
            guard state.withLock({ $0.isPaused != paused }) else { return }
            registrar.withMutation(of: self, keyPath: keyPaths.isPaused) {
                state.withLock { $0.isPaused = paused }
            }
        }
    }
#endif
