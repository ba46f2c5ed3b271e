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

    /// The samples of the article "Strata with Vapor and Fluent".
    @Suite("Guide: Strata with Vapor and Fluent")
    struct VaporAndFluentGuideTests {
        final class Player: Model, @unchecked Sendable {
            static let schema = "players"
            @ID(custom: "id") var id: Int?
            @Field(key: "name") var name: String
            @Field(key: "score") var score: Int

            init() {}

            init(name: String, score: Int) {
                self.name = name
                self.score = score
            }
        }

        struct Galaxy: Decodable {
            var name: String
        }

        @Test("The one-line switch, models and queries, and the pool under Fluent")
        func fluent() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.path("app.sqlite")
            var logger = Logger(label: "guide")
            logger.logLevel = .warning

            let databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
            databases.use(.strata(path: path), as: .sqlite)
            let database = databases.database(logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())!

            try await database.schema("players").field("id", .int, .identifier(auto: true))
                .field("name", .string, .required).field("score", .int, .required).create()
            try await Player(name: "Arthur", score: 100).create(on: database)
            let best = try await Player.query(on: database).sort(\.$score, .descending).first()
            #expect(best?.name == "Arthur")

            let counts = ObservedValues<Int>()
            let queue = DispatchQueue(label: "guide")
            @Sendable func updateBadge(_ count: Int) { counts.record(count) }

            let dbPool = database.strataWriter!
            // Notified of Fluent's writes as of any other.
            let observation = ValueObservation.tracking { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM players")!
            }
            let cancellable = observation.start(
                in: dbPool, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: updateBadge)
            await counts.waitForValues(1)
            try await Player(name: "Barbara", score: 200).create(on: database)
            #expect(await counts.wait { $0.last == 2 })
            cancellable.cancel()
            await databases.shutdownAsync()
        }

        @Test("SQLKit alone, and a session's transaction")
        func sqlKit() async throws {
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
            var logger = Logger(label: "guide")
            logger.logLevel = .warning
            let eventLoop = MultiThreadedEventLoopGroup.singleton.any()

            let sql = dbPool.sqlDatabase(logger: logger, on: eventLoop)
            try await sql.raw("CREATE TABLE galaxy(id INTEGER PRIMARY KEY, name TEXT NOT NULL)").run()
            try await sql.insert(into: "galaxy").columns("name").values(SQLBind("Milky Way")).run()
            let names = try await sql.select().column("name").from("galaxy").all(decoding: Galaxy.self)
            #expect(names.map(\.name) == ["Milky Way"])

            try await sql.withSession { session in
                try await session.raw("BEGIN").run()
                try await session.raw("UPDATE galaxy SET name = 'Andromeda' WHERE id = 1").run()
                try await session.raw("COMMIT").run()
            }
            #expect(
                try await dbPool.read { db in try String.fetchAll(db, sql: "SELECT name FROM galaxy") } == ["Andromeda"]
            )
        }
    }
#endif
