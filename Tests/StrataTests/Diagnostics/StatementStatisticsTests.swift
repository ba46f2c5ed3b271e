import Foundation
import Strata
import StrataTestSupport
import Testing

/// The statement statistics (issue 32, part 2): per distinct statement,
/// executions, durations, rows and SQLite's counters, a snapshot sorted by
/// total time, and a reset.
struct StatementStatisticsTests {
    /// A queue with a collector, a `player` table of `players` rows without
    /// index on `teamId`, and a `team` table; the setup is not counted.
    private func database(players: Int = 10, maximumStatementCount: Int = 1000) throws
        -> (DatabaseQueue, StatementStatisticsCollector)
    {
        let statistics = StatementStatisticsCollector(maximumStatementCount: maximumStatementCount)
        var configuration = Configuration()
        configuration.statementStatistics = statistics
        let dbQueue = try inMemoryDatabase(
            """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER, name TEXT NOT NULL, score INTEGER);
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(players))
            INSERT INTO player (teamId, name, score) SELECT x % 2, 'p' || x, x FROM n;
            INSERT INTO team (id, name) VALUES (0, 'Even'), (1, 'Odd');
            """,
            configuration: configuration)
        statistics.reset()
        return (dbQueue, statistics)
    }

    /// The figures of the statement with this normalized SQL.
    private func figures(_ sql: String, in statistics: StatementStatisticsCollector) throws -> StatementStatistics {
        try #require(statistics.snapshot().first { $0.sql == sql }, "no statistics for \(sql)")
    }

    @Test("each distinct statement counts its executions and the rows it produced")
    func executionsAndRows() throws {
        let (dbQueue, statistics) = try database(players: 10)
        try dbQueue.read { db in
            for teamId in [0, 1, 0] {
                _ = try Row.fetchAll(db, sql: "SELECT * FROM player WHERE teamId = ?", arguments: [teamId])
            }
        }
        let select = try figures("SELECT * FROM player WHERE teamId = ?", in: statistics)
        #expect(select.executionCount == 3)
        #expect(select.rowCount == 15)
        #expect(select.failureCount == 0)
        #expect(select.tableName == "player")
        #expect(select.identifier.count == 16)
    }

    @Test("values written in the SQL count as one statement; IN lists of any length too")
    func normalization() throws {
        let (dbQueue, statistics) = try database()
        try dbQueue.read { db in
            _ = try Row.fetchAll(db, sql: "SELECT * FROM player WHERE id = 1")
            _ = try Row.fetchAll(db, sql: "SELECT * FROM player WHERE id = 2")
            _ = try Row.fetchAll(db, sql: "SELECT  *  FROM player -- a comment\n WHERE id = 3")
            _ = try Player.fetchAll(db, keys: [1, 2])
            _ = try Player.fetchAll(db, keys: [1, 2, 3, 4])
        }
        #expect(try figures("SELECT * FROM player WHERE id = ?", in: statistics).executionCount == 3)
        let keys = try figures(#"SELECT * FROM "player" WHERE "id" IN (...)"#, in: statistics)
        #expect(keys.executionCount == 2)
        #expect(keys.rowCount == 6)
    }

    @Test("writes name the table they write")
    func writtenTable() throws {
        let (dbQueue, statistics) = try database(players: 10)
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE player SET score = score + 1 WHERE teamId = ?", arguments: [1])
            try db.execute(sql: "INSERT INTO team (name) SELECT name FROM player WHERE id = 1")
        }
        let update = try figures("UPDATE player SET score = score + ? WHERE teamId = ?", in: statistics)
        #expect(update.tableName == "player")
        #expect(update.rowCount == 0)
        let insert = try figures("INSERT INTO team (name) SELECT name FROM player WHERE id = ?", in: statistics)
        #expect(insert.tableName == "team")
    }

    @Test("the first 16 executions of a statement are timed, then one in 8; counts stay exact")
    func timing() throws {
        let (dbQueue, statistics) = try database(players: 10)
        try dbQueue.read { db in
            // One compiled statement (`fetchOne(db, sql:)` compiles one per call).
            let statement = try db.cachedStatement(sql: "SELECT * FROM player WHERE id = ?")
            for id in 1...100 {
                _ = try Row.fetchOne(statement, arguments: [id % 10 + 1])
            }
        }
        let select = try figures("SELECT * FROM player WHERE id = ?", in: statistics)
        #expect(select.executionCount == 100)
        #expect(select.rowCount == 100)
        // 1...16, then 24, 32, ..., 96.
        #expect(select.timedExecutionCount == 16 + 10)
        #expect(select.totalDuration >= select.maximumDuration)
        #expect(select.totalDuration > 0)
    }

    @Test("the figures of cached statements count when the access ends; others at once")
    func accessEnd() throws {
        let (dbQueue, statistics) = try database()
        try dbQueue.read { db in
            _ = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM team"))
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
            #expect(!statistics.snapshot().contains { $0.sql == "SELECT COUNT(*) FROM team" })
            #expect(statistics.snapshot().contains { $0.sql == "SELECT COUNT(*) FROM player" })
        }
        #expect(try figures("SELECT COUNT(*) FROM team", in: statistics).executionCount == 1)
    }

