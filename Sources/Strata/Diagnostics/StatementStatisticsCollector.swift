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
/// With the `Metrics` trait and ``Configuration/metrics`` set, each
/// execution also goes to swift-metrics, labelled by the statement's
/// ``StatementStatistics/identifier`` and ``StatementStatistics/tableName``
/// (never by its arguments): see `DatabaseMetrics`.
///
/// Cost: nothing when it is nil (the default). When it is set, each
/// execution reads the clock twice, reads four SQLite counters, and updates
/// the figures of its statement under a lock of their own; each new
/// statement object has its SQL normalized once. `Benchmarks/RESULTS.md`
/// measures it.
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

    /// Records an execution of a statement in the entry of its SQL.
    @inline(__always)
    func record(_ execution: StatementStatisticsEntry.Execution, of statement: Statement)
        -> StatementStatisticsEntry?
    {
        // The attachment is only ever an entry (see `Statement.instrumentAttachment`):
        // no dynamic cast.
        if let attachment = statement.instrumentAttachment {
            let entry = unsafeDowncast(attachment, to: StatementStatisticsEntry.self)
            if entry.collectorID == ObjectIdentifier(self) && entry.record(execution) {
                return entry
            }
        }
        // A new statement, or its entry was retired by a reset: if a reset
        // retires this one too, the execution belongs before the reset.
        let entry = lookUpEntry(for: statement)
        return entry.record(execution) ? entry : nil
    }

    /// The entry of a statement's SQL, kept on the statement.
    private func lookUpEntry(for statement: Statement) -> StatementStatisticsEntry {
        let normalized = NormalizedSQL(statement.sql)
        let entry = state.withLock { state -> StatementStatisticsEntry in
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
        statement.instrumentAttachment = entry
        return entry
    }

    /// The table a statement writes, or else the first it reads.
    private static func tableName(of statement: Statement) -> String? {
        if let written = statement.eventKinds.first { return written.tableName }
        return statement.compiledRegion.tableRegions?.keys.min()
    }
}

/// The figures of one statement, under a lock of their own (the entry is
/// the lock: one allocation, no closure per execution).
final class StatementStatisticsEntry: PlatformLock, @unchecked Sendable {
    /// The figures that executions update, under the lock.
    struct Figures {
        var executionCount = 0
        var failureCount = 0
        var totalNanoseconds: UInt64 = 0
        var minimumNanoseconds: UInt64 = .max
        var maximumNanoseconds: UInt64 = 0
        var rowCount = 0
        var changedRowCount = 0
        var fullScanStepCount = 0
        var sortCount = 0
        var automaticIndexRowCount = 0
        var virtualMachineStepCount = 0
        /// Whether a reset removed the entry from its collector.
        var isRetired = false
    }

    /// One execution, as the instrument measured it.
    struct Execution {
        var nanoseconds: UInt64
        var failed: Bool
        var rowCount: Int
        var changedRowCount: Int
        var fullScanStepCount: Int32
        var sortCount: Int32
        var automaticIndexRowCount: Int32
        var virtualMachineStepCount: Int32
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
    /// execution (the `Metrics` trait; nil otherwise).
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

    /// Adds an execution to the figures; false when the entry was retired
    /// by a reset.
    @inline(__always)
    func record(_ execution: Execution) -> Bool {
        lock()
        defer { unlock() }
        guard !figures.isRetired else { return false }
        let nanoseconds = execution.nanoseconds
        figures.executionCount &+= 1
        if execution.failed { figures.failureCount &+= 1 }
        figures.totalNanoseconds &+= nanoseconds
        if nanoseconds < figures.minimumNanoseconds { figures.minimumNanoseconds = nanoseconds }
        if nanoseconds > figures.maximumNanoseconds { figures.maximumNanoseconds = nanoseconds }
        durations[DurationHistogram.bucket(of: nanoseconds)] &+= 1
        figures.rowCount &+= execution.rowCount
        figures.changedRowCount &+= execution.changedRowCount
        figures.fullScanStepCount &+= Int(execution.fullScanStepCount)
        figures.sortCount &+= Int(execution.sortCount)
        figures.automaticIndexRowCount &+= Int(execution.automaticIndexRowCount)
        figures.virtualMachineStepCount &+= Int(execution.virtualMachineStepCount)
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
        return StatementStatistics(
            sql: sql, identifier: identifier, tableName: tableName,
            executionCount: figures.executionCount, failureCount: figures.failureCount,
            totalDuration: seconds(figures.totalNanoseconds),
            medianDuration: seconds(histogram.percentile(0.5)),
            p99Duration: seconds(histogram.percentile(0.99)),
            maximumDuration: seconds(figures.maximumNanoseconds),
            rowCount: figures.rowCount, changedRowCount: figures.changedRowCount,
            fullScanStepCount: figures.fullScanStepCount, sortCount: figures.sortCount,
            automaticIndexRowCount: figures.automaticIndexRowCount,
            virtualMachineStepCount: figures.virtualMachineStepCount)
    }
}

/// Measures the executions of one connection's statements for a collector
/// (made by ``Configuration`` for each connection).
final class StatementStatisticsInstrument: DatabaseInstrument {
    let collector: StatementStatisticsCollector
    /// Sends each execution to swift-metrics too (the `Metrics` trait).
    let export: (@Sendable (StatementStatisticsEntry, StatementStatisticsEntry.Execution) -> Void)?

    init(
        collector: StatementStatisticsCollector,
        export: (@Sendable (StatementStatisticsEntry, StatementStatisticsEntry.Execution) -> Void)?
    ) {
        self.collector = collector
        self.export = export
    }

    func statementDidExecute(_ statement: Statement, _ db: Database) {
        record(statement, db, failed: false)
    }

    func statementDidFail(_ statement: Statement, _ db: Database, error: DatabaseError) {
        record(statement, db, failed: true)
    }

    private func record(_ statement: Statement, _ db: Database, failed: Bool) {
        let start = statement.instrumentedStart
        guard start != 0 else { return }
        let nanoseconds = DispatchTime.now().uptimeNanoseconds &- start
        let handle = statement.sqliteStatement
        // Read and reset, so that the next execution counts from zero.
        let execution = StatementStatisticsEntry.Execution(
            nanoseconds: nanoseconds, failed: failed, rowCount: statement.steppedRowCount,
            changedRowCount: failed || statement.eventKinds.isEmpty ? 0 : Int(sqlite3_changes(db.sqliteConnection)),
            fullScanStepCount: sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_FULLSCAN_STEP, 1),
            sortCount: sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_SORT, 1),
            automaticIndexRowCount: sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_AUTOINDEX, 1),
            virtualMachineStepCount: sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_VM_STEP, 1))
        if let entry = collector.record(execution, of: statement), let export {
            export(entry, execution)
        }
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
