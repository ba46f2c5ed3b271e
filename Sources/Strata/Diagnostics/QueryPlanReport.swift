/// A step of a statement's query plan that suggests a missing index, as a
/// ``QueryPlanMonitor`` reports it.
public struct QueryPlanReport: Sendable, CustomStringConvertible {
    /// The SQL of the statement.
    public var sql: String
    /// The step: a full scan, a temporary B-tree, an automatic index or a
    /// correlated subquery (see ``QueryPlan/Step/isProblem``).
    public var step: QueryPlan.Step
    /// The table that the step reads, when the step names one (a scan or a
    /// search, with the alias of the query resolved).
    public var table: String?
    /// What would help, when the statement tells: the index to create,
    /// such as "an index on player(teamId) would let SQLite search instead
    /// of scan".
    public var suggestion: String?
    /// The whole plan of the statement.
    public var plan: QueryPlan

    /// Creates a report.
    public init(sql: String, step: QueryPlan.Step, table: String?, suggestion: String?, plan: QueryPlan) {
        self.sql = sql
        self.step = step
        self.table = table
        self.suggestion = suggestion
        self.plan = plan
    }

    /// One line: the step, the suggestion and the SQL.
    public var description: String {
        var text = "Query plan: \(step.detail)"
        if let suggestion { text += " (\(suggestion))" }
        return text + " in: \(sql)"
    }
}
