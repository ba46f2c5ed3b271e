import Foundation

/// How SQLite runs a statement: the steps of `EXPLAIN QUERY PLAN`, as a tree.
///
/// Get one with ``Database/queryPlan(sql:arguments:)`` or
/// ``FetchRequest/queryPlan(_:)``. Its `description` prints the tree as the
/// `sqlite3` shell does, and ``problems`` lists the steps that usually call
/// for an index: full scans, temporary B-trees, automatic indexes and
/// correlated subqueries.
///
/// ```swift
/// let plan = try Player.filter(Column("teamId") == 1).queryPlan(db)
/// print(plan)
/// // QUERY PLAN
/// // `--SCAN player
/// ```
///
/// A query plan is Strata's own API: GRDB has none.
public struct QueryPlan: Sendable, Hashable, CustomStringConvertible {
    /// The top-level steps, in the order SQLite reports them.
    public var steps: [Step]

    /// Creates a plan from its top-level steps.
    public init(steps: [Step]) {
        self.steps = steps
    }

    /// Every step of the tree, depth first, parents before their children.
    public var allSteps: [Step] {
        var result: [Step] = []
        func visit(_ step: Step) {
            result.append(step)
            step.children.forEach(visit)
        }
        steps.forEach(visit)
        return result
    }

    /// The steps that usually mean that an index is missing, depth first:
    /// full scans of tables, temporary B-trees, automatic indexes and
    /// correlated subqueries (see ``Step/isProblem``).
    public var problems: [Step] { allSteps.filter(\.isProblem) }

    /// The tree as the `sqlite3` shell prints it with `.eqp on`.
    public var description: String {
        var lines = ["QUERY PLAN"]
        func write(_ steps: [Step], prefix: String) {
            for (offset, step) in steps.enumerated() {
                let isLast = offset == steps.count - 1
                lines.append(prefix + (isLast ? "`--" : "|--") + step.detail)
                write(step.children, prefix: prefix + (isLast ? "   " : "|  "))
            }
        }
        write(steps, prefix: "")
        return lines.joined(separator: "\n")
    }
}

extension QueryPlan {
    /// One step of a query plan: a line of `EXPLAIN QUERY PLAN`.
    public struct Step: Sendable, Hashable {
        /// SQLite's text for the step, such as `SEARCH player USING INDEX
        /// player_on_teamId (teamId=?)`.
        public var detail: String
        /// What the step does, read from ``detail``.
        public var operation: Operation
        /// The steps that run inside this one (the steps of a subquery, of a
        /// compound query...).
        public var children: [Step]

        /// Creates a step from SQLite's text, and its children.
        public init(detail: String, children: [Step] = []) {
            self.detail = detail
            self.operation = Operation(detail: detail)
            self.children = children
        }

        /// Whether the step usually means that an index is missing: a full
        /// scan without an index, a temporary B-tree, an automatic index, or
        /// a correlated subquery. The scan of a subquery (`(subquery-1)`) or
        /// of a constant row is not a problem; the scan of a common table
        /// expression or a view that SQLite materialized names it as a
        /// table, and counts.
        public var isProblem: Bool {
            switch operation {
            case .scan(let table, index: nil): return !table.hasPrefix("(") && table != "CONSTANT ROW"
            case .temporaryBTree: return true
            case .search(_, .automaticIndex): return true
            case .subquery(correlated: true): return true
            default: return false
            }
        }
    }
}

extension QueryPlan {
    /// What a step of a query plan does.
    public enum Operation: Sendable, Hashable {
        /// Reads every row of a table (by its name in the query, or its
        /// alias), in the order of `index` when there is one.
        case scan(table: String, index: Index?)
        /// Looks up rows of a table with an index.
        case search(table: String, index: Index)
        /// Builds a temporary B-tree, to sort rows (`ORDER BY`), group them
        /// (`GROUP BY`) or remove duplicates (`DISTINCT`, `UNION`): the
        /// associated text is SQLite's, such as `ORDER BY`.
        case temporaryBTree(purpose: String)
        /// Runs a subquery (scalar, list...); a correlated subquery runs
        /// once for each row of the query around it.
        case subquery(correlated: Bool)
        /// Any other step: the detail says what it does (a compound query, a
        /// co-routine, a materialized view, a multi-index `OR`...).
        case other

        /// Reads SQLite's text for a step.
        init(detail: String) {
            if detail.hasPrefix("USE TEMP B-TREE FOR ") {
                self = .temporaryBTree(purpose: String(detail.dropFirst("USE TEMP B-TREE FOR ".count)))
            } else if detail.hasPrefix("SCAN ") {
                let rest = detail.dropFirst("SCAN ".count)
                if let virtual = rest.range(of: " VIRTUAL TABLE ") {
                    // `SCAN doc VIRTUAL TABLE INDEX 0:M1`
                    self = .scan(
                        table: String(rest[..<virtual.lowerBound]),
                        index: .virtualTable(String(rest[virtual.upperBound...])))
                } else if let using = rest.range(of: " USING ") {
                    self = .scan(
                        table: String(rest[..<using.lowerBound]), index: Index(using: rest[using.upperBound...]))
                } else {
                    self = .scan(table: String(rest), index: nil)
                }
            } else if detail.hasPrefix("SEARCH "), let using = detail.range(of: " USING ") {
                let table = detail[detail.index(detail.startIndex, offsetBy: "SEARCH ".count)..<using.lowerBound]
                self = .search(table: String(table), index: Index(using: detail[using.upperBound...]))
            } else if detail.contains("SUBQUERY") && !detail.hasPrefix("LEFT-MOST") {
                // `SCALAR SUBQUERY 1`, `CORRELATED LIST SUBQUERY 2`...
                self = .subquery(correlated: detail.hasPrefix("CORRELATED "))
            } else {
                self = .other
            }
        }
    }

    /// The index a SCAN or SEARCH step uses.
    public enum Index: Sendable, Hashable {
        /// An index of the schema; a covering index holds every column the
        /// query needs, so that the table itself is not read.
        case named(String, covering: Bool)
        /// The rowid of the table (an `INTEGER PRIMARY KEY`).
        case rowID
        /// The primary key of a `WITHOUT ROWID` table.
        case primaryKey
        /// An index that SQLite builds for this one statement, because no
        /// index of the schema fits: it costs a pass over the table at each
        /// run, and is the sign of a missing index.
        case automaticIndex(covering: Bool)
        /// The index of a virtual table (a full-text table...), with the
        /// text SQLite gives for it.
        case virtualTable(String)
        /// Any other use of an index, with SQLite's text.
        case other(String)

        /// Reads the text after `USING` in a SCAN or SEARCH step, such as
        /// `COVERING INDEX i (teamId=?)`.
        init(using text: Substring) {
            // The constraints in parentheses do not name the index.
            var words = text
            if let constraints = words.range(of: " (") { words = words[..<constraints.lowerBound] }
            if words.hasPrefix("INTEGER PRIMARY KEY") {
                self = .rowID
            } else if words.hasPrefix("PRIMARY KEY") {
                self = .primaryKey
            } else if words.hasPrefix("AUTOMATIC ") {
                self = .automaticIndex(covering: words.contains(" COVERING "))
            } else if words.hasPrefix("COVERING INDEX ") {
                self = .named(String(words.dropFirst("COVERING INDEX ".count)), covering: true)
            } else if words.hasPrefix("INDEX ") {
                self = .named(String(words.dropFirst("INDEX ".count)), covering: false)
            } else {
                self = .other(String(text))
            }
        }
    }
}
