#if Fluent
    import FluentKit
    import Foundation
    import Logging
    #if Logging
        import InMemoryLogging
    #endif
    import NIOCore
    import NIOPosix
    import SQLKit
    import Strata
    import StrataFluent
    import StrataSQLKit
    import StrataTestSupport
    import Testing

    /// Fluent databases with one Strata database, the default, on a file of
    /// `directory`; shut down by `shutdown()`.
    struct FluentFixture {
        let databases: Databases
        let database: any FluentKit.Database

        init(
            _ directory: TemporaryDirectory, configuration: Strata.Configuration = Strata.Configuration(),
            dataEncoder: StrataSQLDataEncoder = StrataSQLDataEncoder(),
            dataDecoder: StrataSQLDataDecoder = StrataSQLDataDecoder(),
            path: String? = nil
        ) {
            databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
            databases.use(
                .strata(
                    path: path ?? directory.path("db.sqlite"), configuration: configuration, dataEncoder: dataEncoder,
                    dataDecoder: dataDecoder),
                as: .sqlite)
            var logger = Logger(label: "StrataFluentTests")
            logger.logLevel = .warning
            database = databases.database(logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())!
        }

        func shutdown() async {
            await databases.shutdownAsync()
        }
    }

    /// Runs `body` with the default database of a ``FluentFixture`` on a
    /// new directory, and shuts the databases down after it.
    func withFluentDatabase(
        configuration: Strata.Configuration = Strata.Configuration(),
        dataEncoder: StrataSQLDataEncoder = StrataSQLDataEncoder(),
        dataDecoder: StrataSQLDataDecoder = StrataSQLDataDecoder(),
        path: ((TemporaryDirectory) -> String)? = nil,
        _ body: (any FluentKit.Database) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let fixture = FluentFixture(
            directory, configuration: configuration, dataEncoder: dataEncoder, dataDecoder: dataDecoder,
            path: path?(directory))
        do {
            try await body(fixture.database)
        } catch {
            await fixture.shutdown()
            throw error
        }
        await fixture.shutdown()
    }

    /// A `users` table: id, email and password.
    func createUsers(_ database: any FluentKit.Database, uniqueEmail: Bool) async throws {
        var schema = database.schema("users").id().field("email", .string, .required)
            .field("password", .string, .required)
        if uniqueEmail { schema = schema.unique(on: "email") }
        try await schema.create()
    }

    struct Metadata: Codable, Sendable {
        let createdAt: Date
    }

    final class Event: Model, @unchecked Sendable {
        static let schema = "events"
        @ID(custom: "id", generatedBy: .database) var id: Int?
        @Field(key: "metadata") var metadata: Metadata

        init() {}

        init(id: Int, metadata: Metadata) {
            self.id = id
            self.metadata = metadata
        }
    }

    /// The same rows as ``Event``, with the metadata read as strings.
    final class EventStrings: Model, @unchecked Sendable {
        static let schema = "events"
        @ID(custom: "id", generatedBy: .database) var id: Int?
        @Field(key: "metadata") var metadata: [String: String]

        init() {}
    }

    final class Item: Model, @unchecked Sendable {
        static let schema = "items"
        @ID(custom: "id") var id: Int?
        @Field(key: "name") var name: String

        init() {}

        init(name: String) {
            self.name = name
        }
    }

    func createItems(_ database: any FluentKit.Database) async throws {
        try await database.schema("items").field("id", .int, .identifier(auto: true))
            .field("name", .string, .required).create()
    }

    @Suite("StrataFluent: the driver")
    struct StrataFluentDriverTests {
        @Test("Errors answer Fluent's questions: syntax, constraint, connection")
        func errors() async throws {
            try await withFluentDatabase { database in
                let sql = try #require(database as? any SQLDatabase)
                let syntax = try await #require(throws: (any Error).self) { try await sql.raw("asdf").run() }
                let syntaxError = try #require(syntax as? any FluentKit.DatabaseError)
                #expect(syntaxError.isSyntaxError && !syntaxError.isConstraintFailure)
                #expect(!syntaxError.isConnectionClosed)
                try await database.schema("foo").field("name", .string).unique(on: "name").create()
                try await sql.raw("INSERT INTO foo (name) VALUES ('bar')").run()
                let constraint = try await #require(throws: (any Error).self) {
                    try await sql.raw("INSERT INTO foo (name) VALUES ('bar')").run()
                }
                let constraintError = try #require(constraint as? any FluentKit.DatabaseError)
                #expect(constraintError.isConstraintFailure && !constraintError.isSyntaxError)
                #expect(!constraintError.isConnectionClosed)
            }
        }

        @Test("A schema change SQLite cannot make in place throws, and changes nothing")
        func unsupportedAlter() async throws {
            try await withFluentDatabase { database in
                try await createUsers(database, uniqueEmail: true)
                let addUnique = try await #require(throws: (any Error).self) {
                    try await database.schema("users").field("apple_id", .string).unique(on: "apple_id").update()
                }
                #expect(String(describing: addUnique).contains("adding columns"))
                let deleteUnique = try await #require(throws: (any Error).self) {
                    try await database.schema("users").deleteUnique(on: "apple_id").update()
                }
                #expect(String(describing: deleteUnique).contains("adding columns"))
                let columns = try await database.strataWriter!.read { db in try db.columns(in: "users").map(\.name) }
                #expect(columns == ["id", "email", "password"])
                try await database.schema("users").delete()
            }
        }

        @Test("Columns are added and dropped, several in one update, one statement each")
        func addAndDropColumns() async throws {
            try await withFluentDatabase { database in
                try await createUsers(database, uniqueEmail: false)
                try await database.schema("users").deleteField("password").update()
                try await database.schema("users").field("password", .string, .required).update()
                try await database.schema("users").field("a", .int).field("b", .string).deleteField("email").update()
                let columns = try await database.strataWriter!.read { db in try db.columns(in: "users").map(\.name) }
                #expect(columns == ["id", "password", "a", "b"])
                try await database.schema("users").delete()
            }
        }

        @Test("Nested values are JSON text, written and read by the configured coders")
        func customJSON() async throws {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            try await withFluentDatabase(
                dataEncoder: StrataSQLDataEncoder(json: encoder), dataDecoder: StrataSQLDataDecoder(json: decoder)
            ) { database in
                try await database.schema("events").field("id", .int, .identifier(auto: false))
                    .field("metadata", .json, .required).create()
                let date = Date(timeIntervalSince1970: 1_700_000_000)
                try await Event(id: 1, metadata: Metadata(createdAt: date)).create(on: database)
                let strings = try #require(try await EventStrings.query(on: database).first())
                #expect(strings.metadata["createdAt"] == ISO8601DateFormatter().string(from: date))
                let event = try #require(try await Event.find(1, on: database))
                #expect(event.metadata.createdAt == date)
            }
        }

        @Test("Rows reach Fluent on the context's event loop; no statement runs on an event loop")
        func eventLoops() async throws {
            var configuration = Strata.Configuration()
            configuration.prepareDatabase { db in
                db.add(
                    function: DatabaseFunction("on_event_loop", argumentCount: 0, pure: false) { _ in
                        MultiThreadedEventLoopGroup.currentEventLoop != nil
                    })
            }
            try await withFluentDatabase(configuration: configuration) { database in
                try await createItems(database)
                try await database.strataWriter!.write { db in
                    try db.execute(
                        sql: """
                            CREATE TRIGGER check_loop BEFORE INSERT ON items WHEN on_event_loop()
                            BEGIN SELECT RAISE(ABORT, 'on an event loop'); END
                            """)
                }
                try await Item(name: "a").create(on: database)
                let seen = Waitable<[Bool]>([])
                try await database.execute(
                    query: Item.query(on: database).fields(for: Item.self).query,
                    onOutput: { [eventLoop = database.eventLoop] _ in seen.update { $0.append(eventLoop.inEventLoop) } }
                ).get()
                #expect(seen.value == [true])
            }
        }

        @Test(
            "A transaction rolls back on error, joins nested transactions, and keeps other writes out",
            .timeLimit(.minutes(1)))
        func transactions() async throws {
            try await withFluentDatabase { database in
                try await createItems(database)
                struct Failure: Error {}
                await #expect(throws: Failure.self) {
                    try await database.transaction { transaction in
                        try await Item(name: "rolled back").create(on: transaction)
                        throw Failure()
                    }
                }
                #expect(try await Item.query(on: database).count() == 0)
                let outsideSent = Waitable(false)
                let outside = try await database.transaction { transaction in
                    #expect(transaction.inTransaction)
                    try await Item(name: "first").create(on: transaction)
                    let outside = Task {
                        outsideSent.update { $0 = true }
                        try await Item(name: "outside").create(on: database)
                    }
                    try await outsideSent.wait("outside write sent") { $0 }
                    try await transaction.transaction { nested in
                        #expect(nested.inTransaction)
                        try await Item(name: "second").create(on: nested)
                    }
                    // The outside write waits for the commit.
                    #expect(try await Item.query(on: transaction).count() == 2)
                    return outside
                }
                try await outside.value
                let names = try await Item.query(on: database).sort(\.$id).all().map(\.name)
                #expect(names == ["first", "second", "outside"])
            }
        }

        @Test("Strata underneath: the pool, and observations of Fluent's writes")
        func strataUnderneath() async throws {
            try await withFluentDatabase { database in
                try await createItems(database)
                let writer = try #require(database.strataWriter)
                #expect(writer is DatabasePool)
                #expect((database as? any SQLDatabase)?.strataWriter === writer)
                let values = ObservedValues<Int>()
                let cancellable = ValueObservation.tracking { db in
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items")!
                }.start(in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: values)
                await values.waitForValues(1)
                try await Item(name: "observed").create(on: database)
                #expect(await values.wait { $0.last == 1 })
                withExtendedLifetime(cancellable) {}
            }
        }

        @Test("A pool that cannot open: each query fails with its error")
        func unopenablePool() async throws {
            try await withFluentDatabase(path: { $0.path("missing/folder/db.sqlite") }) { database in
                #expect(database.strataWriter == nil)
                let error = try await #require(throws: Strata.DatabaseError.self) {
                    try await Item.query(on: database).all()
                }
                #expect(error.resultCode == .SQLITE_CANTOPEN)
                #expect((error as any FluentKit.DatabaseError).isConnectionClosed)
            }
        }

        #if Logging
            @Test("Fluent's statements are logged by Strata's Logging integration")
            func logging() async throws {
                let handler = InMemoryLogHandler()
                var configuration = Strata.Configuration()
                configuration.logger = Logger(label: "strata") { _ in
                    var handler = handler
                    handler.logLevel = .trace
                    return handler
                }
                try await withFluentDatabase(configuration: configuration) { database in
                    try await createItems(database)
                    try await Item(name: "logged").create(on: database)
                    _ = try await Item.query(on: database).all()
                }
                let statements = handler.entries.filter { $0.level == .trace }.map { "\($0.message)" }
                #expect(statements.contains { $0.hasPrefix("INSERT INTO \"items\"") })
                #expect(statements.contains { $0.hasPrefix("SELECT \"items\".\"id\" AS \"items_id\"") })
            }
        #endif
    }
#endif
