import Foundation
import Strata
import StrataTestSupport
import Testing

/// Runs the samples of `Sources/Strata/Strata.docc/Diagnostics.md`: each
/// ```swift block of the article is a piece of this file
/// (`ArticleSampleTests` checks it).
struct DiagnosticsGuideTests {
    struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64?
        var teamId: Int64
        var name: String
        var score: Int
    }

    /// The game server's schema: players and teams, and no index on
    /// `player.teamId` (the mistake the article finds).
    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("teamId", .integer).notNull()  // no index: the mistake
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }
        return migrator
    }

    /// A pool of the server's database, with 2 teams and 2,000 players.
    static func makeServerDatabase(_ directory: TemporaryDirectory, configuration: Configuration) throws
        -> DatabasePool
    {
        let dbPool = try DatabasePool(path: directory.path("game.sqlite"), configuration: configuration)
        try migrator().migrate(dbPool)
        try dbPool.write { db in
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Red'), (2, 'Blue')")
            for i in 0..<2000 {
                try Player(id: nil, teamId: Int64(i % 2 + 1), name: "Player \(i)", score: i).insert(db)
            }
        }
        return dbPool
    }

    @Test("a query plan shows the scan, and the index turns it into a search")
    func queryPlans() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try Self.makeServerDatabase(directory, configuration: Configuration())
        try dbPool.read { db in
            let teamId: Int64 = 1
            let plan = try Player.filter(Column("teamId") == teamId).order(Column("score").desc).queryPlan(db)
            print(plan)
            // QUERY PLAN
            // |--SCAN player
            // `--USE TEMP B-TREE FOR ORDER BY
            #expect(plan.description == "QUERY PLAN\n|--SCAN player\n`--USE TEMP B-TREE FOR ORDER BY")
            #expect(plan.problems.map(\.detail) == ["SCAN player", "USE TEMP B-TREE FOR ORDER BY"])
        }
        try dbPool.write { db in
            try db.create(index: "player_on_teamId_score", on: "player", columns: ["teamId", "score"])
        }
        try dbPool.read { db in
            let plan = try db.queryPlan(sql: "SELECT * FROM player WHERE teamId = ? ORDER BY score DESC")
            print(plan)
            // QUERY PLAN
            // `--SEARCH player USING INDEX player_on_teamId_score (teamId=?)
            #expect(plan.problems.isEmpty)
            #expect(plan.steps.map(\.detail) == ["SEARCH player USING INDEX player_on_teamId_score (teamId=?)"])
        }
    }

    @Test("the query plan monitor reports the scan of the team page, once")
    func monitor() throws {
        let directory = try TemporaryDirectory()
        let reports = LockedBox<[String]>([])
        let log: @Sendable (String) -> Void = { reports.append($0) }

        var config = Configuration()
        config.queryPlanMonitor = QueryPlanMonitor(minimumRowCount: 1000) { report in
            log(report.description)
        }
        let dbPool = try Self.makeServerDatabase(directory, configuration: config)

        // The team page, requested twice.
        for _ in 0..<2 {
            _ = try dbPool.read { db in
                try Player.filter(Column("teamId") == 1).fetchAll(db)
            }
        }
        #expect(
            reports.value.filter { $0.contains("SCAN player") } == [
                #"Query plan: SCAN player (an index on player(teamId) would let SQLite search instead of scan)"#
                    + #" in: SELECT * FROM "player" WHERE "teamId" = ?"#
            ])
    }

    @Test("statement statistics rank the statements by the time they take")
    func statistics() throws {
        let directory = try TemporaryDirectory()
        let statistics = StatementStatisticsCollector()
        var config = Configuration()
        config.statementStatistics = statistics
        let dbPool = try Self.makeServerDatabase(directory, configuration: config)
        dbPool.resetStatementStatistics()

        // Traffic: the team page 50 times, a player's page 200 times.
        for i in 0..<200 {
            _ = try dbPool.read { db in try Player.fetchOne(db, key: Int64(i + 1)) }
            if i % 4 == 0 {
                _ = try dbPool.read { db in try Player.filter(Column("teamId") == 1).fetchAll(db) }
            }
        }

        for statement in dbPool.statementStatistics().prefix(3) {
            print(statement)
        }
        // 50 executions, total 31.205 ms, p50 0.583 ms, p99 1.210 ms, max 1.390 ms, 50000 rows,
        //   99950 full scan steps: SELECT * FROM "player" WHERE "teamId" = ?
        // 200 executions, total 1.570 ms, ...: SELECT * FROM "player" WHERE "id" = ?
        // ...

        let top = try #require(dbPool.statementStatistics().first)
        #expect(top.sql == #"SELECT * FROM "player" WHERE "teamId" = ?"#)
        #expect(top.executionCount == 50)
        #expect(top.rowCount == 50_000)
        #expect(top.fullScanStepCount >= 50 * 1999)
        let byId = try #require(dbPool.statementStatistics().first { $0.sql.hasSuffix(#""id" = ?"#) })
        #expect(byId.executionCount == 200)
        #expect(byId.fullScanStepCount == 0)
    }
}
