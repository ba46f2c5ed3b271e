import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite("Dumps")
struct DumpTests {
    private func makeQueue() throws -> DatabaseQueue {
        try inMemoryDatabase(
            """
            CREATE TABLE team (id TEXT PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, teamId TEXT REFERENCES team(id), score REAL);
            CREATE INDEX player_on_teamId ON player(teamId);
            CREATE VIEW teamPlayer AS SELECT team.name AS team, player.name AS player
              FROM player JOIN team ON team.id = player.teamId;
            INSERT INTO team VALUES ('red', 'Red'), ('blue', 'Blue');
            INSERT INTO player VALUES (2, 'Barbara', 'blue', 12.5), (1, 'Arthur', 'red', NULL);
            """)
    }

    /// The dump of `sql` in `format`.
    private func dump(_ dbQueue: DatabaseQueue, _ sql: SQL, _ format: some DumpFormat) throws -> String {
        try TextCollector.collect { try dbQueue.dumpSQL(sql, format: format, to: $0) }
    }

    @Test("dumpSQL prints rows as a|b|c, NULL as empty")
    func dumpSQL() throws {
        let dbQueue = try makeQueue()
        let stream = TextCollector()
        try dbQueue.read { db in
            try db.dumpSQL("SELECT * FROM player ORDER BY id", to: stream)
        }
        #expect(stream.text == "1|Arthur|red|\n2|Barbara|blue|12.5\n")
    }

    @Test("dumpSQL prints the results of successive statements one after the other")
    func dumpSQLStatements() throws {
        let dbQueue = try makeQueue()
        #expect(
            try dump(dbQueue, "SELECT 1; SELECT 'a', NULL", .list(header: true, nullValue: "NULL"))
                == "1\n1\n'a'|NULL\na|NULL\n")

