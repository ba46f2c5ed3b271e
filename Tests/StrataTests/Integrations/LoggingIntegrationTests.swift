#if Logging
    import Foundation
    import InMemoryLogging
    import Logging
    import Strata
    import StrataTestSupport
    import Testing

    /// A logger whose entries the test can read, at every level.
    private func makeLogger() -> (Logger, InMemoryLogHandler) {
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        let logger = Logger(label: "test") { _ in handler }
        return (logger, handler)
    }

    /// Forwards log events to another handler, and calls `signal` for those
    /// of a given level.
    private struct SignalingLogHandler: LogHandler {
        var base: any LogHandler
        let level: Logger.Level
        let signal: @Sendable () -> Void

        var metadata: Logger.Metadata {
            get { base.metadata }
            set { base.metadata = newValue }
        }
        var logLevel: Logger.Level {
            get { base.logLevel }
            set { base.logLevel = newValue }
        }
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { base[metadataKey: key] }
            set { base[metadataKey: key] = newValue }
        }

        func log(event: LogEvent) {
            base.log(event: event)
            if event.level == level { signal() }
        }
    }

    @Suite("Logging integration (swift-log)")
    struct LoggingIntegrationTests {
        @Test("Statements are logged at trace level, connections at info")
        func statementsAndConnections() throws {
            let (logger, handler) = makeLogger()
            var config = Configuration()
            config.logger = logger
            let dbQueue = try DatabaseQueue(configuration: config)
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE t(a)")
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [1])
            }
            try dbQueue.close()
            let entries = handler.entries
            #expect(entries.contains { $0.level == .info && "\($0.message)" == "Opened database connection" })
            #expect(entries.contains { $0.level == .info && "\($0.message)" == "Closed database connection" })
            let traced = entries.filter { $0.level == .trace }.map { "\($0.message)" }
            #expect(traced.contains("CREATE TABLE t(a)"))
            #expect(traced.contains("INSERT INTO t VALUES (?)"))
        }

        @Test("Slow statements are logged with their duration, arguments only when public", arguments: [false, true])
        func slowStatements(publicArguments: Bool) throws {
            let (logger, handler) = makeLogger()
            var config = Configuration()
            config.logger = logger
            config.slowStatementThreshold = 0
            config.publicStatementArguments = publicArguments
            let dbQueue = try DatabaseQueue(configuration: config)
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE t(a)")
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["secret"])
            }
            let slow = handler.entries.filter { $0.level == .warning }
            let insert = try #require(slow.first { "\($0.message)".hasSuffix("INSERT INTO t VALUES (?)") })
            #expect("\(insert.message)".hasPrefix("Slow statement ("))
            #expect(insert.metadata["db.duration"] != nil)
            #expect(insert.metadata["db.query.text"] == "INSERT INTO t VALUES (?)")
            if publicArguments {
                #expect(insert.metadata["db.query.arguments"] == "[\"secret\"]")
            } else {
                #expect(insert.metadata["db.query.arguments"] == nil)
                #expect(!"\(slow)".contains("secret"))
            }
        }

        @Test("No slow statement log under the threshold")
        func fastStatements() throws {
            let (logger, handler) = makeLogger()
            var config = Configuration()
            config.logger = logger
            config.slowStatementThreshold = 60
            let dbQueue = try DatabaseQueue(configuration: config)
            try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
            #expect(handler.entries.allSatisfy { $0.level != .warning })
        }

        @Test("A pool logs the growth of its readers")
        func readerGrowth() throws {
            let (logger, handler) = makeLogger()
            let directory = try TemporaryDirectory()
            var config = Configuration()
            config.logger = logger
            let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: config)
            try dbPool.read { _ in }
            #expect(handler.entries.contains { $0.level == .info && "\($0.message)" == "Opened reader 1 of 5" })
        }

        @Test("A read that stays open longer than the threshold is logged as a warning, a short one is not")
        func longReads() throws {
            let (base, handler) = makeLogger()
            // Signals each warning, so that the long read ends as soon as it
            // was reported.
            let warned = DispatchSemaphore(value: 0)
            let logger = Logger(label: "test") { _ in
                SignalingLogHandler(base: base.handler, level: .warning, signal: { warned.signal() })
            }
            let directory = try TemporaryDirectory()
            var config = Configuration()
            config.logger = logger
            config.longReadTransactionThreshold = 0.05
            let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: config)
            func warnings() -> [String] {
                handler.entries.filter { $0.level == .warning }.map { "\($0.message)" }
            }
            try dbPool.read { _ in }
            try dbPool.read { _ in
                #expect(warned.wait(timeout: .now() + 10) == .success)
            }
            #expect(warnings().count == 1)
            #expect(warnings().first?.hasPrefix("Read access open for more than 0.05s") == true)
        }

        @Test("SQLite's error log reaches a logger")
        func errorLog() async {
            // SQLite accepts its log function before any connection opens:
            // in a process of its own.
            await #expect(processExitsWith: .success) {
                var handler = InMemoryLogHandler()
                handler.logLevel = .trace
                Database.logErrors(to: Logger(label: "sqlite") { _ in handler })
                let dbQueue = try DatabaseQueue()
                _ = try? dbQueue.read { db in try db.execute(sql: "SELECT * FROM missingTableForLogTest") }
                let logged = handler.entries.contains {
                    $0.level == .error && "\($0.message)".contains("no such table: missingTableForLogTest")
                }
                exit(logged ? 0 : 1)
            }
        }

        @Test("The query plan monitor's reports are logged as warnings")
        func queryPlanReportsAreWarnings() throws {
            let (logger, handler) = makeLogger()
            let reports = Counter()
            var config = Configuration()
            config.logger = logger
            config.queryPlanMonitor = QueryPlanMonitor { _ in reports.increment() }
            let dbQueue = try DatabaseQueue(configuration: config)
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, kind TEXT)")
                _ = try Row.fetchAll(db, sql: "SELECT * FROM item WHERE kind = 'a'")
            }
            let warnings = handler.entries.filter { $0.level == .warning }.map { "\($0.message)" }
            #expect(
                warnings == [
                    "Query plan: SCAN item (an index on item(kind) would let SQLite search instead of scan) "
                        + "in: SELECT * FROM item WHERE kind = 'a'"
                ])
            #expect(reports.value == 1)
        }

        @Test("The storage health monitor's warnings are logged as warnings")
        func storageHealthWarningsAreWarnings() throws {
            let (logger, handler) = makeLogger()
            let directory = try TemporaryDirectory()
            let warnings = Counter()
            var config = Configuration()
            config.logger = logger
            config.storageHealthMonitor = StorageHealthMonitor(walSizeLimit: 10_000) { _ in warnings.increment() }
            let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: config)
            try dbPool.write { db in
                try db.execute(sql: "CREATE TABLE t (b BLOB)")
                try db.execute(sql: "INSERT INTO t VALUES (randomblob(20000))")
            }
            let logged = handler.entries.filter { $0.level == .warning }.map { "\($0.message)" }
            #expect(logged.count == 1)
            #expect(logged.first?.hasPrefix("Storage health: the WAL is ") == true)
            #expect(logged.first?.hasSuffix("above the limit of 10000 bytes") == true)
            #expect(warnings.value == 1)
        }
    }
#endif
