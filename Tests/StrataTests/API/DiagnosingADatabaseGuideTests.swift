import Foundation
import Strata
import StrataTestSupport
import Testing

/// Runs the samples of `Sources/Strata/Strata.docc/DiagnosingADatabase.md`: each
/// ```swift block of the article is a piece of this file
/// (`ArticleSampleTests` checks it).
struct DiagnosingADatabaseGuideTests {
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

    @Test("the storage health monitor's configuration, as the article shows it")
    func storageHealthConfiguration() throws {
        let directory = try TemporaryDirectory()
        let warnings = LockedBox<[String]>([])
        let log: @Sendable (String) -> Void = { warnings.append($0) }

        var config = Configuration()
        config.storageHealthMonitor = StorageHealthMonitor(
            walSizeLimit: 64 * 1024 * 1024,  // warn when the WAL passes 64 MB
            readTransactionThreshold: 30  // warn when a read stays open 30 s while the WAL grows
        ) { warning in
            log(warning.description)  // also logged as a warning with the Logging trait
        }
        let dbPool = try Self.makeServerDatabase(directory, configuration: config)
        #expect(try dbPool.storageHealth().isMonitored)
        #expect(warnings.value.isEmpty)
    }

    @Test("a long read makes the WAL grow; the monitor names it; the recipe brings the WAL back to 0")
    func longRead() async throws {
        let directory = try TemporaryDirectory()
        let warnings = Waitable<[String]>([])
        var config = Configuration()
        config.storageHealthMonitor = StorageHealthMonitor(walSizeLimit: 1_000_000, readTransactionThreshold: 0) {
            warning in warnings.update { $0.append(warning.description) }
        }
        let dbPool = try Self.makeServerDatabase(directory, configuration: config)

        // The nightly export reads every player in one read transaction,
        // which a snapshot stands for here (it stays open until closed).
        let export = try StorageHealthMonitor.$accessLabel.withValue("nightly export") {
            try dbPool.makeSnapshot()
        }
        // Meanwhile, the server writes: the WAL grows, for SQLite cannot
        // checkpoint past the export's read.
        for i in 0..<500 {
            try await dbPool.write { db in
                try Player(id: nil, teamId: 1, name: String(repeating: "x", count: 2000), score: i).insert(db)
            }
        }
        try await warnings.wait("two warnings") { $0.count >= 2 }
        for warning in warnings.value { print(warning) }
        #expect(warnings.value.contains { $0.hasPrefix("Storage health: the WAL is ") })
        #expect(warnings.value.contains { $0.contains("by nightly export") })

        let busy = try dbPool.storageHealth()
        print(busy)
        #expect(try #require(busy.walSize) > 1_000_000)
        #expect(busy.oldestReadTransaction?.label == "nightly export")

        try export.close()
        let result = try dbPool.walCheckpoint(.truncate)
        if !result.isComplete {
            // A reader is still open: try again later.
        }
        #expect(result.isComplete)

        let health = try dbPool.storageHealth()
        print(health)
        #expect(health.walSize == 0)
        #expect(health.walFileSize == 0)
    }

    @Test("the linked SQLite in the logs, and a check before raw SQL that needs a feature")
    func linkedSQLite() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try Self.makeServerDatabase(directory, configuration: Configuration())
        var log = TextCollector()

        let sqlite = try dbPool.read { db in db.linkedSQLite }
        print(sqlite, to: &log)

        // The leaderboard ranks players with a window function:
        let leaderboard = try dbPool.read { db in
            try db.requireSQLiteFeature(.windowFunctions)
            return try Row.fetchAll(
                db, sql: "SELECT name, rank() OVER (ORDER BY score DESC) AS rank FROM player LIMIT 3")
        }

        #expect(log.text.hasPrefix("SQLite 3."))
        #expect(log.text.contains("window functions"))
        #expect(leaderboard.map { $0["rank"] as Int } == [1, 2, 3])
        #expect(leaderboard.first?["name"] == "Player 1999")
    }
}
