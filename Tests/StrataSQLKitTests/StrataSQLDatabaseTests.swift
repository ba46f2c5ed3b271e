#if SQLKit
    import Foundation
    import Logging
    import NIOCore
    import NIOPosix
    import SQLKit
    import Strata
    import StrataSQLKit
    import StrataTestSupport
    import Testing

    /// A logger that keeps the statements out of the test output.
    let quietLogger: Logger = {
        var logger = Logger(label: "StrataSQLKitTests")
        logger.logLevel = .warning
        return logger
    }()

    extension DatabaseWriter {
        /// This writer's SQLKit database on the shared event loop group.
        var quietSQLDatabase: StrataSQLDatabase {
            sqlDatabase(logger: quietLogger, on: MultiThreadedEventLoopGroup.singleton.any())
        }
    }

    /// A queue or a pool on a file of a new directory, and its SQLKit
    /// database.
    struct SQLKitFixture {
        let directory: TemporaryDirectory
        let writer: any DatabaseWriter
        var sql: StrataSQLDatabase { writer.quietSQLDatabase }

        init(_ kind: WriterKind, configuration: Configuration = Configuration()) throws {
            directory = try TemporaryDirectory()
            writer = try kind.open(directory, configuration: configuration)
        }
    }

    struct Nested: Codable, Sendable, Equatable {
        var a: Int
        var b: [String]
    }

    struct Single: Codable, Sendable {
        var a: Int
    }

    enum Kind: String, Codable, Sendable {
        case big
    }

    @Suite("StrataSQLKit: values, errors, routing and sessions")
    struct StrataSQLDatabaseTests {
        @Test("Bound values are stored as sqlite-kit stores them", arguments: WriterKind.allCases)
        func storedValues(kind: WriterKind) async throws {
            let fixture = try SQLKitFixture(kind)
            let (writer, sql) = (fixture.writer, fixture.sql)
            try await sql.raw("CREATE TABLE t(id INTEGER PRIMARY KEY, v)").run()
            let uuid = UUID()
            let values: [any Encodable & Sendable] = [
                Date(timeIntervalSince1970: 1_000_000.5), uuid, true, Data([1, 2]), [1, 2, 3],
                [String](), Single(a: 1), Kind.big, Int?.none as Int?, Int8(3), 2.5, "text",
            ]
            for value in values {
                try await sql.insert(into: "t").columns("v").values(SQLBind(value)).run()
            }
            let stored = try await writer.read { db in
                try Row.fetchAll(db, sql: "SELECT typeof(v) AS type, v FROM t ORDER BY id").map {
                    "\($0["type"] as String): \($0["v"] as DatabaseValue)"
                }
            }
            #expect(
                stored == [
                    "real: 1000000.5", "text: \"\(uuid.uuidString)\"", "integer: 1", "blob: Data(2 bytes)",
                    "text: \"[1,2,3]\"", "text: \"[]\"", #"text: "{\"a\":1}""#, "text: \"big\"", "null: NULL",
                    "integer: 3", "real: 2.5", "text: \"text\"",
                ])
        }

        @Test("Rows decode as sqlite-kit decodes them", arguments: WriterKind.allCases)
        func decodedValues(kind: WriterKind) async throws {
            let fixture = try SQLKitFixture(kind)
            let sql = fixture.sql
            let date = Date(timeIntervalSince1970: 1_234_567.25)
            let uuid = UUID()
            let row = try #require(
                try await sql.raw(
                    """
                    SELECT \(bind: date) AS date, \(bind: uuid) AS uuid, \(bind: true) AS bool, \
                    \(bind: Nested(a: 2, b: ["y"])) AS nested, \(bind: Kind.big) AS kind, NULL AS nullValue, \
                    '2024-01-02T03:04:05Z' AS isoDate, '2024-01-02 03:04:05' AS spacedDate, 7 AS int, \
                    x'0102' AS blob
                    """
                ).first())
            #expect(try row.decode(column: "date", as: Date.self) == date)
            #expect(try row.decode(column: "uuid", as: UUID.self) == uuid)
            #expect(try row.decode(column: "bool", as: Bool.self) == true)
            #expect(try row.decode(column: "nested", as: Nested.self) == Nested(a: 2, b: ["y"]))
            #expect(try row.decode(column: "kind", as: Kind.self) == .big)
            #expect(try row.decode(column: "nullValue", as: Int?.self) == nil)
            #expect(try row.decode(column: "isoDate", as: Date.self) == Date(timeIntervalSince1970: 1_704_164_645))
            #expect(try row.decode(column: "spacedDate", as: Date.self) == Date(timeIntervalSince1970: 1_704_164_645))
            #expect(try row.decode(column: "int", as: Int.self) == 7)
            #expect(try row.decode(column: "int", as: String.self) == "7")
            #expect(try row.decode(column: "blob", as: Data.self) == Data([1, 2]))
            #expect(row.allColumns.first == "date")
            #expect(row.contains(column: "kind"))
            #expect(!row.contains(column: "missing"))
            #expect(try row.decodeNil(column: "missing"))
            #expect(try row.decodeNil(column: "nullValue"))
            #expect(throws: DecodingError.self) { try row.decode(column: "missing", as: Int?.self) }
            #expect(throws: DecodingError.self) { try row.decode(column: "nullValue", as: Int.self) }
            #expect(throws: DecodingError.self) { try row.decode(column: "kind", as: Int.self) }
        }

        @Test("Errors carry SQLite's code and message", arguments: WriterKind.allCases)
        func errors(kind: WriterKind) async throws {
            let fixture = try SQLKitFixture(kind)
            let (writer, sql) = (fixture.writer, fixture.sql)
            let syntaxError = try await #require(throws: DatabaseError.self) { try await sql.raw("asdf").run() }
            #expect(syntaxError.resultCode == .SQLITE_ERROR)
            #expect(syntaxError.message?.contains("syntax error") == true)
            try await sql.raw("CREATE TABLE t(name TEXT UNIQUE)").run()
            try await sql.raw("INSERT INTO t VALUES ('a')").run()
            let constraint = try await #require(throws: DatabaseError.self) {
                try await sql.raw("INSERT INTO t VALUES ('a')").run()
            }
            #expect(constraint.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
            // A value that cannot be encoded: nothing runs.
            struct Unencodable: Encodable, Sendable {
                func encode(to encoder: any Encoder) throws {
                    throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no"))
                }
            }
            await #expect(throws: EncodingError.self) {
                try await sql.raw("INSERT INTO t VALUES (\(bind: Unencodable()))").run()
            }
            #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
        }

        @Test("No database work on an event loop; the future's rows arrive on its loop", arguments: WriterKind.allCases)
        func eventLoops(kind: WriterKind) async throws {
            var configuration = Configuration()
            configuration.prepareDatabase { db in
                db.add(
                    function: DatabaseFunction("on_event_loop", argumentCount: 0, pure: false) { _ in
                        MultiThreadedEventLoopGroup.currentEventLoop != nil
                    })
            }
            let fixture = try SQLKitFixture(kind, configuration: configuration)
            let sql = fixture.sql
            try await sql.raw("CREATE TABLE t(id INTEGER PRIMARY KEY, loop BOOLEAN)").run()
            let seen = Waitable<[String]>([])
            for statement in [
                "SELECT on_event_loop() AS loop", "INSERT INTO t(loop) VALUES (on_event_loop()) RETURNING loop",
            ] {
                try await sql.execute(sql: SQLRaw(statement)) { [eventLoop = sql.eventLoop] row in
                    let loop = (try? row.decode(column: "loop", as: Bool.self)).map { "\($0)" } ?? "?"
                    seen.update { $0.append("statement on a loop: \(loop), row on the loop: \(eventLoop.inEventLoop)") }
                }.get()
            }
            #expect(
                seen.value
                    == Array(
                        repeating: "statement on a loop: false, row on the loop: true", count: 2))
        }

        @Test("On a pool, reads run on readers and writes on the writer", .timeLimit(.minutes(1)))
        func routing() async throws {
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
            let sql = dbPool.quietSQLDatabase
            try await sql.raw("CREATE TABLE t(id INTEGER PRIMARY KEY)").run()
            let sessionHolds = Waitable(false)
            let release = Waitable(false)
            // A session holds the writer until released.
            let session = Task {
                try await sql.withSession { session in
                    try await session.raw("INSERT INTO t DEFAULT VALUES").run()
                    sessionHolds.update { $0 = true }
                    try await release.wait("release") { $0 }
                }
            }
            try await sessionHolds.wait("session") { $0 }
            // Reads do not wait for the writer, which the session holds: a
            // reader runs them (on the writer, this read would never end).
            // The session's insert, outside any transaction, is committed.
            let count = try await sql.raw("SELECT COUNT(*) AS c FROM t").first(decoding: [String: Int].self)
            #expect(count == ["c": 1])
            // `WITH` that writes: the writer runs it, after the session.
            let write = Task { try await sql.raw("WITH x AS (SELECT 2 AS id) INSERT INTO t SELECT id FROM x").run() }
            release.update { $0 = true }
            try await session.value
            try await write.value
            #expect(
                try await dbPool.read { db in try Int.fetchAll(db, sql: "SELECT id FROM t ORDER BY id") } == [1, 2])
        }

        @Test(
            "A session runs a transaction across awaited statements, with no other write between",
            .timeLimit(.minutes(1)), arguments: WriterKind.allCases)
        func sessions(kind: WriterKind) async throws {
            let fixture = try SQLKitFixture(kind)
            let (writer, sql) = (fixture.writer, fixture.sql)
            try await sql.raw("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)").run()
            let outsideSent = Waitable(false)
            let outside = try await sql.withSession { session in
                try await session.raw("BEGIN").run()
                try await session.raw("INSERT INTO t(name) VALUES ('session')").run()
                let outside = Task {
                    outsideSent.update { $0 = true }
                    try await sql.raw("INSERT INTO t(name) VALUES ('outside')").run()
                }
                try await outsideSent.wait("outside write sent") { $0 }
                // Nested sessions share the connection.
                try await session.withSession { nested in
                    let names = try await nested.raw("SELECT name FROM t").all().map {
                        try $0.decode(column: "name", as: String.self)
                    }
                    #expect(names == ["session"])
                }
                try await session.raw("COMMIT").run()
                return outside
            }
            try await outside.value
            #expect(
                try await writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY id") } == [
                    "session", "outside",
                ])

            // ROLLBACK, and a transaction left open, leave nothing.
            try await sql.withSession { session in
                try await session.raw("BEGIN").run()
                try await session.raw("INSERT INTO t(name) VALUES ('rolled back')").run()
                try await session.raw("ROLLBACK").run()
            }
            try await sql.withSession { session in
                try await session.raw("BEGIN").run()
                try await session.raw("INSERT INTO t(name) VALUES ('left open')").run()
            }
            #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
            try await sql.raw("INSERT INTO t(name) VALUES ('after')").run()

            // A session's database used once it has ended.
            let ended = try await sql.withSession { $0 }
            let error = try await #require(throws: DatabaseError.self) { try await ended.raw("SELECT 1").run() }
            #expect(error.resultCode == .SQLITE_MISUSE)
        }

        @Test("Strata underneath: observations see SQLKit's writes", arguments: WriterKind.allCases)
        func observation(kind: WriterKind) async throws {
            let fixture = try SQLKitFixture(kind)
            let (writer, sql) = (fixture.writer, fixture.sql)
            try await sql.raw("CREATE TABLE t(id INTEGER PRIMARY KEY)").run()
            #expect(sql.writer === writer)
            let values = ObservedValues<Int>()
            let cancellable = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
                .start(in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: values)
            await values.waitForValues(1)
            try await sql.insert(into: "t").columns("id").values(SQLLiteral.null).run()
            #expect(await values.wait { $0.last == 1 })
            withExtendedLifetime(cancellable) {}
        }
    }
#endif
