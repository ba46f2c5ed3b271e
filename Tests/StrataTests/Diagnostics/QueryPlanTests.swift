import Strata
import StrataTestSupport
import Testing

/// Query plans (issue 32, part 1): the tree of EXPLAIN QUERY PLAN, what each
/// step does, and its text as the sqlite3 shell prints it.
struct QueryPlanTests {
    /// Players and teams, with an index on player(teamId) only when asked.
    private func database(indexed: Bool) throws -> DatabaseQueue {
        try inMemoryDatabase(
            """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER, name TEXT, score INTEGER);
            """ + (indexed ? "CREATE INDEX player_on_teamId ON player(teamId);" : ""))
    }

    @Test("a filter on a column without an index is a full scan, a problem")
    func fullScan() throws {
        try database(indexed: false).read { db throws in
            let plan = try Player.filter(Column("teamId") == 1).queryPlan(db)
            #expect(plan.steps.map(\.operation) == [.scan(table: "player", index: nil)])
            #expect(plan.problems.map(\.detail) == ["SCAN player"])
            #expect(plan.description == "QUERY PLAN\n`--SCAN player")
        }
    }

    @Test("with the index, the same filter is a search, and no problem")
    func search() throws {
        try database(indexed: true).read { db throws in
            let plan = try Player.filter(Column("teamId") == 1).queryPlan(db)
            #expect(
                plan.steps.map(\.operation) == [
                    .search(table: "player", index: .named("player_on_teamId", covering: false))
                ])
            #expect(plan.steps.map(\.detail) == ["SEARCH player USING INDEX player_on_teamId (teamId=?)"])
            #expect(plan.problems.isEmpty)
        }
    }

    @Test("a covering index, the rowid, and a temporary B-tree for ORDER BY")
    func indexesAndTemporaryBTree() throws {
        try database(indexed: true).read { db throws in
            let covering = try db.queryPlan(sql: "SELECT teamId FROM player WHERE teamId > ?", arguments: [2])
            #expect(
                covering.steps.map(\.operation) == [
                    .search(table: "player", index: .named("player_on_teamId", covering: true))
                ])
            let byID = try db.queryPlan(sql: "SELECT * FROM player WHERE id = 1")
            #expect(byID.steps.map(\.operation) == [.search(table: "player", index: .rowID)])
            let sorted = try db.queryPlan(sql: "SELECT * FROM player p WHERE teamId = 1 ORDER BY score")
            #expect(
                sorted.steps.map(\.operation) == [
                    .search(table: "p", index: .named("player_on_teamId", covering: false)),
                    .temporaryBTree(purpose: "ORDER BY"),
                ])
            #expect(sorted.problems.map(\.detail) == ["USE TEMP B-TREE FOR ORDER BY"])
        }
    }

    @Test("an automatic index and a correlated subquery are problems; the tree prints as the shell's")
    func automaticIndexAndSubquery() throws {
        try database(indexed: false).read { db throws in
            let joined = try db.queryPlan(sql: "SELECT * FROM player JOIN team ON team.name = player.name")
            #expect(
                joined.steps.map(\.operation) == [
                    .scan(table: "player", index: nil),
                    .search(table: "team", index: .automaticIndex(covering: true)),
                ])
            #expect(joined.problems.count == 2)

            let correlated = try db.queryPlan(
                sql: "SELECT name, (SELECT name FROM team WHERE team.id = player.teamId) FROM player")
            #expect(correlated.steps.count == 2)
            #expect(correlated.steps[1].operation == .subquery(correlated: true))
            #expect(correlated.steps[1].children.map(\.operation) == [.search(table: "team", index: .rowID)])
            #expect(
                correlated.description == """
                    QUERY PLAN
                    |--SCAN player
                    `--CORRELATED SCALAR SUBQUERY 1
                       `--SEARCH team USING INTEGER PRIMARY KEY (rowid=?)
                    """)
        }
    }

    @Test("subqueries, constant rows, WITHOUT ROWID keys and virtual tables")
    func otherSteps() throws {
        try inMemoryWrite(
            """
            CREATE TABLE pair (a, b, PRIMARY KEY (a, b)) WITHOUT ROWID;
            CREATE VIRTUAL TABLE document USING fts5(body);
            CREATE TABLE t (x INTEGER);
            """
        ) { db throws in
            #expect(
                try db.queryPlan(sql: "SELECT * FROM pair WHERE a = 1").steps.map(\.operation) == [
                    .search(table: "pair", index: .primaryKey)
                ])
            let constant = try db.queryPlan(sql: "SELECT 1")
            #expect(constant.steps.map(\.detail) == ["SCAN CONSTANT ROW"])
            #expect(constant.problems.isEmpty)
            let fts = try db.queryPlan(sql: "SELECT * FROM document WHERE document MATCH 'x'")
            guard case .scan("document", .virtualTable)? = fts.steps.first?.operation else {
                Issue.record("unexpected plan \(fts)")
                return
            }
            #expect(fts.problems.isEmpty)
            let nested = try db.queryPlan(sql: "SELECT * FROM (SELECT x, count(*) FROM t GROUP BY x LIMIT 3)")
            #expect(nested.steps.first?.operation == .other)
            #expect(nested.allSteps.map(\.detail).contains("USE TEMP B-TREE FOR GROUP BY"))
            #expect(!nested.problems.map(\.detail).contains("SCAN (subquery-1)"))
        }
    }

    @Test("the plan of a request with arguments, and an invalid statement throws")
    func argumentsAndErrors() throws {
        try database(indexed: true).read { db throws in
            let request = SQLRequest<Row>(
                sql: "SELECT * FROM player WHERE teamId = ? AND score > ?", arguments: [1, 10])
            #expect(try request.queryPlan(db).steps.count == 1)
            #expect(throws: DatabaseError.self) { try db.queryPlan(sql: "SELECT * FROM missing") }
            #expect(throws: DatabaseError.self) { try db.queryPlan(sql: "SELECT ?", arguments: [1, 2]) }
        }
    }

    @Test("a reader of a pool explains with the index another connection created since its last read")
    func readerSeesNewIndex() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        let sql = "SELECT * FROM player WHERE teamId = ? ORDER BY score DESC"
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, teamId INTEGER, score INTEGER)")
        }
        let before = try dbPool.read { db in try db.queryPlan(sql: sql) }
        #expect(before.steps.map(\.detail) == ["SCAN player", "USE TEMP B-TREE FOR ORDER BY"])
        try dbPool.write { db in
            try db.create(index: "player_on_teamId_score", on: "player", columns: ["teamId", "score"])
        }
        // EXPLAIN does not check the schema cookie: without a fresh schema,
        // the reader would still say SCAN.
        let after = try dbPool.read { db in try db.queryPlan(sql: sql) }
        #expect(after.steps.map(\.detail) == ["SEARCH player USING COVERING INDEX player_on_teamId_score (teamId=?)"])
    }
}
