import Foundation
import Strata
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

    @Test("dumpSQL with several statements separates results")
    func dumpSQLStatements() throws {
        let dbQueue = try makeQueue()
        let stream = TestStream()
        try dbQueue.dumpSQL("SELECT 1; SELECT 'a', NULL", format: .list(header: true, nullValue: "NULL"), to: stream)
        #expect(stream.output == "1\n1\n\n'a'|NULL\na|NULL\n")
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
