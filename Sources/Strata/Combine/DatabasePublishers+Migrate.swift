#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
    import OpenCombineDispatch
#endif
import Dispatch

#if canImport(Combine) || OpenCombine

    extension DatabasePublishers {
        /// The publisher of ``DatabaseMigrator/migratePublisher(_:receiveOn:)``:
        /// one migration per subscription, then one `Void` value and
        /// completion, or a failure.
        public struct Migrate: Publisher {
            /// A migration publishes nothing but its end.
            public typealias Output = Void
            /// Migrations fail with any error.
            public typealias Failure = any Error

            let upstream: AnyPublisher<Void, any Error>

            /// Starts a migration for `subscriber`.
            public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == any Error {
                upstream.receive(subscriber: subscriber)
            }
        }
    }

    extension DatabaseMigrator {
        /// A publisher that runs the unapplied migrations, as
        /// ``asyncMigrate(_:completion:)`` does. Nothing runs until a
        /// subscriber asks for a value, and each subscription migrates once. The
        /// end of the migration, or its error, is delivered on `scheduler`, the
        /// main queue by default.
        ///
        /// ```swift
        /// let cancellable = migrator.migratePublisher(dbQueue).sink { completion in
        ///     // Handle completion
        /// } receiveValue: { }
        /// ```
        public func migratePublisher(
            _ writer: any DatabaseWriter,
            receiveOn scheduler: some Scheduler = DispatchQueue.main
        ) -> DatabasePublishers.Migrate {
            let migrator = self
            let upstream = DatabasePublishers.access(receiveOn: scheduler) {
                (completion: @escaping @Sendable (Result<Void, any Error>) -> Void) in
                migrator.asyncMigrate(writer) { result in
                    completion(result.map { _ in })
                }
            }
            return DatabasePublishers.Migrate(upstream: upstream)
        }
    }

#endif
