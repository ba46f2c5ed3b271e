import Foundation

/// Observes the database: notifies fresh values each time a transaction
/// commits changes to what the values were fetched from.
///
/// ```swift
/// let observation = ValueObservation.tracking { db in
///     try Player.fetchAll(db)
/// }
/// let cancellable = observation.start(in: dbQueue) { error in
///     // Handle error
/// } onChange: { (players: [Player]) in
///     print("Fresh players: \(players)")
/// }
/// ```
///
/// An observation notifies an initial value, then a new value after each
/// committed change to the tracked region. Values may repeat: use
/// ``removeDuplicates()`` to skip them.
public struct ValueObservation<Reducer: ValueReducer>: Sendable {
    /// The callbacks of `handleEvents`.
    struct Events: Sendable {
        var willStart: (@Sendable () -> Void)?
        var willFetch: (@Sendable () -> Void)?
        var willTrackRegion: (@Sendable (DatabaseRegion) -> Void)?
        var databaseDidChange: (@Sendable () -> Void)?
        var didReceiveValue: (@Sendable (Reducer.Value) -> Void)?
        var didFail: (@Sendable (any Error) -> Void)?
        var didCancel: (@Sendable () -> Void)?

        func map<R: ValueReducer>(_ transform: @escaping @Sendable (R.Value) -> Reducer.Value?)
            -> ValueObservation<R>.Events
        {
            var events = ValueObservation<R>.Events()
            events.willStart = willStart
            events.willFetch = willFetch
            events.willTrackRegion = willTrackRegion
            events.databaseDidChange = databaseDidChange
            if let didReceiveValue {
                events.didReceiveValue = { value in
                    if let value = transform(value) { didReceiveValue(value) }
                }
            }
            events.didFail = didFail
            events.didCancel = didCancel
            return events
        }
    }

    var reducer: Reducer
    var tracking: ValueObservationTracking
    var events = Events()

    /// Whether fetches may write: they run in a savepoint on the writer
    /// connection instead of a read-only transaction. False by default.
    public var requiresWriteAccess = false

    /// How often the observation fetches while commits keep coming
    /// (``paced(_:)``); nil after each commit.
    var pacing: PacingIntervals?

    init(reducer: Reducer, tracking: ValueObservationTracking) {
        self.reducer = reducer
        self.tracking = tracking
    }

    func withReducer<R: ValueReducer>(_ reducer: R, events: ValueObservation<R>.Events) -> ValueObservation<R> {
        var observation = ValueObservation<R>(reducer: reducer, tracking: tracking)
        observation.events = events
        observation.requiresWriteAccess = requiresWriteAccess
        observation.pacing = pacing
        return observation
    }
}

/// How a value observation knows what to track.
enum ValueObservationTracking: Sendable {
    /// The regions, given at creation.
    case constantRegion([any DatabaseRegionConvertible])
    /// The region read by the first fetch.
    case constantRegionRecordedFromSelection
    /// The region read by each fetch.
    case regionRecordedFromSelection

    /// Whether every fetch reads the same region: on a pool, such
    /// observations fetch on readers.
    var isConstant: Bool {
        switch self {
        case .constantRegion, .constantRegionRecordedFromSelection: return true
        case .regionRecordedFromSelection: return false
        }
    }
}

extension ValueObservation {
    /// Observes the values of `fetch`, tracking what each fetch reads.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking(Player.fetchAll)
    /// ```
    @preconcurrency
    public static func tracking<Value>(
        _ fetch: @escaping @Sendable (Database) throws -> Value
    ) -> ValueObservation<Reducer> where Reducer == ValueReducers.Fetch<Value> {
        ValueObservation(reducer: ValueReducers.Fetch(fetch: fetch), tracking: .regionRecordedFromSelection)
    }

    /// Observes the values of `fetch`, tracking what the first fetch reads.
    /// Prefer it to ``tracking(_:)`` only when each fetch reads the same
    /// tables and columns: it lets pools fetch concurrently with writes.
    @preconcurrency
    public static func trackingConstantRegion<Value>(
        _ fetch: @escaping @Sendable (Database) throws -> Value
    ) -> ValueObservation<Reducer> where Reducer == ValueReducers.Fetch<Value> {
        ValueObservation(reducer: ValueReducers.Fetch(fetch: fetch), tracking: .constantRegionRecordedFromSelection)
    }

    /// Observes the values of `fetch`, fetched again after each change to
    /// the given regions, whatever `fetch` reads.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking(region: Player.all()) { db in
    ///     try Player.fetchCount(db)
    /// }
    /// ```
    @preconcurrency
    public static func tracking<Value>(
        region: any DatabaseRegionConvertible,
        _ otherRegions: any DatabaseRegionConvertible...,
        fetch: @escaping @Sendable (Database) throws -> Value
    ) -> ValueObservation<Reducer> where Reducer == ValueReducers.Fetch<Value> {
        tracking(regions: [region] + otherRegions, fetch: fetch)
    }

