import Strata
import StrataTestSupport
import Testing

/// SQLite versions and compile options (issue 32, part 4): each API that
/// needs a feature works on the linked SQLite, and throws an error that
/// names the feature, what it needs and the SQLite present when a test
/// lowers what one connection believes.
@Suite("SQLite features")
struct SQLiteFeatureTests {
    /// The linked SQLite, as a connection that nobody lowered sees it.
    static let linked = try! DatabaseQueue().read { $0.linkedSQLite }

    /// Runs `body` on a fresh in-memory database with the `player` table,
    /// after lowering its connection as asked.
    private func lowered<T>(
        version: String? = nil, removing options: Set<String> = [], _ body: (Database) throws -> T
    ) throws -> T {
        try makePlayerDatabase(players: Player.samples).write { db in
            db.lowerSQLiteForTesting(version: version, removingCompileOptions: options)
            return try body(db)
        }
    }

    /// Checks that `body` throws the error of a missing feature, with the
    /// feature's name, the need and the SQLite present in its message.
    private func expectMissing(
        _ feature: SQLiteFeature, needs: String, present: String,
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        let error = #expect(throws: DatabaseError.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.resultCode == .SQLITE_MISUSE, sourceLocation: sourceLocation)
        #expect(
            error?.message == "\(feature) is not available: it requires \(needs); the linked SQLite is \(present)",
            sourceLocation: sourceLocation)
    }

    /// Checks that `body` throws SQLite's own error, with `message`.
    private func expectSQLiteError(
        _ message: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        let error = #expect(throws: DatabaseError.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }

    // MARK: - 1. The features and what they need

    @Test("each feature says which version and compile options it needs")
    func requirements() {
        let needs = SQLiteFeature.allCases.map { "\($0): \($0.minimumVersion ?? "-") \($0.requiredCompileOptions)" }
        #expect(
            needs == [
                "UPSERT (ON CONFLICT DO UPDATE): 3.24.0 []",
                "RETURNING clause: 3.35.0 []",
                "JSON functions: 3.38.0 []",
                "JSON operators -> and ->>: 3.38.0 []",
                "JSONB functions: 3.45.0 []",
                "math functions: 3.35.0 [\"ENABLE_MATH_FUNCTIONS\"]",
                "unixepoch() function: 3.38.0 []",
                "window functions: 3.25.0 []",
                "FTS5: - [\"ENABLE_FTS5\"]",
                "session extension: - [\"ENABLE_SESSION\", \"ENABLE_PREUPDATE_HOOK\"]",
                "pre-update hooks: - [\"ENABLE_PREUPDATE_HOOK\"]",
                "WAL snapshots: - [\"ENABLE_SNAPSHOT\"]",
                "STRICT tables: 3.37.0 []",
                "generated columns: 3.31.0 []",
                "RENAME COLUMN: 3.25.0 []",
                "DROP COLUMN: 3.35.0 []",
            ])
    }

    // MARK: - 2. Gated API: works here, throws when lowered

    @Test("RETURNING: insertAndFetch, updateAndFetch, saveAndFetch and deleteAndFetch work, and throw below 3.35.0")
    func returning() throws {
        try lowered { db throws in
            var player = Player(name: "Diane", score: 10)
            let inserted = try player.insertAndFetch(db)
            #expect(inserted.id == 4)
            player = inserted
            player.score = 20
            #expect(try player.updateAndFetch(db).score == 20)
            #expect(try player.saveAndFetch(db).score == 20)
            #expect(try Player.filter(Column("score") == 20).deleteAndFetchAll(db).map(\.name) == ["Diane"])
        }
        try lowered(version: "3.34.0") { db throws in
            let needs = "SQLite 3.35.0 or newer"
            let player = try Player.fetchOne(db, key: 1)!
            expectMissing(.returning, needs: needs, present: "3.34.0") {
                _ = try Player(name: "Diane", score: 10).insertAndFetch(db)
            }
            expectMissing(.returning, needs: needs, present: "3.34.0") { _ = try player.updateAndFetch(db) }
            expectMissing(.returning, needs: needs, present: "3.34.0") { _ = try player.saveAndFetch(db) }
            expectMissing(.returning, needs: needs, present: "3.34.0") { _ = try Player.all().deleteAndFetchAll(db) }
            #expect(try Player.fetchCount(db) == 3)
        }
    }

    @Test("UPSERT: upsert works, and throws below 3.24.0 (and below 3.35.0 for its RETURNING)")
    func upsert() throws {
        try lowered { db throws in
            var player = Player(id: 1, name: "Arthur", score: 150)
            try player.upsert(db)
            #expect(try Player.fetchOne(db, key: 1)?.score == 150)
        }
        try lowered(version: "3.23.0") { db throws in
            var player = Player(id: 1, name: "Arthur", score: 150)
            expectMissing(.upsert, needs: "SQLite 3.24.0 or newer", present: "3.23.0") { try player.upsert(db) }
        }
        try lowered(version: "3.30.0") { db throws in
            var player = Player(id: 1, name: "Arthur", score: 150)
            expectMissing(.returning, needs: "SQLite 3.35.0 or newer", present: "3.30.0") { try player.upsert(db) }
            #expect(try Player.fetchOne(db, key: 1)?.score == 100)
        }
    }

    @Test("JSON functions: the JSON functions of Database work, and throw below 3.38.0 without JSON1")
    func jsonFunctions() throws {
        let object = Database.jsonObject([(key: "name", value: Column("name"))])
        let names = Database.jsonGroupArray(Column("name"))
        try lowered { db throws in
            #expect(try String.fetchOne(db, Player.select(object).filter(key: 1)) == #"{"name":"Arthur"}"#)
            #expect(try String.fetchOne(db, Player.select(names)) == #"["Arthur","Barbara","Craig"]"#)
        }
        try lowered(version: "3.37.2", removing: ["ENABLE_JSON1"]) { db throws in
            let needs = "SQLite 3.38.0 or newer, or SQLITE_ENABLE_JSON1 before it"
            expectMissing(.jsonFunctions, needs: needs, present: "3.37.2") {
                _ = try String.fetchOne(db, Player.select(object))
            }
            expectMissing(.jsonFunctions, needs: needs, present: "3.37.2") {
                _ = try String.fetchOne(db, Player.select(names))
            }
        }
    }

    @Test("JSON operators: the subscripts of JSONColumn (->>) and jsonRepresentation (->) work, and throw below 3.38.0")
    func jsonOperators() throws {
        let info = JSONColumn("info")
        let query = Table("document")
        try lowered { db throws in
            try db.execute(sql: #"CREATE TABLE document (info TEXT); INSERT INTO document VALUES ('{"a":{"b":1}}')"#)
            #expect(try Int.fetchOne(db, query.select(info["$.a.b"])) == 1)
            #expect(try String.fetchOne(db, query.select(info.jsonRepresentation(atPath: "$.a"))) == #"{"b":1}"#)
            // `->` is JSON already: the JSON functions take it as it is.
            #expect(
                try String.fetchOne(db, query.select(Database.jsonArray([info.jsonRepresentation(atPath: "$.a")])))
                    == #"[{"b":1}]"#)
        }
        try lowered(version: "3.37.0") { db throws in
            try db.execute(sql: #"CREATE TABLE document (info TEXT); INSERT INTO document VALUES ('{"a":{"b":1}}')"#)
            expectMissing(.jsonOperators, needs: "SQLite 3.38.0 or newer", present: "3.37.0") {
                _ = try Int.fetchOne(db, query.select(info["$.a.b"]))
            }
            expectMissing(.jsonOperators, needs: "SQLite 3.38.0 or newer", present: "3.37.0") {
                _ = try String.fetchOne(db, query.select(info.jsonRepresentation(atPath: "$.a")))
            }
        }
    }

    @Test("FTS5: tables and tokenizers work, and throw without SQLITE_ENABLE_FTS5")
    func fts5() throws {
        try lowered { db throws in
            try db.create(virtualTable: "document", using: FTS5()) { t in t.column("content") }
            try db.execute(sql: "INSERT INTO document VALUES ('the quick brown fox')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document WHERE document MATCH 'fox'") == 1)
            #expect(try db.makeTokenizer(.ascii()).tokenize(document: "Fox").map(\.token) == ["fox"])
        }
        try lowered(removing: ["ENABLE_FTS5"]) { db throws in
            let needs = "compile option SQLITE_ENABLE_FTS5"
            let present = "\(Self.linked.version), compiled without SQLITE_ENABLE_FTS5"
            expectMissing(.fts5, needs: needs, present: present) {
                try db.create(virtualTable: "document", using: FTS5()) { t in t.column("content") }
            }
            expectMissing(.fts5, needs: needs, present: present) { _ = try db.makeTokenizer(.ascii()) }
            #expect(try !db.tableExists("document"))
        }
    }

    @Test("STRICT tables, generated columns, RENAME and DROP COLUMN work, and throw below their versions")
    func schema() throws {
        try lowered { db throws in
            try db.create(table: "item", options: .strict) { t in
                t.column("a", .integer)
                t.column("b", .integer).generatedAs(Column("a") * 2)
            }
            try db.alter(table: "item") { t in t.rename(column: "a", to: "c") }
            try db.alter(table: "item") { t in t.drop(column: "b") }
            #expect(try db.columns(in: "item").map(\.name) == ["c"])
        }
        try lowered(version: "3.24.0") { db throws in
            try db.create(table: "item") { t in t.column("a", .integer) }
            expectMissing(.strictTables, needs: "SQLite 3.37.0 or newer", present: "3.24.0") {
                try db.create(table: "other", options: .strict) { t in t.column("a", .integer) }
            }
            expectMissing(.generatedColumns, needs: "SQLite 3.31.0 or newer", present: "3.24.0") {
                try db.create(table: "other") { t in t.column("b", .integer).generatedAs(Column("a")) }
            }
            expectMissing(.renameColumn, needs: "SQLite 3.25.0 or newer", present: "3.24.0") {
                try db.alter(table: "item") { t in t.rename(column: "a", to: "c") }
            }
            expectMissing(.dropColumn, needs: "SQLite 3.35.0 or newer", present: "3.24.0") {
                try db.alter(table: "item") { t in t.drop(column: "a") }
            }
        }
    }

    @Test("pre-update hooks: observers hear of pre-update events, and of none without SQLITE_ENABLE_PREUPDATE_HOOK")
    func preUpdateHook() throws {
        for removed in [false, true] {
            let dbQueue = try makePlayerDatabase()
            if removed {
                try dbQueue.write { db -> Void in
                    db.lowerSQLiteForTesting(removingCompileOptions: ["ENABLE_PREUPDATE_HOOK"])
                }
            }
            let observer = PreUpdateCounter()
            dbQueue.add(transactionObserver: observer)
            _ = try dbQueue.write { db in try Player.insert(Player.samples, db) }
            #expect(observer.preUpdateCount.value == (removed ? 0 : 3))
            #expect(observer.changeCount.value == 3)
        }
    }

    /// Counts the pre-update and change events of the `player` table.
    private final class PreUpdateCounter: TransactionObserver {
        let preUpdateCount = Counter()
        let changeCount = Counter()
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { _ = changeCount.increment() }
        func databaseWillChange(with event: DatabasePreUpdateEvent) { _ = preUpdateCount.increment() }
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    @Test(
        "features without an API of their own: what the linked SQLite says is there runs, and checks throw when lowered"
    )
    func rawSQLFeatures() throws {
        try lowered { db throws in
            try db.requireSQLiteFeature(.mathFunctions)
            #expect(try Double.fetchOne(db, sql: "SELECT sqrt(16)") == 4)
            try db.requireSQLiteFeature(.unixEpochFunction)
            #expect(try Int.fetchOne(db, sql: "SELECT unixepoch('1970-01-02')") == 86400)
            try db.requireSQLiteFeature(.windowFunctions)
            #expect(
                try Int.fetchAll(db, sql: "SELECT row_number() OVER (ORDER BY score DESC) FROM player ORDER BY id")
                    == [3, 1, 2])
            try db.requireSQLiteFeature(.sessionExtension)
        }
        try lowered(version: "3.34.0", removing: ["ENABLE_MATH_FUNCTIONS", "ENABLE_SESSION"]) { db throws in
            expectMissing(
                .mathFunctions,
                needs: "SQLite 3.35.0 or newer and compile option SQLITE_ENABLE_MATH_FUNCTIONS",
                present: "3.34.0, compiled without SQLITE_ENABLE_MATH_FUNCTIONS"
            ) { try db.requireSQLiteFeature(.mathFunctions) }
            expectMissing(.unixEpochFunction, needs: "SQLite 3.38.0 or newer", present: "3.34.0") {
                try db.requireSQLiteFeature(.unixEpochFunction)
            }
            expectMissing(
                .sessionExtension, needs: "compile option SQLITE_ENABLE_SESSION",
                present: "3.34.0, compiled without SQLITE_ENABLE_SESSION"
            ) { try db.requireSQLiteFeature(.sessionExtension) }
            try db.requireSQLiteFeature(.windowFunctions)
        }
        try lowered(version: "3.24.0") { db throws in
            expectMissing(.windowFunctions, needs: "SQLite 3.25.0 or newer", present: "3.24.0") {
                try db.requireSQLiteFeature(.windowFunctions)
            }
        }
    }

    @Test(
        "WAL snapshots and JSONB are missing from this machine's SQLite: their checks throw for real",
        .enabled(if: !linked.isAvailable(.walSnapshots) && !linked.isAvailable(.jsonb)))
    func missingForReal() throws {
        let version = Self.linked.version
        let db = try DatabaseQueue()
        try db.inDatabase { db throws in
            expectMissing(
                .walSnapshots, needs: "compile option SQLITE_ENABLE_SNAPSHOT",
                present: version + ", compiled without SQLITE_ENABLE_SNAPSHOT"
            ) { try db.requireSQLiteFeature(.walSnapshots) }
            expectMissing(.jsonb, needs: "SQLite 3.45.0 or newer", present: version) {
                try db.requireSQLiteFeature(.jsonb)
            }
            // What SQLite itself says, which the check stands in front of.
            expectSQLiteError("no such function: jsonb") { try db.execute(sql: "SELECT jsonb('{}')") }
        }
    }

    // MARK: - 3. The property

    @Test("linkedSQLite lists the version, the compile options and each feature")
    func property() throws {
        let sqlite = Self.linked
        #expect(sqlite.versionNumber == Int(Database.sqliteLibVersionNumber))
        #expect(sqlite.version == String(cString: sqlite3_libversion()))
        #expect(sqlite.compileOptions.contains("THREADSAFE=1"))
        #expect(sqlite.compileOptions == sqlite.compileOptions.sorted())
        #expect(sqlite.availability(of: .returning) == .available)
        #expect(sqlite.isAvailable(.fts5) == sqlite.compileOptions.contains("ENABLE_FTS5"))
        let lines = sqlite.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "SQLite \(sqlite.version) (\(sqlite.versionNumber))")
        #expect(lines[1] == "Features:")
        #expect(lines[2] == "  yes  UPSERT (ON CONFLICT DO UPDATE)  SQLite 3.24.0")
        #expect(lines.count(where: { $0.hasPrefix("  yes  ") || $0.hasPrefix("  no   ") }) == 16)
        #expect(lines[18] == "Compile options:")
        #expect(lines.dropFirst(19).allSatisfy { $0.hasPrefix("  ") && $0.count <= 80 })
        #expect(lines.dropFirst(19).flatMap { $0.split(separator: " ") }.map(String.init) == sqlite.compileOptions)
    }

    @Test(
        "linkedSQLite's description on Debian's SQLite 3.40.1, as the Linux article shows it",
        .enabled(if: linked.version == "3.40.1"))
    func debianDescription() {
        let features = Self.linked.description.split(separator: "\n").prefix(18).joined(separator: "\n")
        #expect(
            features == """
                SQLite 3.40.1 (3040001)
                Features:
                  yes  UPSERT (ON CONFLICT DO UPDATE)  SQLite 3.24.0
                  yes  RETURNING clause                SQLite 3.35.0
                  yes  JSON functions                  SQLite 3.38.0, or SQLITE_ENABLE_JSON1 before
                  yes  JSON operators -> and ->>       SQLite 3.38.0
                  no   JSONB functions                 SQLite 3.45.0: the linked SQLite is 3.40.1
                  yes  math functions                  SQLite 3.35.0 + SQLITE_ENABLE_MATH_FUNCTIONS
                  yes  unixepoch() function            SQLite 3.38.0
                  yes  window functions                SQLite 3.25.0
                  yes  FTS5                            SQLITE_ENABLE_FTS5
                  yes  session extension               SQLITE_ENABLE_SESSION + SQLITE_ENABLE_PREUPDATE_HOOK
                  yes  pre-update hooks                SQLITE_ENABLE_PREUPDATE_HOOK
                  no   WAL snapshots                   SQLITE_ENABLE_SNAPSHOT: not compiled in
                  yes  STRICT tables                   SQLite 3.37.0
                  yes  generated columns               SQLite 3.31.0
                  yes  RENAME COLUMN                   SQLite 3.25.0
                  yes  DROP COLUMN                     SQLite 3.35.0
                """)
    }

    @Test("log the SQLite, check before raw SQL, read the error of a lowered connection")
    func articleSample() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try WriterKind.pool.openPlayerDatabase(directory, players: Player.samples)
        var log = TextCollector()

        // At startup: what the system's SQLite can do, in the logs.
        let sqlite = try dbPool.read { db in db.linkedSQLite }
        print(sqlite, to: &log)

        // Before raw SQL that needs a feature Strata has no API for.
        let ranks = try dbPool.read { db in
            try db.requireSQLiteFeature(.windowFunctions)
            return try Row.fetchAll(db, sql: "SELECT name, rank() OVER (ORDER BY score DESC) AS rank FROM player")
        }

        #expect(log.text.hasPrefix("SQLite \(Self.linked.version) (\(Self.linked.versionNumber))\nFeatures:\n"))
        #expect(ranks.map { $0["name"] as String } == ["Barbara", "Craig", "Arthur"])
        // Strata's own API checks by itself: on SQLite 3.34, insertAndFetch throws.
        let error = try dbPool.write { db -> DatabaseError? in
            db.lowerSQLiteForTesting(version: "3.34.0")
            do {
                _ = try Player(name: "Diane", score: 10).insertAndFetch(db)
                return nil
            } catch let error as DatabaseError {
                return error
            }
        }
        #expect(
            error?.description
                == "SQLite error 21: RETURNING clause is not available: it requires SQLite 3.35.0 or newer; "
                + "the linked SQLite is 3.34.0")
    }

    // MARK: - 4. The test hook

    @Test("lowering is per connection, never raises, and shows in linkedSQLite")
    func loweringIsPerConnection() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        try dbPool.write { db in
            db.lowerSQLiteForTesting(version: "3.30.0", removingCompileOptions: ["ENABLE_FTS5"])
            #expect(db.linkedSQLite.version == "3.30.0")
            #expect(db.linkedSQLite.versionNumber == 3_030_000)
            #expect(!db.linkedSQLite.compileOptions.contains("ENABLE_FTS5"))
            #expect(db.linkedSQLite.availability(of: .returning) != .available)
            expectMissing(.generatedColumns, needs: "SQLite 3.31.0 or newer", present: "3.30.0") {
                try db.requireSQLiteFeature(.generatedColumns)
            }
            db.lowerSQLiteForTesting(removingCompileOptions: ["ENABLE_SESSION"])
            let lines = db.linkedSQLite.description.split(separator: "\n")
            #expect(lines.first == "SQLite 3.30.0 (3030000)")
            #expect(lines.contains("  no   RETURNING clause                SQLite 3.35.0: the linked SQLite is 3.30.0"))
            #expect(lines.contains("  no   FTS5                            SQLITE_ENABLE_FTS5: not compiled in"))
            #expect(
                lines.contains(
                    "  no   session extension               SQLITE_ENABLE_SESSION + SQLITE_ENABLE_PREUPDATE_HOOK: "
                        + "compiled without SQLITE_ENABLE_SESSION"))
            #expect(lines.contains("  yes  UPSERT (ON CONFLICT DO UPDATE)  SQLite 3.24.0"))
            // A higher version is ignored: lowering never raises.
            db.lowerSQLiteForTesting(version: "99.0.0")
            #expect(db.linkedSQLite.version == "3.30.0")
        }
        try dbPool.read { db in
            #expect(db.linkedSQLite.version == Self.linked.version)
            try db.requireSQLiteFeature(.returning)
            try db.requireSQLiteFeature(.fts5)
        }
        try DatabaseQueue().read { db in
            #expect(db.linkedSQLite.description == Self.linked.description)
        }
    }
}
