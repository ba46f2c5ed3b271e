import Foundation

/// Explains the statements of the connections it is configured on, and
/// reports the steps of their query plans that suggest a missing index.
///
/// Set it on ``Configuration/queryPlanMonitor``. Each statement that the
/// connections compile (for requests, `fetch...(sql:)` methods,
/// `execute(sql:)`...) is explained once per distinct SQL, for all the
/// connections that share the monitor: statements of the statement cache
/// are compiled once per connection, and others at each use. Each problem (see
/// ``QueryPlan/Step/isProblem``) goes to the handler, and to the logger as a
/// warning when the `Logging` trait gives the configuration one.
///
/// ```swift
/// var config = Configuration()
/// config.queryPlanMonitor = QueryPlanMonitor(minimumRowCount: 1000) { report in
///     print(report)  // Query plan: SCAN player (an index on player(teamId) ...) in: SELECT ...
/// }
/// ```
///
/// Cost: nothing when it is nil (one test when a statement is compiled).
/// When it is set, a lookup in a locked set at each compilation, one
/// `EXPLAIN QUERY PLAN` per distinct statement, and for the scans of
/// tables, a count of at most `minimumRowCount` rows.
public final class QueryPlanMonitor: Sendable {
    private struct State {
        /// The SQL already explained.
        var explained: Set<String> = []
        /// The connections that run the monitor's own statements now.
        var busyConnections: Set<ObjectIdentifier> = []
    }

    private let state = Mutex(State())
    private let minimumRowCount: Int
    private let report: @Sendable (QueryPlanReport) -> Void

    /// Creates a monitor.
    ///
    /// - parameter minimumRowCount: Scans of tables with fewer rows are not
    ///   reported (0, the default, reports them all).
    /// - parameter report: Called with each problem, on the connection's
    ///   queue, once the statement is compiled and before it runs.
    public init(minimumRowCount: Int = 0, report: @escaping @Sendable (QueryPlanReport) -> Void) {
        self.minimumRowCount = minimumRowCount
        self.report = report
    }

    /// Explains a statement that was just compiled, once per distinct SQL.
    func explain(_ statement: Statement, _ db: Database) {
        let sql = statement.sql
        guard Self.isExplainable(sql) else { return }
        let connection = ObjectIdentifier(db)
        let isNew = state.withLock { state -> Bool in
            // The monitor's own statements (the explanation, the counts) are
            // not explained.
            guard !state.busyConnections.contains(connection) else { return false }
            guard state.explained.insert(sql).inserted else { return false }
            state.busyConnections.insert(connection)
            return true
        }
        guard isNew else { return }
        defer { state.withLock { _ = $0.busyConnections.remove(connection) } }
        do {
            let plan = try db.queryPlan(sql: sql)
            for step in plan.problems {
                guard let report = try makeReport(sql: sql, step: step, plan: plan, db) else { continue }
                self.report(report)
                db.instrument?.diagnosticWasReported(db, message: report.description)
            }
        } catch {
            db.reportBookkeepingFailure(error, "EXPLAIN QUERY PLAN " + sql)
        }
    }

    /// Whether a statement reads or writes user data: transactions, pragmas
    /// and the library's schema queries are not explained.
    private static func isExplainable(_ sql: String) -> Bool {
        let upper = sql.prefix(7).uppercased()
        guard ["SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "REPLACE"].contains(where: upper.hasPrefix) else {
            return false
        }
        let lower = sql.lowercased()
        return !lower.contains("sqlite_master") && !lower.contains("sqlite_schema")
            && !lower.contains("sqlite_temp_master") && !lower.contains("pragma_")
    }

