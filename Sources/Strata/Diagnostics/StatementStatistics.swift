import Foundation

/// What the connections did with one statement, since the statistics
/// started or were last reset: see ``StatementStatisticsCollector``.
///
/// Statements count as one when their SQL is the same once the values
/// written in it are replaced by `?`: `WHERE id = 1` and `WHERE id = 2` are
/// one statement, and so are `IN (?, ?)` and `IN (?, ?, ?)`. Arguments are
/// never kept.
///
/// Durations are from the first step of an execution to its end (its last
/// row, its reset when a cursor or `fetchOne` stopped early, or its error),
/// in seconds, of the timed executions: the first 16 of each compiled
/// statement, then one in 8 (see ``StatementStatisticsCollector``).
/// Percentiles are estimates within 6.25% of the duration they stand for.
public struct StatementStatistics: Sendable, Hashable, Codable {
    /// The normalized SQL: literals and parameters as `?`, `IN` lists as
    /// `IN (...)`, no comments, single spaces.
    public var sql: String

    /// A stable identifier of ``sql``: 16 hexadecimal digits of its
    /// FNV-1a hash, the same in every process, fit for a metrics label.
    public var identifier: String

    /// The table the statement writes, or else the first (by name) that
    /// it reads; nil when it uses no table.
    public var tableName: String?

    /// The executions that ended, with or without an error.
    public var executionCount: Int

    /// The executions that ended with an error.
    public var failureCount: Int

    /// The executions whose duration was measured: all of them when the
    /// statement ran fewer than 17 times per connection, or when metrics or
    /// tracing also time statements; about one in 8 beyond.
    public var timedExecutionCount: Int

    /// The time the executions took, in seconds: the sum of their
    /// durations when all were timed, or else the mean of the timed ones
    /// times ``executionCount``.
    public var totalDuration: TimeInterval

    /// The median duration of an execution, in seconds.
    public var medianDuration: TimeInterval

    /// The duration that 99% of the executions did not exceed, in seconds.
    public var p99Duration: TimeInterval

    /// The longest timed execution, in seconds.
    public var maximumDuration: TimeInterval

    /// The rows that the executions produced (stepped to, whether the app
    /// read them or not).
    public var rowCount: Int

    /// The steps SQLite made in full table scans
    /// (`SQLITE_STMTSTATUS_FULLSCAN_STEP`): a sign of a missing index.
    public var fullScanStepCount: Int

    /// The sorts SQLite made (`SQLITE_STMTSTATUS_SORT`): an index in the
    /// order of the ORDER BY would save them.
    public var sortCount: Int

    /// The rows SQLite put in automatic indexes
    /// (`SQLITE_STMTSTATUS_AUTOINDEX`): an index it had to build at each run.
    public var automaticIndexRowCount: Int

    /// The virtual machine operations SQLite ran
    /// (`SQLITE_STMTSTATUS_VM_STEP`): the work of the statement, whatever
    /// the time it took.
    public var virtualMachineStepCount: Int

    /// The mean duration of an execution, in seconds (0 when none ended).
    public var averageDuration: TimeInterval {
        executionCount == 0 ? 0 : totalDuration / Double(executionCount)
    }
}

extension StatementStatistics: CustomStringConvertible {
    /// One line: the counts, the durations in milliseconds, then the SQL.
    public var description: String {
        func ms(_ seconds: TimeInterval) -> String {
            String(format: "%.3f", seconds * 1000)
        }
        var text =
            "\(executionCount) executions"
            + (failureCount > 0 ? " (\(failureCount) failed)" : "")
            + ", total \(ms(totalDuration)) ms, p50 \(ms(medianDuration)) ms, p99 \(ms(p99Duration)) ms"
            + ", max \(ms(maximumDuration)) ms, \(rowCount) rows"
        if fullScanStepCount > 0 { text += ", \(fullScanStepCount) full scan steps" }
        if sortCount > 0 { text += ", \(sortCount) sorts" }
        if automaticIndexRowCount > 0 { text += ", \(automaticIndexRowCount) automatic index rows" }
        return text + ": " + sql
    }
}
