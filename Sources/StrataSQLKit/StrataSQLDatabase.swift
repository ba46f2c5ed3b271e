#if SQLKit
    import Logging
    import NIOCore
    import SQLKit
    import Strata

    /// An SQLKit database over a Strata queue or pool.
    ///
    /// On a pool, the statements that read (`SELECT`, `WITH`, `VALUES`
    /// that SQLite reports as read-only) run on a reader, the others on the
    /// writer; on a queue, all run on its connection. Database work never
    /// runs on an event loop: the future-returning `execute` hands the rows
    /// to `onRow` on ``eventLoop`` once the statement has run, and the
    /// `async` one hands them on the caller's task. Statements are cached
    /// by the connections that run them. Errors are Strata's
    /// `DatabaseError`s, with SQLite's code and message.
    public struct StrataSQLDatabase: SQLDatabase {
        /// The queue or pool the statements run in: Strata's own API on
        /// the same database (observations, statistics, replicas...).
        public let writer: any DatabaseWriter
        /// Where the statements are logged, at ``queryLogLevel``.
        public let logger: Logger
        /// The event loop of the futures and of their rows.
        public let eventLoop: any EventLoop
        /// How the values of SQLKit's binds become SQLite values.
        public let encoder: StrataSQLDataEncoder
        /// How the rows' values are read.
        public let decoder: StrataSQLDataDecoder
        /// The level of the statements' log lines; nil logs none.
        public let queryLogLevel: Logger.Level?
        /// The writer's connection, lent for a session (`withSession`).
        private var session: WriterSession?

        /// An SQLKit database over `writer`, whose futures complete on
        /// `eventLoop`.
        public init(
            _ writer: any DatabaseWriter,
            logger: Logger,
            on eventLoop: any EventLoop,
            encoder: StrataSQLDataEncoder = StrataSQLDataEncoder(),
            decoder: StrataSQLDataDecoder = StrataSQLDataDecoder(),
            queryLogLevel: Logger.Level? = .debug
        ) {
            self.writer = writer
            self.logger = logger
            self.eventLoop = eventLoop
            self.encoder = encoder
            self.decoder = decoder
            self.queryLogLevel = queryLogLevel
        }

        /// SQLite, as Strata runs it.
        public var dialect: any SQLDialect { StrataSQLiteDialect() }

        /// The version of the SQLite library of the process.
        public var version: (any SQLDatabaseReportedVersion)? { StrataSQLiteVersion.runtime }

        /// Runs `query`, and hands its rows to `onRow` on ``eventLoop``.
        public func execute(
            sql query: any SQLKit.SQLExpression,
            _ onRow: @escaping @Sendable (any SQLRow) -> Void
        ) -> EventLoopFuture<Void> {
            let promise = eventLoop.makePromise(of: Void.self)
            run(query) { [eventLoop] result in
                switch result {
                case .success(let rows):
                    eventLoop.execute {
                        for row in rows { onRow(row) }
                        promise.succeed(())
                    }
                case .failure(let error):
                    promise.fail(error)
                }
            }
            return promise.futureResult
        }

        /// Runs `query`, and hands its rows to `onRow`.
        public func execute(
            sql query: any SQLKit.SQLExpression,
            _ onRow: @escaping @Sendable (any SQLRow) -> Void
        ) async throws {
            let rows = try await withCheckedThrowingContinuation { continuation in
                run(query) { continuation.resume(with: $0) }
            }
            for row in rows { onRow(row) }
        }

        /// Runs `closure` with a database whose statements all run on the
        /// writer's connection, one after the other, with no other write in
        /// between: a transaction can span them (`BEGIN`, then statements,
        /// then `COMMIT`; one left open at the end is rolled back).
        ///
        /// Meanwhile the other writes of the database wait: inside
        /// `closure`, write through its database only (a write of the
        /// queue or pool itself would wait for the session forever).
        /// Sessions don't nest: in a session, `withSession` gives the same
        /// connection.
        public func withSession<R>(
            _ closure: @escaping @Sendable (any SQLDatabase) async throws -> R
        ) async throws -> R {
            if session != nil { return try await closure(self) }
            let session = WriterSession(writer)
            defer { session.finish() }
            var database = self
            database.session = session
            return try await closure(database)
        }

        /// Like ``withSession(_:)``, for code written with futures: the
        /// session ends once the future that `body` returns completes.
        public func withWriterSession<T>(
            _ body: @escaping @Sendable (StrataSQLDatabase) -> EventLoopFuture<T>
        ) -> EventLoopFuture<T> {
            if session != nil { return body(self) }
            let session = WriterSession(writer)
            var database = self
            database.session = session
            let future = body(database)
            future.whenComplete { _ in session.finish() }
            return future
        }

        /// Whether the statements run in a session (``withSession(_:)``).
        public var isInSession: Bool { session != nil }

        /// Serializes `query`, runs it where it belongs, and calls
        /// `completion` with its rows.
        private func run(
            _ query: any SQLKit.SQLExpression,
            completion: @escaping @Sendable (Result<[StrataSQLRow], any Error>) -> Void
        ) {
            let (sql, binds) = serialize(query)
            if let queryLogLevel {
                logger.log(
                    level: queryLogLevel, "Executing query",
                    metadata: [
                        "sql": Logger.MetadataValue.string(sql), "binds": .array(binds.map { .string("\($0)") }),
                    ])
            }
            let arguments: StatementArguments
            do {
                arguments = StatementArguments(try binds.map { try encoder.encode($0) })
            } catch {
                completion(.failure(error))
                return
            }
            let statement = SQLStatementRun(sql: sql, arguments: arguments, decoder: decoder)
            if let session {
                session.run { result in completion(Result { try statement.rows(result.get()) }) }
                return
            }
            guard writer is DatabasePool, statement.mayRead else {
                writer.asyncWriteWithoutTransaction { db in completion(Result { try statement.rows(db) }) }
                return
            }
            // One statement reads a consistent state of its own: no transaction
            // around it (BEGIN and COMMIT would cost more than a point query).
            writer.asyncUnsafeRead { [writer] result in
                do {
                    let db = try result.get()
                    guard let rows = try statement.rowsIfReadOnly(db) else {
                        // A statement that writes: the writer runs it.
                        writer.asyncWriteWithoutTransaction { db in completion(Result { try statement.rows(db) }) }
                        return
                    }
                    completion(.success(rows))
                } catch {
                    completion(.failure(error))
                }
            }
        }
    }

    extension DatabaseWriter {
        /// An SQLKit database over this queue or pool, whose futures
        /// complete on `eventLoop`, and whose statements are logged by
        /// `logger`.
        public func sqlDatabase(
            logger: Logger = Logger(label: "Strata.SQLKit"),
            on eventLoop: any EventLoop,
            encoder: StrataSQLDataEncoder = StrataSQLDataEncoder(),
            decoder: StrataSQLDataDecoder = StrataSQLDataDecoder(),
            queryLogLevel: Logger.Level? = .debug
        ) -> StrataSQLDatabase {
            StrataSQLDatabase(
                self, logger: logger, on: eventLoop, encoder: encoder, decoder: decoder, queryLogLevel: queryLogLevel)
        }
    }
#endif