    /// The report of a problem step, or nil when its table has fewer rows
    /// than `minimumRowCount`.
    private func makeReport(sql: String, step: QueryPlan.Step, plan: QueryPlan, _ db: Database) throws
        -> QueryPlanReport?
    {
        switch step.operation {
        case .scan(let name, _):
            let table = try Self.table(named: name, in: sql, db)
            if let table, minimumRowCount > 0 {
                let count =
                    try Int.fetchOne(
                        db,
                        sql: "SELECT COUNT(*) FROM (SELECT 1 FROM \(table.quotedDatabaseIdentifier) LIMIT ?)",
                        arguments: [minimumRowCount]) ?? 0
                if count < minimumRowCount { return nil }
            }
            let columns = try table.map { try Self.comparedColumns(of: $0, in: sql, db) } ?? []
            let suggestion =
                columns.isEmpty || table == nil
                ? nil
                : "an index on \(table!)(\(columns.joined(separator: ", "))) would let SQLite search instead of scan"
            return QueryPlanReport(sql: sql, step: step, table: table, suggestion: suggestion, plan: plan)
        case .search(let name, .automaticIndex):
            let table = try Self.table(named: name, in: sql, db)
            // `SEARCH team USING AUTOMATIC COVERING INDEX (name=? AND x>?)`
            var suggestion: String?
            if let table, let open = step.detail.lastIndex(of: "("), step.detail.hasSuffix(")") {
                let constraints = step.detail[
                    step.detail.index(after: open)..<step.detail.index(before: step.detail.endIndex)]
                let columns = constraints.components(separatedBy: " AND ").map {
                    String($0.prefix { $0 != "=" && $0 != "<" && $0 != ">" })
                }
                suggestion =
                    "an index on \(table)(\(columns.joined(separator: ", "))) would save building one at each run"
            }
            return QueryPlanReport(sql: sql, step: step, table: table, suggestion: suggestion, plan: plan)
        case .temporaryBTree(let purpose):
            return QueryPlanReport(
                sql: sql, step: step, table: nil,
                suggestion: "an index on the columns of \(purpose), in that order, would save the temporary B-tree",
                plan: plan)
        default:
            return QueryPlanReport(sql: sql, step: step, table: nil, suggestion: nil, plan: plan)
        }
    }

    /// The table that a step names: the name itself when it is a table, or
    /// the table that the query gives this alias (`"player" "p"`,
    /// `player AS p`).
    private static func table(named name: String, in sql: String, _ db: Database) throws -> String? {
        if try db.tableExists(name) { return name }
        let identifier = #""?([A-Za-z_][A-Za-z0-9_]*)"?"#
        let alias = NSRegularExpression.escapedPattern(for: name)
        let pattern = identifier + #"\s+(?:AS\s+)?"?"# + alias + #""?(?![A-Za-z0-9_])"#
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return nil }
        let range = NSRange(sql.startIndex..., in: sql)
        for match in regex.matches(in: sql, range: range) {
            guard let captured = Range(match.range(at: 1), in: sql) else { continue }
            let candidate = String(sql[captured])
            if try db.tableExists(candidate) { return candidate }
        }
        return nil
    }

    /// The columns of `table` that the SQL compares with something (`=`,
    /// `<`, `>`, `IN`, `IS`, `BETWEEN`, `LIKE`, `GLOB`), in the order of
    /// the table.
    private static func comparedColumns(of table: String, in sql: String, _ db: Database) throws -> [String] {
        try db.columns(in: table).map(\.name).filter { column in
            let name = NSRegularExpression.escapedPattern(for: column)
            let pattern =
                #"(?<![A-Za-z0-9_])"?"# + name
                + #""?\s*(?:=|==|<|>|<=|>=|!=|<>|\bIN\b|\bIS\b|\bBETWEEN\b|\bLIKE\b|\bGLOB\b)"#
            guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
                return false
            }
            return regex.firstMatch(in: sql, range: NSRange(sql.startIndex..., in: sql)) != nil
        }
    }
}

extension QueryPlanMonitor: DatabaseInstrument {
    var statementTiming: StatementTiming { .none }

    func statementWasPrepared(_ statement: Statement, _ db: Database) {
        explain(statement, db)
    }
}
