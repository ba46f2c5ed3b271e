#if Fluent
    import FluentKit
    import Foundation
    import Logging
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
            let directory = try TemporaryDirectory()
            let fixture = FluentFixture(directory)
            defer { Task { await fixture.shutdown() } }
            let sql = try #require(fixture.database as? any SQLDatabase)
            let syntax = try await #require(throws: (any Error).self) { try await sql.raw("asdf").run() }
            let syntaxError = try #require(syntax as? any FluentKit.DatabaseError)
            #expect(syntaxError.isSyntaxError && !syntaxError.isConstraintFailure && !syntaxError.isConnectionClosed)
            try await fixture.database.schema("foo").field("name", .string).unique(on: "name").create()
            try await sql.raw("INSERT INTO foo (name) VALUES ('bar')").run()
            let constraint = try await #require(throws: (any Error).self) {
                try await sql.raw("INSERT INTO foo (name) VALUES ('bar')").run()
            }
            let constraintError = try #require(constraint as? any FluentKit.DatabaseError)
            #expect(constraintError.isConstraintFailure && !constraintError.isSyntaxError)
            #expect(!constraintError.isConnectionClosed)
        }

        @Test("A schema change SQLite cannot make in place throws, and changes nothing")
        func unsupportedAlter() async throws {
            let directory = try TemporaryDirectory()
            let fixture = FluentFixture(directory)
            defer { Task { await fixture.shutdown() } }
            let database = fixture.database
            try await database.schema("users").id().field("email", .string, .required)
                .field("password", .string, .required).unique(on: "email").create()
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

        @Test("Columns are added and dropped, several in one update, one statement each")
        func addAndDropColumns() async throws {
            let directory = try TemporaryDirectory()
            let fixture = FluentFixture(directory)
            defer { Task { await fixture.shutdown() } }
            let database = fixture.database
            try await database.schema("users").id().field("email", .string, .required)
                .field("password", .string, .required).create()
            try await database.schema("users").deleteField("password").update()
            try await database.schema("users").field("password", .string, .required).update()
            try await database.schema("users").field("a", .int).field("b", .string).deleteField("email").update()
            let columns = try await database.strataWriter!.read { db in try db.columns(in: "users").map(\.name) }
            #expect(columns == ["id", "password", "a", "b"])
            try await database.schema("users").delete()
        }

        @Test("Nested values are JSON text, written and read by the configured coders")
        func customJSON() async throws {
            let directory = try TemporaryDirectory()
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let fixture = FluentFixture(
                directory, dataEncoder: StrataSQLDataEncoder(json: encoder),
                dataDecoder: StrataSQLDataDecoder(json: decoder))
            defer { Task { await fixture.shutdown() } }
            let database = fixture.database
            try await database.schema("events").field("id", .int, .identifier(auto: false))
                .field("metadata", .json, .required).create()
            let date = Date(timeIntervalSince1970: 1_700_000_000)
            try await Event(id: 1, metadata: Metadata(createdAt: date)).create(on: database)
            let strings = try #require(try await EventStrings.query(on: database).first())
            #expect(strings.metadata["createdAt"] == ISO8601DateFormatter().string(from: date))
            let event = try #require(try await Event.find(1, on: database))
            #expect(event.metadata.createdAt == date)
        }

        @Test("Rows reach Fluent on the context's event loop; no statement runs on an event loop")
        func eventLoops() async throws {
            let directory = try TemporaryDirectory()
            var configuration = Strata.Configuration()
            configuration.prepareDatabase { db in
                db.add(
                    function: DatabaseFunction("on_event_loop", argumentCount: 0, pure: false) { _ in
                        MultiThreadedEventLoopGroup.currentEventLoop != nil
                    })
            }
            let fixture = FluentFixture(directory, configuration: configuration)
            defer { Task { await fixture.shutdown() } }
            let database = fixture.database
            try await database.schema("items").field("id", .int, .identifier(auto: true))
                .field("name", .string, .required).create()
            try await database.strataWriter!.write { db in
                try db.execute(
                    sql:
                        "CREATE TRIGGER check_loop BEFORE INSERT ON items WHEN on_event_loop() BEGIN SELECT RAISE(ABORT, 'on an event loop'); END"
                )
            }
            try await Item(name: "a").create(on: database)
            let seen = Waitable<[Bool]>([])
            try await database.execute(
                query: Item.query(on: database).fields(for: Item.self).query,
                onOutput: { [eventLoop = database.eventLoop] _ in seen.update { $0.append(eventLoop.inEventLoop) } }
            ).get()
            #expect(seen.value == [true])
        }

        @Test("A transaction rolls back on error, joins nested transactions, and keeps other writes out")
        func transactions() async throws {
            let directory = try TemporaryDirectory()
            let fixture = FluentFixture(directory)
            defer { Task { await fixture.shutdown() } }
            let database = fixture.database
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

        @Test("Strata underneath: the pool, and observations of Fluent's writes")
        func strataUnderneath() async throws {
            let directory = try TemporaryDirectory()
            let fixture = FluentFixture(directory)
            defer { Task { await fixture.shutdown() } }
            let database = fixture.database
            try await createItems(database)
            let writer = try #require(database.strataWriter)
            #expect(writer is DatabasePool)
            #expect((database as? any SQLDatabase)?.strataWriter === writer)
            let values = ObservedValues<Int>()
            let cancellable = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items")!
            }
            .start(in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: values)
            await values.waitForValues(1)
            try await Item(name: "observed").create(on: database)
            #expect(await values.wait { $0.last == 1 })
            withExtendedLifetime(cancellable) {}
        }

        @Test("A pool that cannot open: each query fails with its error")
        func unopenablePool() async throws {
            let directory = try TemporaryDirectory()
            let fixture = FluentFixture(directory, path: directory.path("missing/folder/db.sqlite"))
            defer { Task { await fixture.shutdown() } }
            #expect(fixture.database.strataWriter == nil)
            let error = try await #require(throws: Strata.DatabaseError.self) {
                try await Item.query(on: fixture.database).all()
            }
            #expect(error.resultCode == .SQLITE_CANTOPEN)
            #expect((error as any FluentKit.DatabaseError).isConnectionClosed)
        }
    }
#endif
