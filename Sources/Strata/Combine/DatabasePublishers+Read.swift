#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
    import OpenCombineDispatch
#endif
import Dispatch

#if canImport(Combine) || OpenCombine

    extension DatabasePublishers {
        /// The publisher of ``DatabaseReader/readPublisher(receiveOn:value:)``:
        /// one read per subscription, then one value and completion, or a
        /// failure.
        public struct Read<Output>: Publisher {
            /// Database accesses fail with any error.
            public typealias Failure = any Error

            let upstream: AnyPublisher<Output, any Error>

            /// Starts a read for `subscriber`.
            public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
                upstream.receive(subscriber: subscriber)
            }
        }
    }

    extension DatabaseReader {
        /// A publisher that reads a value from the database. Nothing is read
        /// until a subscriber asks for a value, and each subscription reads once,
        /// in a read-only access that does not block the subscribing thread. The
        /// value, or the error, is delivered on `scheduler`, the main queue by
        /// default.
        ///
        /// ```swift
        /// let playerCountPublisher = dbQueue.readPublisher { db in
        ///     try Player.fetchCount(db)
        /// }
        /// ```
        public func readPublisher<Output>(
            receiveOn scheduler: some Scheduler = DispatchQueue.main,
            value: @escaping @Sendable (Database) throws -> Output
        ) -> DatabasePublishers.Read<Output> {
            let upstream = DatabasePublishers.access(receiveOn: scheduler) { [self] completion in
                asyncRead { dbResult in
                    completion(Result { try value(dbResult.get()) })
                }
            }
            return DatabasePublishers.Read(upstream: upstream)
        }
    }

#endif
