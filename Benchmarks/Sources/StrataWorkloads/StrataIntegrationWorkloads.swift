#if Integrations
    import CoreMetrics
    import Foundation
    import Logging
    import Strata
    import Tracing
    import WorkloadSupport

    // Issue 34: what Strata's integrations cost a server's most common access,
    // a fetch by primary key, each alone and all three, set as a server sets
    // them (the example server's settings).

    /// Which of Strata's integrations a workload turns on.
    public struct StrataIntegrations: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `configuration.logger` at `warning`, with a slow-statement
        /// threshold: the log of a server in production.
        public static let logging = StrataIntegrations(rawValue: 1)
        /// `configuration.metrics`, to a factory that does the least a backend
        /// does (`SummingMetrics`).
        public static let metrics = StrataIntegrations(rawValue: 2)
        /// `configuration.tracing`, with no tracer bootstrapped: every span is
        /// a no-op, as in a server that does not export traces.
        public static let tracing = StrataIntegrations(rawValue: 4)
        public static let all: StrataIntegrations = [.logging, .metrics, .tracing]

        /// The workloads' suffixes: `off`, `logging`, `metrics`, `tracing`, `all`.
        public static let named: [(String, StrataIntegrations)] = [
            ("off", []), ("logging", .logging), ("metrics", .metrics), ("tracing", .tracing), ("all", .all),
        ]
    }

    /// The least a metrics backend does: each handler adds to a count and a
    /// sum. Not synchronized: the workloads run on one thread.
    public final class SummingMetrics: MetricsFactory, @unchecked Sendable {
        final class Handler: CounterHandler, RecorderHandler, TimerHandler, MeterHandler, @unchecked Sendable {
            var count: Int64 = 0
            var sum: Double = 0

            func increment(by amount: Int64) { count &+= amount }
            func reset() { (count, sum) = (0, 0) }
            func record(_ value: Int64) { (count, sum) = (count &+ 1, sum + Double(value)) }
            func record(_ value: Double) { (count, sum) = (count &+ 1, sum + value) }
            func recordNanoseconds(_ duration: Int64) { (count, sum) = (count &+ 1, sum + Double(duration)) }
            func set(_ value: Int64) { sum = Double(value) }
            func set(_ value: Double) { sum = value }
            func increment(by amount: Double) { sum += amount }
            func decrement(by amount: Double) { sum -= amount }
        }

        public init() {}

        public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler { Handler() }
        public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler
        {
            Handler()
        }
        public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { Handler() }
        public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler { Handler() }
        public func destroyCounter(_ handler: any CounterHandler) {}
        public func destroyRecorder(_ handler: any RecorderHandler) {}
        public func destroyTimer(_ handler: any TimerHandler) {}
        public func destroyMeter(_ handler: any MeterHandler) {}
    }

    /// A player of the `player` table (`Fixture.playerSetup`).
    struct KeyedPlayer: FetchableRecord, TableRecord {
        static let databaseTableName = "player"
        var id: Int64
        var name: String
        var score: Int

        init(row: Row) {
            id = row["id"]
            name = row["name"]
            score = row["score"]
        }
    }

    /// One read access per fetch of a player by primary key, on a queue whose
    /// configuration turns on some of Strata's integrations.
    public final class StrataKeyedReads: @unchecked Sendable {
        let dbQueue: DatabaseQueue

        public init(integrations: StrataIntegrations) throws {
            var configuration = Configuration()
            if integrations.contains(.logging) {
                // The handler would print the warnings; none comes in this workload.
                var logger = Logger(label: "strata") { StreamLogHandler.standardError(label: $0) }
                logger.logLevel = .warning
                configuration.logger = logger
                // Every statement is timed, whatever the threshold; one that
                // no statement reaches, since under valgrind a fetch passes
                // 0.1 s at times, and its warning would make counts vary.
                configuration.slowStatementThreshold = 10
            }
            if integrations.contains(.metrics) {
                configuration.metrics = DatabaseMetrics(factory: SummingMetrics())
            }
            if integrations.contains(.tracing) {
                configuration.tracing = DatabaseTracing()
            }
            dbQueue = try DatabaseQueue(configuration: configuration)
            try dbQueue.write { db in
                for sql in Fixture.playerSetup { try db.execute(sql: sql) }
            }
        }

        /// `count` accesses, each `dbQueue.read { KeyedPlayer.fetchOne(db, key:) }`,
        /// over the keys of the table in a scattered order. Returns the sum of
        /// the scores.
        public func fetchByPrimaryKey(count: Int) throws -> Int {
            var sum = 0
            for i in 0..<count {
                let key = Int64((i &* 7919) % Fixture.playerCount + 1)
                let player = try dbQueue.read { db in try KeyedPlayer.fetchOne(db, key: key) }
                sum &+= player?.score ?? 0
            }
            return sum
        }
    }
#endif
