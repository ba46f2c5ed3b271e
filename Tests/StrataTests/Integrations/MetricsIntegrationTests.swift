#if Metrics
    import Foundation
    import Metrics
    import MetricsTestKit
    import Strata
    import StrataTestSupport
    import Testing

    @Suite("Metrics integration (swift-metrics)")
    struct MetricsIntegrationTests {
        @Test("Statement durations, transactions and writer waits")
        func writerMetrics() throws {
            let metrics = TestMetrics()
            var config = Configuration()
            config.metrics = DatabaseMetrics(label: "db", dimensions: [("name", "main")], factory: metrics)
            let dbQueue = try DatabaseQueue(configuration: config)
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE t(a)")
                try db.execute(sql: "INSERT INTO t VALUES (1)")
            }
            try? dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                throw DatabaseError(resultCode: .SQLITE_ERROR)
            }
            let statements = try metrics.expectTimer("db.statement.duration", [("name", "main")])
            // BEGIN, CREATE, INSERT, COMMIT, BEGIN, INSERT (the rollback is bookkeeping, also timed).
            #expect(statements.values.count >= 6)
            #expect(statements.values.allSatisfy { $0 >= 0 })
            let commits = try metrics.expectCounter("db.transactions", [("name", "main"), ("outcome", "commit")])
            #expect(commits.totalValue == 1)
            let rollbacks = try metrics.expectCounter("db.transactions", [("name", "main"), ("outcome", "rollback")])
            #expect(rollbacks.totalValue == 1)
            let waits = try metrics.expectTimer("db.access.wait", [("name", "main"), ("role", "writer")])
            #expect(waits.values.count >= 2)
        }

        @Test("Readers in use and the time spent waiting for a reader")
        func readerMetrics() async throws {
            let metrics = TestMetrics()
            let directory = try TemporaryDirectory()
            var config = Configuration()
            config.maximumReaderCount = 1
            config.metrics = DatabaseMetrics(factory: metrics)
            let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: config)
            // Two reads for one reader: the second waits for the first.
            let (started, startedContinuation) = AsyncStream<Void>.makeStream()
            let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
            let first = Task {
                try await dbPool.read { _ in
                    startedContinuation.yield()
                    let semaphore = DispatchSemaphore(value: 0)
                    Task.detached {
                        for await _ in release { break }
                        semaphore.signal()
                    }
                    semaphore.wait()
                }
            }
            for await _ in started { break }
            let second = Task { try await dbPool.read { _ in 1 } }
            releaseContinuation.yield()
            try await first.value
            #expect(try await second.value == 1)
            let inUse = try metrics.expectGauge("strata.readers.in_use")
            #expect(inUse.values.contains(1))
            #expect(inUse.lastValue == 0)
            let waits = try metrics.expectTimer("strata.access.wait", [("role", "reader")])
            #expect(!waits.values.isEmpty)
        }

        @Test("Observation fetches are counted")
        func observationFetches() async throws {
            let metrics = TestMetrics()
            var config = Configuration()
            config.metrics = DatabaseMetrics(factory: metrics)
            let dbQueue = try DatabaseQueue(configuration: config)
            try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
            let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0
            }
            var iterator = observation.values(in: dbQueue).makeAsyncIterator()
            #expect(try await iterator.next() == 0)
            try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            #expect(try await iterator.next() == 1)
            let fetches = try metrics.expectCounter("strata.observation.fetches")
            #expect(fetches.totalValue == 2)
        }

        @Test("Statement statistics go to swift-metrics, labelled by statement hash and table, never by arguments")
        func statementStatistics() throws {
            let metrics = TestMetrics()
            let statistics = StatementStatisticsCollector()
            var config = Configuration()
            config.metrics = DatabaseMetrics(label: "db", dimensions: [("name", "main")], factory: metrics)
            config.statementStatistics = statistics
            let dbQueue = try DatabaseQueue(configuration: config)
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur'), ('Barbara')")
                _ = try Row.fetchAll(db, sql: "SELECT * FROM player WHERE name = 'Arthur'")
                _ = try Row.fetchAll(db, sql: "SELECT * FROM player WHERE name = 'Barbara'")
                _ = try? db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            }
            let select = try #require(
                statistics.snapshot().first { $0.sql == "SELECT * FROM player WHERE name = ?" })
            let dimensions = [("name", "main"), ("statement", select.identifier), ("table", "player")]
            #expect(try metrics.expectCounter("db.statement.executions", dimensions).totalValue == 2)
            #expect(try metrics.expectCounter("db.statement.rows", dimensions).totalValue == 2)
            #expect(try metrics.expectTimer("db.statement.time", dimensions).values.count == 2)
            let insert = try #require(
                statistics.snapshot().first { $0.sql == "INSERT INTO player (name) VALUES (?)" })
            let insertDimensions = [("name", "main"), ("statement", insert.identifier), ("table", "player")]
            #expect(try metrics.expectCounter("db.statement.failures", insertDimensions).totalValue == 1)
            // With metrics on, every execution is timed (not one in 8).
            try dbQueue.read { db in
                for _ in 0..<30 { _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
            }
            let count = try #require(statistics.snapshot().first { $0.sql == "SELECT COUNT(*) FROM player" })
            #expect(count.executionCount == 30)
            #expect(count.timedExecutionCount == 30)
            // No dimension holds an argument.
            for counter in metrics.counters {
                #expect(!counter.dimensions.contains { $0.1.contains("Arthur") || $0.1.contains("Barbara") })
            }
        }
    }
#endif
