#if Metrics
    import CoreMetrics
    import Foundation
    import Metrics

    /// What ``Configuration/metrics`` records through swift-metrics.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.metrics = DatabaseMetrics()
    /// ```
    ///
    /// Metrics are named after `label` (default "strata"):
    /// - `<label>.statement.duration`: timer of each statement.
    /// - `<label>.access.wait`: timer of the time accesses wait for their
    ///   connection, with the dimension `role` = `writer` or `reader`.
    /// - `<label>.readers.in_use`: gauge of the leased readers of a pool.
    /// - `<label>.transactions`: counter, with the dimension `outcome` =
    ///   `commit` or `rollback`.
    /// - `<label>.observation.fetches`: counter of value observation fetches.
    ///
    /// With ``Configuration/statementStatistics`` set too, each statement's
    /// figures, with the dimensions `statement` (a stable hash of its
    /// normalized SQL) and `table`: `<label>.statement.executions`,
    /// `.failures`, `.rows`, `.full_scan_steps`, `.sorts`,
    /// `.automatic_index_rows`, `.vm_steps` (counters) and `.time` (timer).
    ///
    /// Each connection makes its handles once, when it opens, from the
    /// factory of that moment. Each statement then costs two clock reads
    /// and one call to the duration timer's handler, and each access of a
    /// writer two clock reads and one call to the wait timer's handler. With
    /// the no-op factory (nothing bootstrapped), none of it happens.
    public struct DatabaseMetrics: Sendable {
        /// The prefix of metric labels.
        public var label: String
        /// Dimensions added to every metric (a database name, for example).
        public var dimensions: [(String, String)]
        /// The factory; nil uses the one bootstrapped in `MetricsSystem`.
        public var factory: (any MetricsFactory)?

        /// Metrics named after `label`, with extra dimensions.
        public init(
            label: String = "strata", dimensions: [(String, String)] = [], factory: (any MetricsFactory)? = nil
        ) {
            self.label = label
            self.dimensions = dimensions
            self.factory = factory
        }
    }

    /// Records metrics through swift-metrics (``Configuration/metrics``).
    ///
    /// Its handles are made once per connection, when it opens, from the
    /// factory of that moment. Each statement costs two clock reads and one
    /// call to the duration timer's handler; each access of a writer, two
    /// clock reads and one call to the wait timer's handler. With the no-op
    /// factory (nothing bootstrapped in `MetricsSystem`, or
    /// `NOOPMetricsHandler`), whose handlers throw every value away, the
    /// connection times no statement and no access.
    final class MetricsInstrument: DatabaseInstrument {
        let statementDuration: Timer
        let writerWait: Timer
        let readerWait: Timer
        let readersInUse: Gauge
        let commits: Counter
        let rollbacks: Counter
        let observationFetches: Counter

        /// Whether the factory throws every value away.
        let isNoOp: Bool

        init(_ metrics: DatabaseMetrics) {
            let factory = metrics.factory ?? MetricsSystem.factory
            isNoOp = factory is NOOPMetricsHandler
            let label = metrics.label
            let dimensions = metrics.dimensions
            statementDuration = Timer(
                label: "\(label).statement.duration", dimensions: dimensions, factory: factory)
            writerWait = Timer(
                label: "\(label).access.wait", dimensions: dimensions + [("role", "writer")], factory: factory)
            readerWait = Timer(
                label: "\(label).access.wait", dimensions: dimensions + [("role", "reader")], factory: factory)
            readersInUse = Gauge(label: "\(label).readers.in_use", dimensions: dimensions, factory: factory)
            commits = Counter(
                label: "\(label).transactions", dimensions: dimensions + [("outcome", "commit")], factory: factory)
            rollbacks = Counter(
                label: "\(label).transactions", dimensions: dimensions + [("outcome", "rollback")], factory: factory)
            observationFetches = Counter(
                label: "\(label).observation.fetches", dimensions: dimensions, factory: factory)
        }

        var statementTiming: StatementTiming { isNoOp ? .none : .every }

        var timesAccesses: Bool { !isNoOp }

        func readersInUseDidChange(label: String, count: Int) {
            readersInUse.record(count)
        }

        func readerWaitDidEnd(label: String, seconds: Double) {
            readerWait.recordNanoseconds(Int64(seconds * 1e9))
        }

        func accessDidStart(_ access: DatabaseAccessContext, _ db: Database) {
            // Readers of a pool report their wait in `readerWaitDidEnd`:
            // once leased, a reader is theirs alone.
            guard access.role == .writer, access.waitStart != 0 else { return }
            writerWait.recordNanoseconds(Int64(access.start &- access.waitStart))
        }

        func statementDidExecute(_ statement: Statement, _ db: Database) {
            recordDuration(of: statement)
        }

        func statementDidFail(_ statement: Statement, _ db: Database, error: DatabaseError) {
            recordDuration(of: statement)
        }

        private func recordDuration(of statement: Statement) {
            let nanoseconds = DispatchTime.now().uptimeNanoseconds &- statement.instrumentedStart
            statementDuration.recordNanoseconds(Int64(nanoseconds))
        }

        func transactionDidEnd(_ db: Database, committed: Bool) {
            (committed ? commits : rollbacks).increment()
        }

        func observationDidFetch(_ db: Database) {
            observationFetches.increment()
        }
    }
#endif