    @Test("SQLite's counters tell full scans, sorts and automatic indexes apart")
    func sqliteCounters() throws {
        let (dbQueue, statistics) = try database(players: 50)
        try dbQueue.read { db in
            _ = try Row.fetchAll(db, sql: "SELECT * FROM player WHERE score > 10 ORDER BY name")
            _ = try Row.fetchAll(db, sql: "SELECT * FROM player WHERE id = 3")
            _ = try Row.fetchAll(
                db,
                sql: "SELECT player.id, team.id FROM player JOIN team ON team.name = player.name")
        }
        let scan = try figures("SELECT * FROM player WHERE score > ? ORDER BY name", in: statistics)
        #expect(scan.fullScanStepCount >= 49)
        #expect(scan.sortCount == 1)
        #expect(scan.virtualMachineStepCount > 0)
        let search = try figures("SELECT * FROM player WHERE id = ?", in: statistics)
        #expect(search.fullScanStepCount == 0)
        #expect(search.sortCount == 0)
        let join = try figures(
            "SELECT player.id, team.id FROM player JOIN team ON team.name = player.name", in: statistics)
        #expect(join.automaticIndexRowCount > 0)
    }

    @Test("counters are per execution: a second run adds the same again")
    func countersAreReadOncePerExecution() throws {
        let (dbQueue, statistics) = try database(players: 20)
        let sql = "SELECT * FROM player ORDER BY score DESC"
        _ = try dbQueue.read { db in try Row.fetchAll(db, sql: sql) }
        let once = try figures(sql, in: statistics)
        _ = try dbQueue.read { db in try Row.fetchAll(db, sql: sql) }
        let twice = try figures(sql, in: statistics)
        #expect(twice.sortCount == 2 * once.sortCount)
        #expect(twice.fullScanStepCount == 2 * once.fullScanStepCount)
        #expect(twice.virtualMachineStepCount == 2 * once.virtualMachineStepCount)
    }

