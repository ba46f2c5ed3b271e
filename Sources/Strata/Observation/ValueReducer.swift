/// The engine of a ``ValueObservation``: how it fetches from the database,
/// and how fetched values become observed values. Use the ones of
/// ``ValueReducers``: custom reducers are not supported.
public protocol _ValueReducer: Sendable {
    /// What a fetch returns.
    associatedtype Fetched: Sendable

    /// What the observation notifies, once a fetched value is reduced.
    associatedtype Value: Sendable

    /// Fetches from the database. Runs on a database queue.
    func _fetch(_ db: Database) throws -> Fetched

    /// Turns a fetched value into an observed value, or nil to skip it
    /// (a duplicate). Runs off the database queue.
    mutating func _value(_ fetched: Fetched) throws -> Value?
}

/// The engine of a ``ValueObservation``. See ``ValueReducers``.
public protocol ValueReducer: _ValueReducer {}

/// The value reducers of ``ValueObservation``.
public enum ValueReducers {
    /// Observes the values of a fetch closure.
    public struct Fetch<Value: Sendable>: ValueReducer {
        let fetch: @Sendable (Database) throws -> Value

        /// Runs the fetch closure.
        public func _fetch(_ db: Database) throws -> Value {
            try fetch(db)
        }

        /// Returns the fetched value unchanged: each fetch is notified. Called by the observation;
        /// apps do not call it.
        public mutating func _value(_ fetched: Value) throws -> Value? {
            fetched
        }
    }

    /// Transforms the values of another reducer (``ValueObservation/map(_:)``).
    public struct Map<Base: _ValueReducer, Value: Sendable>: ValueReducer {
        var base: Base
        let transform: @Sendable (Base.Value) throws -> Value

        /// Fetches with the base reducer.
        public func _fetch(_ db: Database) throws -> Base.Fetched {
            try base._fetch(db)
        }

        /// The transformed value of the base reducer.
        public mutating func _value(_ fetched: Base.Fetched) throws -> Value? {
            guard let value = try base._value(fetched) else { return nil }
            return try transform(value)
        }
    }

    /// Skips the values of another reducer that equal the previous one
    /// (``ValueObservation/removeDuplicates()``).
    public struct RemoveDuplicates<Base: ValueReducer>: ValueReducer {
        var base: Base
        let predicate: @Sendable (Base.Value, Base.Value) -> Bool
        var previousValue: Base.Value?

        /// Fetches with the base reducer.
        public func _fetch(_ db: Database) throws -> Base.Fetched {
            try base._fetch(db)
        }

        /// The value of the base reducer, or nil when it is a duplicate.
        public mutating func _value(_ fetched: Base.Fetched) throws -> Base.Value? {
            guard let value = try base._value(fetched) else { return nil }
            if let previousValue, predicate(previousValue, value) { return nil }
            previousValue = value
            return value
        }
    }

    /// Forwards to another reducer; the observation logs its events
    /// (``ValueObservation/print(_:to:)``).
    public struct Trace<Base: ValueReducer>: ValueReducer {
        var base: Base

        /// Fetches with the base reducer.
        public func _fetch(_ db: Database) throws -> Base.Fetched {
            try base._fetch(db)
        }

        /// Passes the fetched value to the base reducer, and returns its value unchanged. Called by
        /// the observation; apps do not call it.
        public mutating func _value(_ fetched: Base.Fetched) throws -> Base.Value? {
            try base._value(fetched)
        }
    }
}
