#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
    import OpenCombineDispatch
#endif
import Dispatch

#if canImport(Combine) || OpenCombine

    extension DatabasePublishers {
        /// The publisher of ``DatabaseWriter/writePublisher(receiveOn:updates:)``
        /// and ``DatabaseWriter/writePublisher(receiveOn:updates:thenRead:)``:
        /// one write per subscription, then one value and completion, or a
        /// failure.
        public struct Write<Output>: Publisher {
            /// Database accesses fail with any error.
            public typealias Failure = any Error

            let upstream: AnyPublisher<Output, any Error>

            /// Starts a write for `subscriber`.
            public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
                upstream.receive(subscriber: subscriber)
            }
        }
    }

    extension DatabaseWriter {
        /// A publisher that writes in the database, in a transaction that
        /// commits when `updates` return and rolls back when they throw. Nothing
        /// is written until a subscriber asks for a value, and each subscription
        /// writes once, without blocking the subscribing thread. The value of
        /// `updates`, or the error, is delivered on `scheduler`, the main queue
        /// by default.
        ///
        /// ```swift
        /// let newPlayerCountPublisher = dbQueue.writePublisher { db -> Int in
        ///     try Player(name: "Arthur").insert(db)
        ///     return try Player.fetchCount(db)
        /// }
        /// ```
        public func writePublisher<Output>(
            receiveOn scheduler: some Scheduler = DispatchQueue.main,
            updates: @escaping @Sendable (Database) throws -> Output
        ) -> DatabasePublishers.Write<Output> {
            let upstream = DatabasePublishers.access(receiveOn: scheduler) { [self] completion in
                asyncWrite(updates) { _, result in
                    completion(result)
                }
            }
            return DatabasePublishers.Write(upstream: upstream)
        }

        /// A publisher that writes in the database, in a transaction, then
        /// reads from the database as the transaction left it, and publishes
        /// what `value` returns. With a ``DatabasePool``, the read runs on a
        /// reader and does not block other writes. Nothing is written until a
        /// subscriber asks for a value, and each subscription writes and reads once.
        /// The value, or the error, is delivered on `scheduler`, the main queue
        /// by default.
        ///
        /// ```swift
        /// let newPlayerCountPublisher = dbPool.writePublisher { db in
        ///     try Player(name: "Arthur").insert(db)
        /// } thenRead: { db, _ in
        ///     try Player.fetchCount(db)
        /// }
        /// ```
        public func writePublisher<T, Output>(
            receiveOn scheduler: some Scheduler = DispatchQueue.main,
            updates: @escaping @Sendable (Database) throws -> T,
            thenRead value: @escaping @Sendable (Database, T) throws -> Output
        ) -> DatabasePublishers.Write<Output> {
            let upstream = DatabasePublishers.access(receiveOn: scheduler) { [self] completion in
                asyncWriteWithoutTransaction { db in
                    let updated = Result {
                        try db.checkNotClosed()
                        return try UncheckedSendable(db.inWriteTransaction { try updates(db) })
                    }
                    switch updated {
                    case .success(let updated):
                        // Outside of any transaction, on the writer queue: the
                        // read sees the committed transaction.
                        self.spawnConcurrentRead { dbResult in
                            completion(Result { try value(dbResult.get(), updated.value) })
                        }
                    case .failure(let error):
                        completion(.failure(error))
                    }
                }
            }
            return DatabasePublishers.Write(upstream: upstream)
        }
    }

#endif
