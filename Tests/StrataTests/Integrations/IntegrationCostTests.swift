#if Logging || Metrics || Tracing
    import Foundation
    @testable import Strata
    import StrataTestSupport
    import Testing

    #if Logging
        import Logging
    #endif
    #if Metrics
        import Metrics
        import MetricsTestKit
    #endif
    #if Tracing
        import InMemoryTracing
        import Tracing
    #endif

    // What the integrations cost when their output is thrown away (issue
    // 34): the connection's per-access decision (`instrumentStatementTiming`,
    // the access's attachments and clock reads) is read inside the access,
    // hence `@testable`.

    #if Logging
        /// A log handler that records what reaches it, counts the reads of its
        /// level, and whose level the test changes at any time (every copy of
        /// the handler shares it).
        private struct RecordingLogHandler: LogHandler {
            let level: LockedBox<Logger.Level>
            let levelReads = StrataTestSupport.Counter()
            let records = LockedBox<[(level: Logger.Level, message: String)]>([])
            var metadata: Logger.Metadata = [:]

            init(level: Logger.Level) {
                self.level = LockedBox(level)
            }

            var logLevel: Logger.Level {
                get {
                    levelReads.increment()
                    return level.value
                }
                set { level.value = newValue }
            }

            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                records.append((event.level, "\(event.message)"))
            }

            /// The messages recorded at `level`.
            func messages(_ level: Logger.Level) -> [String] {
                records.value.filter { $0.level == level }.map(\.message)
            }
        }

        @Suite("Logging integration, above its levels")
        struct LoggingCostTests {
            @Test("Above debug and without a threshold, no statement is timed and no message reaches the handler")
            func quietAboveDebug() throws {
                let handler = RecordingLogHandler(level: .info)
                var config = Configuration()
                config.logger = Logger(label: "test") { _ in handler }
                let dbQueue = try DatabaseQueue(configuration: config)
                try dbQueue.write { db in
                    #expect(db.instrumentStatementTiming == .none)
                    try db.execute(sql: "CREATE TABLE t(a)")
                    _ = try? db.execute(sql: "INSERT INTO missing VALUES (1)")
                }
                #expect(handler.records.value.allSatisfy { $0.level == .info })
            }

            @Test("The level is read once per access, not once per statement")
            func levelReadOncePerAccess() throws {
                let handler = RecordingLogHandler(level: .warning)
                var config = Configuration()
                config.logger = Logger(label: "test") { _ in handler }
                config.slowStatementThreshold = 60
                let dbQueue = try DatabaseQueue(configuration: config)
                let before = handler.levelReads.value
                try dbQueue.write { db in
                    // The slow-statement threshold needs every statement timed.
                    #expect(db.instrumentStatementTiming == .every)
                    try db.execute(sql: "CREATE TABLE t(a)")
                    for i in 0..<20 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [i]) }
                }
                #expect(handler.levelReads.value - before == 1)
                #expect(handler.records.value.isEmpty)
            }

            @Test("A change of level takes effect from the next access")
            func levelChangeAtNextAccess() throws {
                let handler = RecordingLogHandler(level: .info)
                var config = Configuration()
                config.logger = Logger(label: "test") { _ in handler }
                let dbQueue = try DatabaseQueue(configuration: config)
                try dbQueue.read { db in
                    _ = try Int.fetchOne(db, sql: "SELECT 1")
                    handler.level.value = .trace
                    _ = try Int.fetchOne(db, sql: "SELECT 2")
                }
                try dbQueue.read { db in _ = try Int.fetchOne(db, sql: "SELECT 3") }
                let traced = handler.messages(.trace)
                #expect(!traced.contains("SELECT 1"))
                #expect(!traced.contains("SELECT 2"))
                #expect(traced.contains("SELECT 3"))
            }

            @Test("A slow statement is logged at warning, with no trace message")
            func slowStatementAboveDebug() throws {
                let handler = RecordingLogHandler(level: .warning)
                var config = Configuration()
                config.logger = Logger(label: "test") { _ in handler }
                config.slowStatementThreshold = 0
                let dbQueue = try DatabaseQueue(configuration: config)
                try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
                #expect(handler.messages(.warning).contains { $0.hasSuffix("): CREATE TABLE t(a)") })
                #expect(handler.messages(.trace).isEmpty)
            }

            @Test("Without a long-read threshold, accesses read no clock")
            func noAccessClock() throws {
                let handler = RecordingLogHandler(level: .trace)
                var config = Configuration()
                config.logger = Logger(label: "test") { _ in handler }
                let dbQueue = try DatabaseQueue(configuration: config)
                try dbQueue.read { db in
                    #expect(db.currentAccess?.waitStart == 0)
                    #expect(db.currentAccess?.start == 0)
                }
            }
        }
    #endif

    #if Metrics
        @Suite("Metrics integration, its handles and clock reads")
        struct MetricsCostTests {
            @Test("Each statement's duration is recorded once, and each access's wait once")
            func oneRecordPerStatement() throws {
                let metrics = TestMetrics()
                let log = SQLLog()
                var config = log.configuration()
                config.metrics = DatabaseMetrics(factory: metrics)
                let dbQueue = try DatabaseQueue(configuration: config)
                try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
                let durations = try metrics.expectTimer("strata.statement.duration")
                let waits = try metrics.expectTimer("strata.access.wait", [("role", "writer")])
                let (statementsBefore, waitsBefore) = (durations.values.count, waits.values.count)
                log.clear()
                for i in 0..<10 {
                    try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [i]) }
                    _ = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
                }
                #expect(durations.values.count - statementsBefore == log.statements().count)
                #expect(waits.values.count - waitsBefore == 20)
                #expect(durations.values.allSatisfy { $0 >= 0 && $0 < 60_000_000_000 })
            }

            @Test("With the no-op factory, no statement and no access is timed")
            func noOpFactory() throws {
                var config = Configuration()
                config.metrics = DatabaseMetrics(factory: NOOPMetricsHandler.instance)
                let dbQueue = try DatabaseQueue(configuration: config)
                try dbQueue.write { db in
                    #expect(db.instrumentStatementTiming == .none)
                    #expect(db.currentAccess?.waitStart == 0)
                    try db.execute(sql: "CREATE TABLE t(a)")
                }
            }
        }
    #endif

    #if Tracing
        @Suite("Tracing integration, with a no-op tracer")
        struct TracingCostTests {
            @Test(
                "A no-op tracer creates no span: nothing attached to the access, no statement timed",
                arguments: [true, false])
            func noOpTracer(configured: Bool) throws {
                var config = Configuration()
                // Not configured: the tests bootstrap no tracer, so
                // InstrumentationSystem's is the no-op one.
                config.tracing = configured ? DatabaseTracing(tracer: NoOpTracer()) : DatabaseTracing()
                let dbQueue = try DatabaseQueue(configuration: config)
                try dbQueue.write { db in
                    #expect(db.currentAccess?.attachments.isEmpty == true)
                    #expect(db.currentAccess?.waitStart == 0)
                    #expect(db.instrumentStatementTiming == .none)
                    try db.execute(sql: "CREATE TABLE t(a)")
                }
            }

            #if Metrics
                @Test("With metrics on, a no-op tracer still hears of no statement of the access")
                func noOpTracerBesideMetrics() throws {
                    var config = Configuration()
                    config.metrics = DatabaseMetrics(factory: TestMetrics())
                    config.tracing = DatabaseTracing(tracer: NoOpTracer())
                    let dbQueue = try DatabaseQueue(configuration: config)
                    try dbQueue.write { db in
                        // Metrics time every statement...
                        #expect(db.instrumentStatementTiming == .every)
                        // ...and the composite calls the metrics instrument only.
                        let composite = try #require(db.instrument as? CompositeDatabaseInstrument)
                        let listeners = composite.statementListeners
                        #expect(listeners.nonzeroBitCount == 1)
                        #expect(composite.instruments[listeners.trailingZeroBitCount] is MetricsInstrument)
                        try db.execute(sql: "CREATE TABLE t(a)")
                    }
                }
            #endif

            @Test("The tracer is decided per access: one bound with withTracer traces the accesses it wraps only")
            func taskLocalTracer() throws {
                // The in-memory tracer keeps every span it starts (active or
                // finished): it counts the calls to startSpan.
                let tracer = InMemoryTracer()
                var config = Configuration()
                config.tracing = DatabaseTracing()
                let dbQueue = try DatabaseQueue(configuration: config)
                try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
                try withTracer(tracer) {
                    _ = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
                }
                _ = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE a > 0") }
                #expect(tracer.activeSpans.isEmpty)
                let spans = tracer.finishedSpans
                let accesses = spans.filter { $0.operationName == "db.write" }
                #expect(accesses.count == 1)
                let texts = spans.compactMap { $0.attributes["db.query.text"]?.toSpanAttribute() }
                #expect(texts.contains("SELECT COUNT(*) FROM t"))
                #expect(!texts.contains("SELECT COUNT(*) FROM t WHERE a > 0"))
                #expect(!texts.contains("CREATE TABLE t(a)"))
                #expect(
                    spans.allSatisfy { $0.operationName == "db.write" || $0.parentSpanID == accesses.first?.spanID })
            }
        }
    #endif
#endif
