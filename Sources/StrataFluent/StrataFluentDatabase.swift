#if Fluent
    import FluentKit
    import FluentSQL
    import Logging
    import NIOCore
    import SQLKit
    import Strata
    import StrataSQLKit

    /// A Fluent database on a Strata queue or pool, and the SQLKit database
    /// of the same connections (`database as? any SQLDatabase`).
    ///
    /// Queries and schemas become SQL through FluentSQL's converters and
    /// run through ``StrataSQLDatabase``: reads on a pool's readers,
    /// writes on its writer, rows delivered on the context's event loop. A
    /// transaction holds the writer's connection (a session) from `BEGIN`
    /// to `COMMIT` or `ROLLBACK`; transactions inside it join it.
    struct StrataFluentDatabase: FluentKit.Database, SQLDatabase {
        let context: DatabaseContext
        let inTransaction: Bool
        /// The SQLKit database the statements run on, or the error that
        /// kept the pool from opening.
        let sql: Result<StrataSQLDatabase, any Error>

        init(
            writer: Result<any DatabaseWriter, any Error>, context: DatabaseContext,
            dataEncoder: StrataSQLDataEncoder, dataDecoder: StrataSQLDataDecoder, sqlLogLevel: Logger.Level?
        ) {
            self.context = context
            inTransaction = false
            sql = writer.map {
                $0.sqlDatabase(
                    logger: context.logger, on: context.eventLoop, encoder: dataEncoder, decoder: dataDecoder,
                    queryLogLevel: sqlLogLevel)
            }
        }

        private init(context: DatabaseContext, inTransaction: Bool, sql: StrataSQLDatabase) {
            self.context = context
            self.inTransaction = inTransaction
            self.sql = .success(sql)
        }

        // MARK: - Fluent

        func execute(
            query: DatabaseQuery, onOutput: @escaping @Sendable (any DatabaseOutput) -> Void
        ) -> EventLoopFuture<Void> {
            var expression = SQLQueryConverter(delegate: StrataSQLiteConverterDelegate()).convert(query)
            // The id of a new row comes back from the insert itself (not
            // for models without a queryable id, whose key is empty).
            if case .create = query.action, query.customIDKey != .string("") {
                let idKey = query.customIDKey ?? .id
                expression = SQLKit.SQLList(
                    [expression, SQLReturning(.init(idKey.description))], separator: SQLRaw(" "))
            }
            return execute(sql: expression) { row in onOutput(SQLRowOutput(row: row)) }
        }

        func execute(schema: DatabaseSchema) -> EventLoopFuture<Void> {
            let statements: [DatabaseSchema]
            do {
                statements = try SQLiteSchemaChanges.statements(for: schema)
            } catch {
                return eventLoop.makeFailedFuture(error)
            }
            // One statement after the other.
            return statements.reduce(eventLoop.makeSucceededVoidFuture()) { previous, schema in
                previous.flatMap {
                    let statement = SQLSchemaConverter(delegate: StrataSQLiteConverterDelegate()).convert(schema)
                    return self.execute(sql: statement) { _ in
                        self.logger.debug("Unexpected row returned from schema query")
                    }
                }
            }
        }

        /// SQLite has no enum type: Fluent stores enums as text, and keeps
        /// their cases in its own table.
        func execute(enum: DatabaseEnum) -> EventLoopFuture<Void> {
            eventLoop.makeSucceededVoidFuture()
        }

        func transaction<T>(
            _ closure: @escaping @Sendable (any FluentKit.Database) -> EventLoopFuture<T>
        ) -> EventLoopFuture<T> {
            if inTransaction { return closure(self) }
            let sql: StrataSQLDatabase
            switch self.sql {
            case .success(let database): sql = database
            case .failure(let error): return eventLoop.makeFailedFuture(error)
            }
            let context = context
            let result = sql.withWriterSession { session in
                let database = StrataFluentDatabase(context: context, inTransaction: true, sql: session)
                return session.raw("BEGIN TRANSACTION").run()
                    .flatMap { closure(database).map { Handover($0) } }
                    .flatMap { value in session.raw("COMMIT TRANSACTION").run().map { value } }
                    .flatMapError { error in
                        // The transaction may be gone already (a failed
                        // COMMIT): the error to report is the first one.
                        session.raw("ROLLBACK TRANSACTION").run().flatMapErrorThrowing { _ in throw error }
                            .flatMapThrowing { throw error }
                    }
            }
            // The value goes from the session's future to Fluent's on the
            // event loop, where a promise takes values of any type.
            let promise = eventLoop.makePromise(of: T.self)
            result.hop(to: eventLoop).whenComplete { result in
                switch result {
                case .success(let handover): promise.assumeIsolated().succeed(handover.value)
                case .failure(let error): promise.fail(error)
                }
            }
            return promise.futureResult
        }

        /// The same database: Strata's connections are the queue's or the
        /// pool's, and each statement goes where it belongs.
        func withConnection<T>(
            _ closure: @escaping @Sendable (any FluentKit.Database) -> EventLoopFuture<T>
        ) -> EventLoopFuture<T> {
            closure(self)
        }

        // MARK: - SQLKit

        var dialect: any SQLDialect { StrataSQLiteDialect() }

        var version: (any SQLDatabaseReportedVersion)? { StrataSQLiteVersion.runtime }

        var queryLogLevel: Logger.Level? { (try? sql.get())?.queryLogLevel }

        func execute(
            sql query: any SQLKit.SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void
        ) -> EventLoopFuture<Void> {
            switch sql {
            case .success(let database): database.execute(sql: query, onRow)
            case .failure(let error): eventLoop.makeFailedFuture(error)
            }
        }

        func execute(
            sql query: any SQLKit.SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void
        ) async throws {
            try await sql.get().execute(sql: query, onRow)
        }

        func withSession<R>(
            _ closure: @escaping @Sendable (any SQLDatabase) async throws -> R
        ) async throws -> R {
            try await sql.get().withSession(closure)
        }
    }
#endif