        // The line format separates every row by an empty line, across statements.
        #expect(
            try dump(dbQueue, "SELECT 1 AS a; SELECT 2 AS b, 3 AS c", .line()) == "a = 1\n\nb = 2\nc = 3\n")
    }

    @Test("Dumps leave out grdb_ tables and the shadow tables of full-text tables")
    func hiddenTables() throws {
        let dbQueue = try inMemoryDatabase(
            """
            CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
            INSERT INTO grdb_migrations VALUES ('v1');
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO player VALUES (1, 'Arthur');
            CREATE VIRTUAL TABLE document USING fts5(content);
            INSERT INTO document VALUES ('SQLite');
            """)
        let content = TextCollector()
        try dbQueue.dumpContent(format: .list(), to: content)
        #expect(
            content.text == """
                sqlite_master
                CREATE VIRTUAL TABLE document USING fts5(content);
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);

                document
                SQLite

                player
                1|Arthur

                """)
        let schema = TextCollector()
        try dbQueue.dumpSchema(to: schema)
        #expect(!schema.text.contains("grdb_") && !schema.text.contains("document_data"))
    }

    @Test("Blobs: lossy UTF-8 in list and line formats, UUIDs in the debug format")
    func blobs() throws {
        let dbQueue = try DatabaseQueue()
        let uuid = UUID(uuidString: "56E7D8D3-E9E4-48B6-968E-8D102833AF00")!
        #expect(
            try dump(dbQueue, "SELECT X'41FF42'", .list())
                == "A\u{FFFD}B\n")
        #expect(
            try dump(dbQueue, "SELECT X'41FF42' AS b", .line())
                == "b = A\u{FFFD}B\n")
        #expect(
            try dump(dbQueue, "SELECT \(uuid), X'00FF', X'414243'", .debug())
                == "56E7D8D3-E9E4-48B6-968E-8D102833AF00|X'00FF'|ABC\n")
    }

    @Test("dumpTables prints each table under its name")
    func dumpTables() throws {
        let dbQueue = try makeQueue()
        let stream = TextCollector()
        try dbQueue.dumpTables(["team", "player"], to: stream)
        #expect(
            stream.text == """
                team
                blue|Blue
                red|Red

                player
                1|Arthur|red|
                2|Barbara|blue|12.5

                """)

        #expect(try TextCollector.collect { try dbQueue.dumpTables(["team"], to: $0) } == "blue|Blue\nred|Red\n")

        #expect(
            try TextCollector.collect {
                try dbQueue.dumpTables(["teamPlayer"], tableHeader: .always, stableOrder: true, to: $0)
            } == "teamPlayer\nBlue|Barbara\nRed|Arthur\n")
    }

    @Test("dumpTables of an unknown table throws")
    func unknownTable() throws {
        let dbQueue = try makeQueue()
        #expect(throws: DatabaseError.self) {
            try dbQueue.dumpTables(["missing"], to: TextCollector())
        }
    }

    @Test("dumpRequest")
    func dumpRequest() throws {
        let dbQueue = try makeQueue()
        #expect(
            try TextCollector.collect {
                try dbQueue.dumpRequest(Table("player").select(Column("name")).order(Column("name").desc), to: $0)
            } == "Barbara\nArthur\n")
    }

    @Test("Formats: quote, line, json, debug")
    func formats() throws {
        let dbQueue = try DatabaseQueue()
        let sql: SQL = "SELECT 1 AS id, 'O''Brien' AS name, NULL AS note, x'00FF' AS data, 1.5 AS score"
        #expect(
            try dump(dbQueue, sql, .quote(header: true))
                == "'id','name','note','data','score'\n1,'O''Brien',NULL,X'00FF',1.5\n")

        #expect(
            try dump(dbQueue, "SELECT 1 AS id, 'Arthur' AS name UNION ALL SELECT 2, NULL", .line())
                == "  id = 1\nname = Arthur\n\n  id = 2\nname = \n")

        #expect(
            try dump(dbQueue, sql, .json())
                == #"[{"id":1,"name":"O'Brien","note":null,"data":"AP8=","score":1.5}]"# + "\n")

        #expect(
            try dump(dbQueue, "SELECT 1 WHERE 0", .json()) == "[]\n")

        #expect(
            try dump(dbQueue, sql, .debug(separator: ", ", nullValue: "NULL")) == "1, O'Brien, NULL, X'00FF', 1.5\n")
    }

    /// The JSON dump of `sql`, pretty-printed.
    private func prettyJSONDump(_ dbQueue: DatabaseQueue, _ sql: SQL) throws -> String {
        let encoder = JSONDumpFormat.defaultEncoder
        encoder.outputFormatting.insert(.prettyPrinted)
        return try dump(dbQueue, sql, .json(encoder: encoder))
    }

    @Test("json(encoder:) honours prettyPrinted: one key per line, in column order")
    func prettyJSON() throws {
        let dbQueue = try DatabaseQueue()
        #expect(
            try prettyJSONDump(dbQueue, "SELECT 2 AS zeta, 'Arthur' AS alpha UNION ALL SELECT 3, NULL") == """
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
        #expect(try prettyJSONDump(dbQueue, "SELECT 1 WHERE 0") == "[]\n")
    }

    @Test("B45: the prettyPrinted JSON dump writes \"key\":value without a space")
    func prettyPrintedKeysHaveNoSpace() throws {
        #expect(
            try prettyJSONDump(DatabaseQueue(), "SELECT 1 AS id, 'foo' AS name") == """
                [
                  {
                    "id":1,
                    "name":"foo"
                  }
                ]

                """)
    }

    @Test("dumpSchema and dumpContent")
    func schemaAndContent() throws {
        let dbQueue = try makeQueue()
        let schema = TextCollector()
        try dbQueue.dumpSchema(to: schema)
        #expect(
            schema.text == """
                sqlite_master
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, teamId TEXT REFERENCES team(id), score REAL);
                CREATE INDEX player_on_teamId ON player(teamId);
                CREATE TABLE team (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                CREATE VIEW teamPlayer AS SELECT team.name AS team, player.name AS player
                  FROM player JOIN team ON team.id = player.teamId;

                """)
        let content = TextCollector()
        try dbQueue.dumpContent(to: content)
        #expect(
            content.text == schema.text + """

                player
                1|Arthur|red|
                2|Barbara|blue|12.5

                team
                blue|Blue
                red|Red

                """)
    }

    @Test("Dumps work from a queue and a pool, and inside an access", arguments: WriterKind.allCases)
    func writers(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.open(directory)
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
        }
        let stream = TextCollector()
        try writer.dumpTables(["t"], to: stream)
        try writer.write { db in try db.dumpSQL("SELECT a + 1 FROM t", to: stream) }
        #expect(stream.text == "1\n2\n")
    }
}
