import Dispatch
import Foundation

/// Counts what the connections of a database do with each statement:
/// executions, durations (total, median, 99th percentile), rows, and
/// SQLite's own counters of full scans, sorts and automatic indexes.
///
/// Set one on ``Configuration/statementStatistics``; all the connections
/// of a pool (or of several databases) that share the configuration share
/// the collector. Read the figures with ``snapshot()`` (or
/// `dbPool.statementStatistics()`), slowest in total first, and start over
/// with ``reset()``:
///
/// ```swift
/// let statistics = StatementStatisticsCollector()
/// var config = Configuration()
/// config.statementStatistics = statistics
/// let dbPool = try DatabasePool(path: path, configuration: config)
/// // ... later
/// for statement in statistics.snapshot().prefix(5) {
///     print(statement)  // 1200 executions, total 310.522 ms, p50 0.201 ms, ...: SELECT ...
/// }
/// ```
///
/// Executions, rows and SQLite's counters are exact. Durations are
/// measured for the first 16 executions of each compiled statement, then
/// for one in 8 (for all of them when `Configuration.metrics` or
/// `Configuration.tracing` also time statements): the total of a
/// statement that ran more often is the mean of its timed executions
/// times its executions (see ``StatementStatistics/timedExecutionCount``).
///
/// The figures of an access count when the access ends: a snapshot taken
/// during a long access does not show that access yet.
///
/// With the `Metrics` trait and `Configuration.metrics` set, the figures
/// also go to swift-metrics, labelled by the statement's
/// ``StatementStatistics/identifier`` and ``StatementStatistics/tableName``
/// (never by its arguments): see `DatabaseMetrics`.
///
/// Cost: nothing when it is nil (the default). When it is set, a few
/// instructions per execution, two clock reads per timed execution, and at
/// the end of each access, for each statement it ran, four SQLite counters
/// read and the statement's figures updated under a lock of their own.
/// Each new statement object has its SQL normalized once.
/// `Benchmarks/RESULTS.md` measures it.
public final class StatementStatisticsCollector: Sendable {
    /// The statements by normalized SQL, and the overflow entry.
    private struct State {
        var entries: [String: StatementStatisticsEntry] = [:]
        var overflow: StatementStatisticsEntry?
    }

    private let state = Mutex(State())

    /// The number of distinct statements the collector keeps apart; the
    /// statements after it count together, as "(other statements)".
    public let maximumStatementCount: Int

    /// Creates a collector.
    ///
    /// - parameter maximumStatementCount: The number of distinct statements
    ///   kept apart (1,000 by default): beyond, the memory would grow with
    ///   each statement built from values written in its SQL, and the
    ///   others count as one.
    public init(maximumStatementCount: Int = 1000) {
        self.maximumStatementCount = max(1, maximumStatementCount)
    }

    /// The figures of each statement that ran since the collector was
    /// created or reset, the longest in total first.
    public func snapshot() -> [StatementStatistics] {
        let entries = state.withLock { state in
            Array(state.entries.values) + (state.overflow.map { [$0] } ?? [])
        }
        return entries.compactMap { $0.statistics() }.sorted {
            ($0.totalDuration, $1.sql) > ($1.totalDuration, $0.sql)
        }
    }

    /// Starts over: the next snapshot only counts what runs from now on,
    /// and the statements counted so far no longer use up
    /// ``maximumStatementCount``.
    public func reset() {
        let entries = state.withLock { state in
            let entries = Array(state.entries.values) + (state.overflow.map { [$0] } ?? [])
            state = State()
            return entries
        }
        // The statements that keep a retired entry find their new one at
        // their next execution.
        for entry in entries { entry.retire() }
    }

    /// The entry of a statement's SQL, found once per statement object
    /// (and again after a reset).
    func entry(for statement: Statement) -> StatementStatisticsEntry {
        let normalized = NormalizedSQL(statement.sql)
        return state.withLock { state -> StatementStatisticsEntry in
            if let entry = state.entries[normalized.text] { return entry }
            if state.entries.count >= maximumStatementCount {
                if let overflow = state.overflow { return overflow }
                let overflow = StatementStatisticsEntry(
                    collector: self, sql: "(other statements)", identifier: "other", tableName: nil)
                state.overflow = overflow
                return overflow
            }
            let entry = StatementStatisticsEntry(
                collector: self, sql: normalized.text, identifier: normalized.identifier,
                tableName: Self.tableName(of: statement))
            state.entries[normalized.text] = entry
            return entry
        }
    }

    /// The table a statement writes, or else the first it reads.
    private static func tableName(of statement: Statement) -> String? {
        if let written = statement.eventKinds.first { return written.tableName }
        return statement.compiledRegion.tableRegions?.keys.min()
    }
}

