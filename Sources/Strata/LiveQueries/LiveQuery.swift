// The property wrapper of a live query: a `LiveValue` behind a property of
// an `@Observable` model (marked `@ObservationIgnored`, so that the model's
// macro leaves the storage alone: the live value tracks the accesses).

#if canImport(Observation)
    import Foundation
    import Observation

    /// A property kept equal to the result of a request, for `@Observable`
    /// models: reading it registers an access with Observation, and each
    /// transaction that changes what the request fetches changes it.
    ///
    /// ```swift
    /// @Observable @MainActor
    /// final class PlayerList {
    ///     @ObservationIgnored @LiveQuery(Player.order(Column("score").desc).limit(10), in: dbPool)
    ///     var best: [Player] = []
    ///     @ObservationIgnored @LiveQuery({ db in try Player.fetchCount(db) }, in: dbPool)
    ///     var count = 0
    /// }
    /// ```
    ///
    /// The property holds its initial value until the first fetch is
    /// notified, on the main actor unless a scheduler is given. While
    /// commits keep coming, it fetches at the pace of its `pacing`
    /// (``ObservationPacing/display`` by default). Its
    /// projected value is the ``LiveValue`` (`$best.error`, `$best.pause()`,
    /// `$best.track(_:in:)`). The observation stops when the model is
    /// released.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @propertyWrapper
    public struct LiveQuery<Value: Sendable>: Sendable {
        /// The live value behind the property.
        public let projectedValue: LiveValue<Value>

        /// The last value fetched.
        public var wrappedValue: Value { projectedValue.value }

        /// A property that fetches with `fetch` after each change of what it
        /// reads (`ValueObservation.tracking(fetch)`).
        public init(
            wrappedValue: Value,
            _ fetch: @escaping @Sendable (Database) throws -> Value,
            in reader: any DatabaseReader,
            scheduling scheduler: some ValueObservationScheduler = .mainActor,
            pacing: ObservationPacing = .display
        ) {
            projectedValue = LiveValue(
                ValueObservation.tracking(fetch), in: reader, initialValue: wrappedValue, scheduling: scheduler,
                pacing: pacing)
        }

        /// A property that holds the records a request fetches
        /// (`request.fetchAll(db)`), fetched again after each change of the
        /// region it reads.
        public init<Request: FetchRequest>(
            wrappedValue: Value,
            _ request: Request,
            in reader: any DatabaseReader,
            scheduling scheduler: some ValueObservationScheduler = .mainActor,
            pacing: ObservationPacing = .display
        ) where Request.RowDecoder: FetchableRecord, Value == [Request.RowDecoder], Request: Sendable {
            self.init(
                wrappedValue: wrappedValue, { db in try request.fetchAll(db) }, in: reader, scheduling: scheduler,
                pacing: pacing)
        }

        /// A property that holds the values of an observation.
        public init<Reducer: ValueReducer>(
            wrappedValue: Value,
            _ observation: ValueObservation<Reducer>,
            in reader: any DatabaseReader,
            scheduling scheduler: some ValueObservationScheduler = .mainActor,
            pacing: ObservationPacing = .display
        ) where Reducer.Value == Value {
            projectedValue = LiveValue(
                observation, in: reader, initialValue: wrappedValue, scheduling: scheduler, pacing: pacing)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    extension LiveValue {
        /// Replaces the observation with the records that `request` fetches,
        /// in the same reader: a search field's new request.
        ///
        /// ```swift
        /// $best.track(Player.filter(Column("name").like("\(prefix)%")))
        /// ```
        public func track<Request: FetchRequest & Sendable>(_ request: Request)
        where Request.RowDecoder: FetchableRecord, Value == [Request.RowDecoder] {
            track(ValueObservation.tracking { db in try request.fetchAll(db) })
        }
    }

    #if canImport(SwiftUI)
        import SwiftUI

        // In a SwiftUI view, the live query is a dynamic property: the view
        // reads `wrappedValue`, which registers with Observation, and SwiftUI
        // renders again when it changes. Not tested here (no SwiftUI on Linux).
        @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
        extension LiveQuery: DynamicProperty {}
    #endif
#endif
