// The Combine publishers. They exist where Apple's Combine does, and, with
// the package trait `OpenCombine`, on systems without Combine (Linux),
// built on OpenCombine, which has the same API.
#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
    import OpenCombineDispatch
#endif

#if canImport(Combine) || OpenCombine

    /// The namespace of the Combine publishers of database accesses and
    /// observations.
    ///
    /// ```swift
    /// let cancellable = dbQueue
    ///     .readPublisher { db in try Player.fetchCount(db) }
    ///     .sink { completion in ... } receiveValue: { count in ... }
    /// ```
    public enum DatabasePublishers {}

    /// A value that crosses threads inside the publishers: Combine marks
    /// neither its promises nor its subscribers `Sendable`, while each of them
    /// is used by one thread at a time here.
    struct UncheckedSendable<Value>: @unchecked Sendable {
        let value: Value

        init(_ value: Value) {
            self.value = value
        }
    }

    extension DatabasePublishers {
        /// A publisher that starts one asynchronous database access per
        /// subscription, at the subscriber's first demand, and delivers its
        /// result (one value then completion, or a failure) on `scheduler`.
        static func access<Output>(
            receiveOn scheduler: some Scheduler,
            _ start: @escaping Access<Output>.Start
        ) -> AnyPublisher<Output, any Error> {
            Access(start: start)
                .receive(on: scheduler)
                .eraseToAnyPublisher()
        }
    }

#endif
