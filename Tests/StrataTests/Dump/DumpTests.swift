import Foundation
import Strata
import StrataTestSupport
import Testing

/// Collects dumped text.
final class TestStream: TextOutputStream {
    var output = ""
    func write(_ string: String) { output += string }
}

@Suite("Dumps")
struct DumpTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE team (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, teamId TEXT REFERENCES team(id), score REAL);
                    CREATE INDEX player_on_teamId ON player(teamId);
                    CREATE VIEW teamPlayer AS SELECT team.name AS team, player.name AS player
                      FROM player JOIN team ON team.id = player.teamId;
                    INSERT INTO team VALUES ('red', 'Red'), ('blue', 'Blue');
                    INSERT INTO player VALUES (2, 'Barbara', 'blue', 12.5), (1, 'Arthur', 'red', NULL);
                    """)
        }
        return dbQueue
    }

    @Test("dumpSQL prints rows as a|b|c, NULL as empty")
    func dumpSQL() throws {
        let dbQueue = try makeQueue()
        let stream = TestStream()
        try dbQueue.read { db in
            try db.dumpSQL("SELECT * FROM player ORDER BY id", to: stream)
        }
        #expect(stream.output == "1|Arthur|red|\n2|Barbara|blue|12.5\n")
    }

    @Test("dumpSQL prints the results of successive statements one after the other")
    func dumpSQLStatements() throws {
        let dbQueue = try makeQueue()
        let stream = TestStream()
        try dbQueue.dumpSQL("SELECT 1; SELECT 'a', NULL", format: .list(header: true, nullValue: "NULL"), to: stream)
        #expect(stream.output == "1\n1\n'a'|NULL\na|NULL\n")

        // The line format separates every row by an empty line, across statements.
        let line = TestStream()
        try dbQueue.dumpSQL("SELECT 1 AS a; SELECT 2 AS b, 3 AS c", format: .line(), to: line)
        #expect(line.output == "a = 1\n\nb = 2\nc = 3\n")
    }

    @Test("Dumps leave out grdb_ tables and the shadow tables of full-text tables")
    func hiddenTables() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1');
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
                    INSERT INTO player VALUES (1, 'Arthur');
                    CREATE VIRTUAL TABLE document USING fts5(content);
                    INSERT INTO document VALUES ('SQLite');
                    """)
        }
        let content = TestStream()
        try dbQueue.dumpContent(format: .list(), to: content)
        #expect(
            content.output == """
                sqlite_master
                CREATE VIRTUAL TABLE document USING fts5(content);
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);

                document
                SQLite

                player
                1|Arthur

                """)
        let schema = TestStream()
        try dbQueue.dumpSchema(to: schema)
        #expect(!schema.output.contains("grdb_") && !schema.output.contains("document_data"))
    }

    @Test("Blobs: lossy UTF-8 in list and line formats, UUIDs in the debug format")
    func blobs() throws {
        let dbQueue = try DatabaseQueue()
        let uuid = UUID(uuidString: "56E7D8D3-E9E4-48B6-968E-8D102833AF00")!
        let list = TestStream()
        try dbQueue.dumpSQL("SELECT X'41FF42'", format: .list(), to: list)
        #expect(list.output == "A\u{FFFD}B\n")
        let line = TestStream()
        try dbQueue.dumpSQL("SELECT X'41FF42' AS b", format: .line(), to: line)
        #expect(line.output == "b = A\u{FFFD}B\n")
        let debug = TestStream()
        try dbQueue.dumpSQL("SELECT \(uuid), X'00FF', X'414243'", format: .debug(), to: debug)
        #expect(debug.output == "56E7D8D3-E9E4-48B6-968E-8D102833AF00|X'00FF'|ABC\n")
    }

    @Test("dumpTables prints each table under its name")
    func dumpTables() throws {
        let dbQueue = try makeQueue()
        let stream = TestStream()
        try dbQueue.dumpTables(["team", "player"], to: stream)
        #expect(
            stream.output == """
                team
                blue|Blue
                red|Red

                player
                1|Arthur|red|
                2|Barbara|blue|12.5

                """)

        let single = TestStream()
        try dbQueue.dumpTables(["team"], to: single)
        #expect(single.output == "blue|Blue\nred|Red\n")

        let header = TestStream()
        try dbQueue.dumpTables(["teamPlayer"], tableHeader: .always, stableOrder: true, to: header)
        #expect(header.output == "teamPlayer\nBlue|Barbara\nRed|Arthur\n")
    }

    @Test("dumpTables of an unknown table throws")
    func unknownTable() throws {
        let dbQueue = try makeQueue()
        #expect(throws: DatabaseError.self) {
            try dbQueue.dumpTables(["missing"], to: TestStream())
        }
    }

    @Test("dumpRequest")
    func dumpRequest() throws {
        let dbQueue = try makeQueue()
        let stream = TestStream()
        try dbQueue.dumpRequest(Table("player").select(Column("name")).order(Column("name").desc), to: stream)
        #expect(stream.output == "Barbara\nArthur\n")
    }

    @Test("Formats: quote, line, json, debug")
    func formats() throws {
        let dbQueue = try DatabaseQueue()
        let sql: SQL = "SELECT 1 AS id, 'O''Brien' AS name, NULL AS note, x'00FF' AS data, 1.5 AS score"
        let quote = TestStream()
        try dbQueue.dumpSQL(sql, format: .quote(header: true), to: quote)
        #expect(quote.output == "'id','name','note','data','score'\n1,'O''Brien',NULL,X'00FF',1.5\n")

        let line = TestStream()
        try dbQueue.dumpSQL("SELECT 1 AS id, 'Arthur' AS name UNION ALL SELECT 2, NULL", format: .line(), to: line)
        #expect(line.output == "  id = 1\nname = Arthur\n\n  id = 2\nname = \n")

        let json = TestStream()
        try dbQueue.dumpSQL(sql, format: .json(), to: json)
        #expect(json.output == #"[{"id":1,"name":"O'Brien","note":null,"data":"AP8=","score":1.5}]"# + "\n")

        let emptyJSON = TestStream()
        try dbQueue.dumpSQL("SELECT 1 WHERE 0", format: .json(), to: emptyJSON)
        #expect(emptyJSON.output == "[]\n")

        let debug = TestStream()
        try dbQueue.dumpSQL(sql, format: .debug(separator: ", ", nullValue: "NULL"), to: debug)
        #expect(debug.output == "1, O'Brien, NULL, X'00FF', 1.5\n")
    }

    @Test("json(encoder:) honours prettyPrinted: one key per line, in column order")
    func prettyJSON() throws {
        let dbQueue = try DatabaseQueue()
        let encoder = JSONDumpFormat.defaultEncoder
        encoder.outputFormatting.insert(.prettyPrinted)
        let stream = TestStream()
        try dbQueue.dumpSQL(
            "SELECT 2 AS zeta, 'Arthur' AS alpha UNION ALL SELECT 3, NULL", format: .json(encoder: encoder), to: stream)
        #expect(
            stream.output == """
                [
                  {
                    "zeta":2,
                    "alpha":"Arthur"
                  },
                  {
                    "zeta":3,
                    "alpha":null
                  }
                ]

                """)
        let empty = TestStream()
        try dbQueue.dumpSQL("SELECT 1 WHERE 0", format: .json(encoder: encoder), to: empty)
        #expect(empty.output == "[]\n")
    }

    @Test("dumpRequest prints prefetched rows after the main rows, under the association key")
    func dumpRequestWithPrefetchedRows() throws {
        struct Team: TableRecord {
            static let players = hasMany(Player.self)
        }
        struct Player: TableRecord {}
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                    CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT);
                    INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues');
                    INSERT INTO player VALUES (1, 1, 'Arthur'), (2, 1, 'Barbara'), (3, 2, 'Craig');
                    """)
        }
        let stream = TestStream()
        try dbQueue.read { db in
            try db.dumpRequest(Team.orderByPrimaryKey().including(all: Team.players.orderByPrimaryKey()), to: stream)
        }
        #expect(
            stream.output == """
                1|Reds
                2|Blues

                players
                1|1|Arthur
                2|1|Barbara
                3|2|Craig

                """)
        // Without prefetched rows, only the main rows.
        let plain = TestStream()
        try dbQueue.read { db in try db.dumpRequest(Team.orderByPrimaryKey(), to: plain) }
        #expect(plain.output == "1|Reds\n2|Blues\n")
    }

    @Test("dumpSchema and dumpContent")
    func schemaAndContent() throws {
        let dbQueue = try makeQueue()
        let schema = TestStream()
        try dbQueue.dumpSchema(to: schema)
        #expect(
            schema.output == """
                sqlite_master
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, teamId TEXT REFERENCES team(id), score REAL);
                CREATE INDEX player_on_teamId ON player(teamId);
                CREATE TABLE team (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                CREATE VIEW teamPlayer AS SELECT team.name AS team, player.name AS player
                  FROM player JOIN team ON team.id = player.teamId;

                """)
        let content = TestStream()
        try dbQueue.dumpContent(to: content)
        #expect(
            content.output == schema.output + """

                player
                1|Arthur|red|
                2|Barbara|blue|12.5

                team
                blue|Blue
                red|Red

                """)
    }

    @Test("Dumps work from a pool, and inside an access")
    func pool() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
        }
        let stream = TestStream()
        try dbPool.dumpTables(["t"], to: stream)
        try dbPool.write { db in try db.dumpSQL("SELECT a + 1 FROM t", to: stream) }
        #expect(stream.output == "1\n2\n")
    }
}