/// What one compiled statement ran since its figures last went to its
/// entry: kept on the statement (`Statement.instrumentAttachment`), used by
/// its connection only, so without a lock.
final class StatementStatisticsRecorder {
    /// The entry of the statement's SQL.
    var entry: StatementStatisticsEntry
    /// The statement's counts when they last went to the entry.
    var recordedExecutionCount = 0
    var recordedRowCount = 0
    var recordedFailureCount = 0
    /// The durations of the timed executions since, in nanoseconds.
    var durations: [UInt64] = []

    init(entry: StatementStatisticsEntry) {
        self.entry = entry
        durations.reserveCapacity(Self.maximumPendingDurations)
    }

    /// Past this number of pending durations, they go to the entry at once.
    static let maximumPendingDurations = 64
}

/// The figures of one statement, under a lock of their own (the entry is
/// the lock: one allocation, no closure).
final class StatementStatisticsEntry: PlatformLock, @unchecked Sendable {
    /// The figures, under the lock.
    struct Figures {
        var executionCount = 0
        var failureCount = 0
        var timedCount = 0
        var timedNanoseconds: UInt64 = 0
        var minimumNanoseconds: UInt64 = .max
        var maximumNanoseconds: UInt64 = 0
        var rowCount = 0
        var fullScanStepCount = 0
        var sortCount = 0
        var automaticIndexRowCount = 0
        var virtualMachineStepCount = 0
        /// Whether a reset removed the entry from its collector.
        var isRetired = false
    }

    /// What a statement ran since its last report.
    struct Report {
        var executionCount: Int
        var failureCount: Int
        var rowCount: Int
        var fullScanStepCount: Int
        var sortCount: Int
        var automaticIndexRowCount: Int
        var virtualMachineStepCount: Int
    }

    /// The collector the entry belongs to.
    let collectorID: ObjectIdentifier
    let sql: String
    let identifier: String
    let tableName: String?
    private var figures = Figures()
    /// The counts of durations by bucket of ``DurationHistogram``, under
    /// the lock.
    private let durations: UnsafeMutablePointer<UInt32>
    /// The swift-metrics handles of the statement, made at its first
    /// report (the `Metrics` trait; nil otherwise).
    let metricsHandles = Mutex<AnyObject?>(nil)

    init(collector: StatementStatisticsCollector, sql: String, identifier: String, tableName: String?) {
        self.collectorID = ObjectIdentifier(collector)
        self.sql = sql
        self.identifier = identifier
        self.tableName = tableName
        durations = .allocate(capacity: DurationHistogram.bucketCount)
        durations.initialize(repeating: 0, count: DurationHistogram.bucketCount)
        super.init()
    }

    deinit {
        durations.deallocate()
    }

    /// Adds a report and durations to the figures; false when the entry
    /// was retired by a reset.
    func add(_ report: Report, durations timed: [UInt64]) -> Bool {
        lock()
        defer { unlock() }
        guard !figures.isRetired else { return false }
        figures.executionCount &+= report.executionCount
        figures.failureCount &+= report.failureCount
        figures.rowCount &+= report.rowCount
        figures.fullScanStepCount &+= report.fullScanStepCount
        figures.sortCount &+= report.sortCount
        figures.automaticIndexRowCount &+= report.automaticIndexRowCount
        figures.virtualMachineStepCount &+= report.virtualMachineStepCount
        for nanoseconds in timed {
            figures.timedCount &+= 1
            figures.timedNanoseconds &+= nanoseconds
            if nanoseconds < figures.minimumNanoseconds { figures.minimumNanoseconds = nanoseconds }
            if nanoseconds > figures.maximumNanoseconds { figures.maximumNanoseconds = nanoseconds }
            durations[DurationHistogram.bucket(of: nanoseconds)] &+= 1
        }
        return true
    }

    /// Stops the entry from recording (the collector was reset).
    func retire() {
        lock()
        defer { unlock() }
        figures.isRetired = true
    }

    /// The public figures, or nil when nothing ran since the last reset.
    func statistics() -> StatementStatistics? {
        lock()
        let figures = self.figures
        let counts = Array(UnsafeBufferPointer(start: durations, count: DurationHistogram.bucketCount))
        unlock()
        guard figures.executionCount > 0 else { return nil }
        let histogram = DurationHistogram(
            counts: counts, minimum: figures.minimumNanoseconds, maximum: figures.maximumNanoseconds)
        func seconds(_ nanoseconds: UInt64?) -> TimeInterval {
            Double(nanoseconds ?? 0) / 1e9
        }
        // The mean of the timed executions, times the executions.
        let total =
            figures.timedCount == 0
            ? 0
            : Double(figures.timedNanoseconds) / 1e9 * Double(figures.executionCount) / Double(figures.timedCount)
        return StatementStatistics(
            sql: sql, identifier: identifier, tableName: tableName,
            executionCount: figures.executionCount, failureCount: figures.failureCount,
            timedExecutionCount: figures.timedCount,
            totalDuration: total,
            medianDuration: seconds(histogram.percentile(0.5)),
            p99Duration: seconds(histogram.percentile(0.99)),
            maximumDuration: seconds(figures.timedCount == 0 ? 0 : figures.maximumNanoseconds),
            rowCount: figures.rowCount,
            fullScanStepCount: figures.fullScanStepCount, sortCount: figures.sortCount,
            automaticIndexRowCount: figures.automaticIndexRowCount,
            virtualMachineStepCount: figures.virtualMachineStepCount)
    }
}