    @Test("durations: median and 99th percentile within the maximum, total is the sum")
    func durations() throws {
        let (dbQueue, statistics) = try database()
        let slow = """
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 200000) \
            SELECT SUM(x) FROM n
            """
        try dbQueue.read { db in
            for _ in 0..<20 { _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") }
            _ = try Int.fetchOne(db, sql: slow)
        }
        let fast = try figures("SELECT COUNT(*) FROM team", in: statistics)
        #expect(fast.executionCount == 20)
        #expect(fast.medianDuration > 0)
        #expect(fast.medianDuration <= fast.p99Duration)
        #expect(fast.p99Duration <= fast.maximumDuration)
        #expect(fast.maximumDuration <= fast.totalDuration)
        #expect(abs(fast.averageDuration - fast.totalDuration / 20) < 1e-12)
        // The snapshot starts with the longest in total: the recursive query.
        let first = try #require(statistics.snapshot().first)
        #expect(first.sql.hasPrefix("WITH RECURSIVE n(x) AS (SELECT ? UNION ALL"))
        #expect(first.totalDuration > fast.maximumDuration)
    }

    @Test("an execution stopped early (fetchOne, a cursor dropped) counts, with the rows it produced")
    func stoppedExecutions() throws {
        let (dbQueue, statistics) = try database(players: 10)
        try dbQueue.read { db in
            _ = try Row.fetchOne(db, sql: "SELECT * FROM player ORDER BY id")
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM player WHERE teamId = 1")
            _ = try cursor.next()
            _ = try cursor.next()
        }
        #expect(try figures("SELECT * FROM player ORDER BY id", in: statistics).rowCount == 1)
        let cursor = try figures("SELECT * FROM player WHERE teamId = ?", in: statistics)
        #expect(cursor.executionCount == 1)
        #expect(cursor.rowCount == 2)
    }

    @Test("failed executions count as failures")
    func failures() throws {
        let (dbQueue, statistics) = try database()
        try dbQueue.write { db in
            for _ in 0..<2 {
                #expect(throws: DatabaseError.self) {
                    try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'dup')")
                }
            }
        }
        let insert = try figures("INSERT INTO player (id, name) VALUES (?, ?)", in: statistics)
        #expect(insert.executionCount == 2)
        #expect(insert.failureCount == 2)
        #expect(insert.timedExecutionCount == 2)
    }

    @Test("reset starts over, also for the statements already in the statement cache")
    func reset() throws {
        let (dbQueue, statistics) = try database()
        let request = Player.filter(Column("teamId") == 1)
        _ = try dbQueue.read { db in try request.fetchAll(db) }
        #expect(!statistics.snapshot().isEmpty)
        dbQueue.resetStatementStatistics()
        #expect(statistics.snapshot().isEmpty)
        #expect(dbQueue.statementStatistics().isEmpty)
        _ = try dbQueue.read { db in try request.fetchAll(db) }
        let figures = try figures(#"SELECT * FROM "player" WHERE "teamId" = ?"#, in: statistics)
        #expect(figures.executionCount == 1)
    }

    /// A pool with a collector and an empty `item` table.
    private func pool(_ directory: TemporaryDirectory, readers: Int = 5) throws
        -> (DatabasePool, StatementStatisticsCollector)
    {
        let statistics = StatementStatisticsCollector()
        var configuration = Configuration()
        configuration.statementStatistics = statistics
        configuration.maximumReaderCount = readers
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)") }
        return (dbPool, statistics)
    }

    @Test("the connections of a pool share the collector, and the pool gives its snapshot")
    func pool() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, statistics) = try pool(directory)
        for id in 1...3 {
            try dbPool.write { db in try db.execute(sql: "INSERT INTO item (id) VALUES (?)", arguments: [id]) }
            _ = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
        }
        let snapshot = dbPool.statementStatistics()
        #expect(snapshot.first { $0.sql == "INSERT INTO item (id) VALUES (?)" }?.executionCount == 3)
        #expect(snapshot.first { $0.sql == "SELECT COUNT(*) FROM item" }?.executionCount == 3)
        #expect(snapshot == statistics.snapshot())
    }

    @Test("without a collector, nothing is counted and the snapshot is empty")
    func off() throws {
        let dbQueue = try inMemoryDatabase("CREATE TABLE t(a)")
        _ = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM t") }
        #expect(dbQueue.configuration.statementStatistics == nil)
        #expect(dbQueue.statementStatistics().isEmpty)
        dbQueue.resetStatementStatistics()
    }

    @Test("past maximumStatementCount, new statements count together as (other statements)")
    func overflow() throws {
        let (dbQueue, statistics) = try database(maximumStatementCount: 2)
        // Outside of a transaction: BEGIN and COMMIT would be statements too.
        try dbQueue.inDatabase { db in
            _ = try Row.fetchAll(db, sql: "SELECT 1 FROM team")
            _ = try Row.fetchAll(db, sql: "SELECT 1 FROM player")
            _ = try Row.fetchAll(db, sql: "SELECT id FROM team")
            _ = try Row.fetchAll(db, sql: "SELECT id FROM player")
            _ = try Row.fetchAll(db, sql: "SELECT 1 FROM team")
        }
        let snapshot = statistics.snapshot()
        #expect(snapshot.count == 3)
        let other = try #require(snapshot.first { $0.identifier == "other" })
        #expect(other.sql == "(other statements)")
        #expect(other.executionCount == 2)
        #expect(try figures("SELECT ? FROM team", in: statistics).executionCount == 2)
    }

    @Test("the description gives the counts, the durations in milliseconds and the SQL")
    func description() throws {
        let (dbQueue, statistics) = try database(players: 4)
        _ = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY name") }
        let text = try figures("SELECT * FROM player ORDER BY name", in: statistics).description
        #expect(text.hasPrefix("1 executions, total "))
        #expect(text.contains(" ms, p50 "))
        #expect(text.contains(", 4 rows, "))
        #expect(text.contains("1 sorts"))
        #expect(text.hasSuffix(": SELECT * FROM player ORDER BY name"))
    }

    @Test("statistics encode to JSON, for an endpoint")
    func encoding() throws {
        let (dbQueue, statistics) = try database(players: 2)
        _ = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM player") }
        let data = try JSONEncoder().encode(statistics.snapshot())
        let decoded = try JSONDecoder().decode([StatementStatistics].self, from: data)
        #expect(decoded == statistics.snapshot())
    }

    @Test("statements outside of the statement cache are not kept alive, so that they block no commit")
    func uncachedStatementsAreReleased() throws {
        // SQLite says an EXPLAIN statement is still running after its last
        // row, until it is reset or finalized: kept alive until the end of
        // the access, it would make COMMIT fail ("SQL statements in
        // progress"). The query plan monitor runs one for each new statement.
        let statistics = StatementStatisticsCollector()
        var configuration = Configuration()
        configuration.statementStatistics = statistics
        configuration.queryPlanMonitor = QueryPlanMonitor { _ in }
        let dbQueue = try inMemoryDatabase(configuration: configuration) { db in
            try db.execute(sql: "CREATE TABLE t(a)")
        }
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            _ = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT * FROM t")
        }
        let explain = try figures("EXPLAIN QUERY PLAN SELECT * FROM t", in: statistics)
        #expect(explain.executionCount == 1)
        #expect(explain.timedExecutionCount == 1)
    }

    @Test("many connections recording at once lose no execution")
    func concurrentRecording() async throws {
        let directory = try TemporaryDirectory()
        let (dbPool, _) = try pool(directory, readers: 4)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<100 {
                        _ = try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(dbPool.statementStatistics().first { $0.sql == "SELECT COUNT(*) FROM item" }?.executionCount == 400)
    }
}