    /// Observes the values of `fetch`, fetched again after each change to
    /// the given regions, whatever `fetch` reads.
    @preconcurrency
    public static func tracking<Value>(
        regions: [any DatabaseRegionConvertible],
        fetch: @escaping @Sendable (Database) throws -> Value
    ) -> ValueObservation<Reducer> where Reducer == ValueReducers.Fetch<Value> {
        ValueObservation(reducer: ValueReducers.Fetch(fetch: fetch), tracking: .constantRegion(regions))
    }
}

extension ValueObservation {
    /// An observation of transformed values. The transform runs off the
    /// database queue and off the main thread.
    public func map<T>(_ transform: @escaping @Sendable (Reducer.Value) throws -> T)
        -> ValueObservation<ValueReducers.Map<Reducer, T>>
    {
        withReducer(ValueReducers.Map(base: reducer, transform: transform), events: events.map { _ in nil })
    }

    /// An observation that skips values equal to the previous one.
    public func removeDuplicates(by predicate: sending @escaping (Reducer.Value, Reducer.Value) -> Bool)
        -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>>
    {
        let predicate = UncheckedSendablePredicate(predicate)
        return withReducer(
            ValueReducers.RemoveDuplicates(base: reducer, predicate: { predicate.call($0, $1) }),
            events: events.map { $0 })
    }

    /// Runs the closures on the events of the observation, for debugging.
    public func handleEvents(
        willStart: (@Sendable () -> Void)? = nil,
        willFetch: (@Sendable () -> Void)? = nil,
        willTrackRegion: (@Sendable (DatabaseRegion) -> Void)? = nil,
        databaseDidChange: (@Sendable () -> Void)? = nil,
        didReceiveValue: (@Sendable (Reducer.Value) -> Void)? = nil,
        didFail: (@Sendable (any Error) -> Void)? = nil,
        didCancel: (@Sendable () -> Void)? = nil
    ) -> ValueObservation<ValueReducers.Trace<Reducer>> {
        let events = Events(
            willStart: Self.chain(self.events.willStart, willStart),
            willFetch: Self.chain(self.events.willFetch, willFetch),
            willTrackRegion: Self.chain(self.events.willTrackRegion, willTrackRegion),
            databaseDidChange: Self.chain(self.events.databaseDidChange, databaseDidChange),
            didReceiveValue: Self.chain(self.events.didReceiveValue, didReceiveValue),
            didFail: Self.chain(self.events.didFail, didFail),
            didCancel: Self.chain(self.events.didCancel, didCancel))
        return withReducer(ValueReducers.Trace(base: reducer), events: events.map { $0 })
    }

    /// Logs the events of the observation, by default to the standard output:
    /// `start`, `fetch`, `tracked region: player(*)`, `database did change`,
    /// `value: ...`, `failure: ...`, `cancel`.
    public func print(_ prefix: String = "", to stream: sending (any TextOutputStream)? = nil)
        -> ValueObservation<ValueReducers.Trace<Reducer>>
    {
        let output = LockedStream(stream)
        let prefix = prefix.isEmpty ? "" : prefix + ": "
        return handleEvents(
            willStart: { output.write(prefix + "start") },
            willFetch: { output.write(prefix + "fetch") },
            willTrackRegion: { output.write(prefix + "tracked region: \($0)") },
            databaseDidChange: { output.write(prefix + "database did change") },
            didReceiveValue: { output.write(prefix + "value: \($0)") },
            didFail: { output.write(prefix + "failure: \($0)") },
            didCancel: { output.write(prefix + "cancel") })
    }

    private static func chain(_ first: (@Sendable () -> Void)?, _ second: (@Sendable () -> Void)?)
        -> (@Sendable () -> Void)?
    {
        guard let first else { return second }
        guard let second else { return first }
        return {
            first()
            second()
        }
    }

    private static func chain<T>(_ first: (@Sendable (T) -> Void)?, _ second: (@Sendable (T) -> Void)?)
        -> (@Sendable (T) -> Void)?
    {
        guard let first else { return second }
        guard let second else { return first }
        return {
            first($0)
            second($0)
        }
    }
}

extension ValueObservation where Reducer.Value: Equatable {
    /// An observation that skips values equal to the previous one.
    public func removeDuplicates() -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>> {
        withReducer(ValueReducers.RemoveDuplicates(base: reducer, predicate: ==), events: events.map { $0 })
    }
}

/// A predicate handed over with `sending`: it is only called by the reducer
/// of one observation, one value at a time.
private struct UncheckedSendablePredicate<T>: @unchecked Sendable {
    let predicate: (T, T) -> Bool
    init(_ predicate: @escaping (T, T) -> Bool) { self.predicate = predicate }
    func call(_ a: T, _ b: T) -> Bool { predicate(a, b) }
}

/// A text stream shared by the events of a traced observation.
private final class LockedStream: @unchecked Sendable {
    private let lock = Lock()
    private var stream: (any TextOutputStream)?

    init(_ stream: (any TextOutputStream)?) {
        self.stream = stream
    }

    /// Writes one event: as one write to the stream, without newline, or as
    /// one line of the standard output.
    func write(_ line: String) {
        lock.withLock {
            if stream != nil {
                stream!.write(line)
            } else {
                Swift.print(line)
            }
        }
    }
}