/// Measures the statements of one connection for a collector (made by
/// ``Configuration`` for each connection).
///
/// The connection tells it of the timed executions (their durations wait
/// on the statement), and at the end of each access, of the statements
/// that ran (their counts since their last report, and SQLite's counters,
/// go to their entries).
final class StatementStatisticsInstrument: DatabaseInstrument {
    let collector: StatementStatisticsCollector
    /// Sends each report to swift-metrics too (the `Metrics` trait).
    let export: (@Sendable (StatementStatisticsEntry, StatementStatisticsEntry.Report, [UInt64]) -> Void)?

    init(
        collector: StatementStatisticsCollector,
        export: (@Sendable (StatementStatisticsEntry, StatementStatisticsEntry.Report, [UInt64]) -> Void)?
    ) {
        self.collector = collector
        self.export = export
    }

    var statementTiming: StatementTiming { .sampled }
    var tracksStatementRuns: Bool { true }

    func statementDidExecute(_ statement: Statement, _ db: Database) {
        recordDuration(of: statement, db)
    }

    func statementDidFail(_ statement: Statement, _ db: Database, error: DatabaseError) {
        recordDuration(of: statement, db)
    }

    func statementsDidRun(_ statements: [Statement], _ db: Database) {
        for statement in statements { report(statement) }
    }

    /// Keeps the duration of a timed execution on its statement.
    private func recordDuration(of statement: Statement, _ db: Database) {
        let start = statement.instrumentedStart
        guard start != 0 else { return }
        let nanoseconds = DispatchTime.now().uptimeNanoseconds &- start
        let recorder = self.recorder(of: statement)
        recorder.durations.append(nanoseconds)
        // A statement outside of the statement cache is reported at once:
        // the connection does not keep it until the end of the access.
        if !statement.isCached || recorder.durations.count >= StatementStatisticsRecorder.maximumPendingDurations {
            report(statement)
        }
    }

    /// The recorder of a statement, made at its first report.
    private func recorder(of statement: Statement) -> StatementStatisticsRecorder {
        if let attachment = statement.instrumentAttachment {
            // Only the statement statistics set it: no dynamic cast.
            return unsafeDowncast(attachment, to: StatementStatisticsRecorder.self)
        }
        let recorder = StatementStatisticsRecorder(entry: collector.entry(for: statement))
        statement.instrumentAttachment = recorder
        return recorder
    }

    /// Sends what a statement ran since its last report to its entry.
    private func report(_ statement: Statement) {
        let recorder = self.recorder(of: statement)
        let handle = statement.sqliteStatement
        // Read and reset, so that the next report counts from zero.
        let report = StatementStatisticsEntry.Report(
            executionCount: statement.executionCount &- recorder.recordedExecutionCount,
            failureCount: statement.failureCount &- recorder.recordedFailureCount,
            rowCount: statement.steppedRowCount &- recorder.recordedRowCount,
            fullScanStepCount: Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_FULLSCAN_STEP, 1)),
            sortCount: Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_SORT, 1)),
            automaticIndexRowCount: Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_AUTOINDEX, 1)),
            virtualMachineStepCount: Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_VM_STEP, 1)))
        recorder.recordedExecutionCount = statement.executionCount
        recorder.recordedFailureCount = statement.failureCount
        recorder.recordedRowCount = statement.steppedRowCount
        let durations = recorder.durations
        recorder.durations.removeAll(keepingCapacity: true)
        guard report.executionCount != 0 || !durations.isEmpty else { return }
        var entry = recorder.entry
        if entry.collectorID != ObjectIdentifier(collector) || !entry.add(report, durations: durations) {
            // Retired by a reset: the statement's SQL has a new entry. If a
            // reset retires it too, the report belongs before the reset.
            entry = collector.entry(for: statement)
            recorder.entry = entry
            guard entry.add(report, durations: durations) else { return }
        }
        export?(entry, report, durations)
    }
}

extension StatementStatisticsCollector {
    /// The instrument of one connection whose configuration holds this
    /// collector.
    func makeStatisticsInstrument(_ configuration: Configuration) -> any DatabaseInstrument {
        #if Metrics
            if let metrics = configuration.metrics {
                return StatementStatisticsInstrument(
                    collector: self, export: StatementMetricsExporter(metrics).export)
            }
        #endif
        return StatementStatisticsInstrument(collector: self, export: nil)
    }
}
