import Strata
import StrataTestSupport
import Testing

/// The query plan monitor (issue 32, part 1): statements are explained when
/// they enter a statement cache, once, and the steps that suggest a missing
/// index are reported with a suggestion.
struct QueryPlanMonitorTests {
    /// A queue whose monitor records its reports, with players and teams,
    /// and an index on player(teamId) only when asked.
    private func database(indexed: Bool, minimumRowCount: Int = 0, players: Int = 3) throws
        -> (DatabaseQueue, LockedBox<[QueryPlanReport]>)
    {
        let reports = LockedBox<[QueryPlanReport]>([])
        var configuration = Configuration()
        configuration.queryPlanMonitor = QueryPlanMonitor(minimumRowCount: minimumRowCount) { reports.append($0) }
        let dbQueue = try inMemoryDatabase(
            """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER, name TEXT, score INTEGER);
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(players))
            INSERT INTO player (teamId, name, score) SELECT x % 2, 'p' || x, x FROM n;
            """ + (indexed ? "CREATE INDEX player_on_teamId ON player(teamId);" : ""),
            configuration: configuration)
        reports.value = []
        return (dbQueue, reports)
    }

    @Test("a filter on a column without an index reports a scan, with the index to create")
    func scanIsReported() throws {
        let (dbQueue, reports) = try database(indexed: false)
        _ = try dbQueue.read { db in try Player.filter(Column("teamId") == 1).fetchCount(db) }
        let report = try #require(reports.value.first)
        #expect(reports.value.count == 1)
        #expect(report.step.detail == "SCAN player")
        #expect(report.table == "player")
        #expect(report.suggestion == "an index on player(teamId) would let SQLite search instead of scan")
        #expect(report.sql == #"SELECT COUNT(*) FROM "player" WHERE "teamId" = ?"#)
    }

    @Test("with the index, the same request reports nothing")
    func indexRemovesTheReport() throws {
        let (dbQueue, reports) = try database(indexed: true)
        _ = try dbQueue.read { db in try Player.filter(Column("teamId") == 1).fetchCount(db) }
        #expect(reports.value.isEmpty)
    }

    @Test("the same statement is explained once, on every connection of a pool")
    func explainedOnce() throws {
        let directory = try TemporaryDirectory()
        let reports = LockedBox<[QueryPlanReport]>([])
        var configuration = Configuration()
        configuration.queryPlanMonitor = QueryPlanMonitor { reports.append($0) }
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, kind TEXT)") }
        let sql = "SELECT * FROM item WHERE kind = ?"
        for _ in 0..<3 {
            _ = try dbPool.read { db in try Row.fetchAll(db, sql: sql, arguments: ["a"]) }
            _ = try dbPool.write { db in try Row.fetchAll(db, sql: sql, arguments: ["b"]) }
        }
        #expect(reports.value.map(\.sql) == [sql])
        #expect(reports.value.first?.suggestion == "an index on item(kind) would let SQLite search instead of scan")
    }

    @Test("scans of tables with fewer rows than the threshold are not reported")
    func rowThreshold() throws {
        let (small, smallReports) = try database(indexed: false, minimumRowCount: 100, players: 99)
        _ = try small.read { db in try Player.filter(Column("teamId") == 1).fetchAll(db) }
        #expect(smallReports.value.isEmpty)
        let (large, largeReports) = try database(indexed: false, minimumRowCount: 100, players: 100)
        _ = try large.read { db in try Player.filter(Column("teamId") == 1).fetchAll(db) }
        #expect(largeReports.value.map(\.step.detail) == ["SCAN player"])
    }

    @Test("an alias, an automatic index and a temporary B-tree are reported with their tables and suggestions")
    func otherProblems() throws {
        let (dbQueue, reports) = try database(indexed: true)
        try dbQueue.read { db in
            _ = try Row.fetchAll(db, sql: "SELECT * FROM player p WHERE p.score > 10")
            _ = try Row.fetchAll(db, sql: "SELECT * FROM player JOIN team ON team.name = player.name")
            _ = try Row.fetchAll(db, sql: "SELECT * FROM player WHERE teamId = 1 ORDER BY score")
        }
        let found = reports.value.map { [$0.step.detail, $0.table ?? "-", $0.suggestion ?? "-"] }
        #expect(
            found == [
                ["SCAN p", "player", "an index on player(score) would let SQLite search instead of scan"],
                ["SCAN player", "player", "an index on player(name) would let SQLite search instead of scan"],
                [
                    "SEARCH team USING AUTOMATIC COVERING INDEX (name=?)", "team",
                    "an index on team(name) would save building one at each run",
                ],
                [
                    "USE TEMP B-TREE FOR ORDER BY", "-",
                    "an index on the columns of ORDER BY, in that order, would save the temporary B-tree",
                ],
            ])
    }

    @Test("transactions, pragmas and the library's schema queries are not explained; writes are")
    func whatIsExplained() throws {
        let (dbQueue, reports) = try database(indexed: false)
        try dbQueue.write { db in
            _ = try db.columns(in: "player")
            _ = try Int.fetchOne(db, sql: "PRAGMA user_version")
            try db.execute(sql: "UPDATE player SET score = 0 WHERE name = ?", arguments: ["p1"])
        }
        #expect(reports.value.map(\.sql) == ["UPDATE player SET score = 0 WHERE name = ?"])
    }

    @Test("without a monitor, nothing is explained")
    func offByDefault() throws {
        let log = SQLLog()
        let dbQueue = try inMemoryDatabase("CREATE TABLE t (a)", recordingIn: log)
        _ = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM t WHERE a = 1") }
        #expect(!log.statements().contains { $0.hasPrefix("EXPLAIN") })
        #expect(Configuration().queryPlanMonitor == nil)
    }
}
