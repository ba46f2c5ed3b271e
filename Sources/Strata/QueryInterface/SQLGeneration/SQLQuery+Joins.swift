// The joins of a query: the tables an association joins (`SQLJoin`), the
// requests it prefetches (`SQLPrefetch`), and adding and merging them (with
// their CTEs and orderings) in a query. Their SQL is generated in
// SQLQuery+JoinGeneration.swift.

/// A table joined to a query through an association.
struct SQLJoin: Sendable {
    enum Kind: Sendable {
        /// `JOIN`: only rows that have an associated row.
        case required
        /// `LEFT JOIN`: associated columns are NULL when there is no associated row.
        case optional
    }

    enum Mode: Sendable {
        /// `joining`: no column is selected.
        case none
        /// `including`: columns are selected, in a row scope named by the key.
        case scoped
    }

    var key: String
    var kind: Kind
    var mode: Mode
    var condition: SQLJoinCondition
    var relation: SQLQuery

    /// Merges a later join with the same key: required wins over optional,
    /// the later `including` decides the selection (`joining` selects
    /// nothing, and keeps the selection), the later condition wins, and the
    /// relations merge.
    mutating func merge(_ other: SQLJoin) {
        if other.kind == .required { kind = .required }
        condition = other.condition
        relation.merge(other.relation)
        if other.mode == .scoped {
            relation.selection = other.relation.selection
            mode = .scoped
        }
    }
}

/// A to-many association whose rows are fetched by a second query, once the
/// rows of the request are known (`including(all:)`).
struct SQLPrefetch: Sendable {
    var key: String
    var steps: [SQLAssociationStep]

    /// True when both prefetches go through the same steps up to `level`
    /// included (same keys and tables), and both have a pivot at `level`.
    /// The step at `level` is compared by table only when it is the last
    /// step of both.
    func sharesPivots(with other: SQLPrefetch, through level: Int) -> Bool {
        guard steps.count > level, other.steps.count > level else { return false }
        for index in 0...level {
            let step = steps[index]
            let otherStep = other.steps[index]
            guard step.relation.tableName.lowercased() == otherStep.relation.tableName.lowercased() else {
                return false
            }
            let isPivot = index < steps.count - 1
            let otherIsPivot = index < other.steps.count - 1
            if isPivot != otherIsPivot { return false }
            if isPivot && step.keyName != otherStep.keyName { return false }
        }
        return true
    }
}

extension SQLQuery {
    /// Merges the refinements of a later relation on the same table (the
    /// same association, joined or prefetched twice): filters add up, the
    /// later ordering replaces the earlier one, a later common table
    /// expression replaces the earlier one of the same name, joins and
    /// prefetches merge, the selection is kept. A user-named alias wins over
    /// an anonymous one, so that SQL snippets that use its name work; the
    /// other alias refers to the same table.
    mutating func merge(_ other: SQLQuery) {
        filters += other.filters
        if !other.orderings.isEmpty {
            orderings = other.orderings
            isReversed = other.isReversed
        }
        for cte in other.ctes {
            addCTE(cte)
        }
        if let otherAlias = other.alias {
            if let alias, alias !== otherAlias {
                if alias.name == nil && otherAlias.name != nil {
                    self.alias = otherAlias
                    mergedAliases.append(alias)
                } else {
                    mergedAliases.append(otherAlias)
                }
            } else {
                alias = otherAlias
            }
        }
        mergedAliases += other.mergedAliases.filter { merged in !mergedAliases.contains { $0 === merged } }
        for join in other.joins {
            addJoin(join)
        }
        for prefetch in other.prefetches {
            addPrefetch(prefetch)
        }
    }

    /// Adds a common table expression; it replaces the one of the same name.
    mutating func addCTE(_ cte: SQLCTE) {
        if let index = ctes.firstIndex(where: { $0.tableName.lowercased() == cte.tableName.lowercased() }) {
            ctes[index] = cte
        } else {
            ctes.append(cte)
        }
    }

    /// Adds prefetched rows.
    ///
    /// Two `including(all:)` of the same key, through the same pivots (same
    /// keys and tables), make one prefetch: their refinements merge, and the
    /// later one decides the selection. Through pivots under other keys, they
    /// make two prefetches. A direct prefetch of the same key to another
    /// table replaces the earlier one.
    ///
    /// Pivots under the same key are one shared association, whatever the
    /// prefetches that go through them: the refinements of each apply to
    /// every prefetch through it.
    mutating func addPrefetch(_ prefetch: SQLPrefetch) {
        var prefetch = prefetch
        let pivotCount = prefetch.steps.count - 1
        for level in 0..<max(pivotCount, 0) {
            let sharing = prefetches.indices.filter { prefetches[$0].sharesPivots(with: prefetch, through: level) }
            guard let first = sharing.first else { break }
            var pivot = prefetches[first].steps[level].relation
            pivot.merge(prefetch.steps[level].relation)
            prefetch.steps[level].relation = pivot
            for index in sharing {
                prefetches[index].steps[level].relation = pivot
            }
        }
        if let index = prefetches.firstIndex(where: {
            $0.key == prefetch.key && $0.steps.count == prefetch.steps.count
                && $0.sharesPivots(with: prefetch, through: pivotCount)
        }) {
            let destination = prefetch.steps[pivotCount].relation
            prefetches[index].steps[pivotCount].relation.merge(destination)
            prefetches[index].steps[pivotCount].relation.selection = destination.selection
        } else if pivotCount == 0,
            let index = prefetches.firstIndex(where: { $0.key == prefetch.key && $0.steps.count == 1 })
        {
            prefetches[index] = prefetch
        } else {
            prefetches.append(prefetch)
        }
    }

    /// Adds a join, merged into an existing join of the same key and table.
    mutating func addJoin(_ join: SQLJoin) {
        if let index = joins.firstIndex(where: {
            $0.key == join.key && $0.relation.tableName.lowercased() == join.relation.tableName.lowercased()
        }) {
            joins[index].merge(join)
        } else {
            joins.append(join)
        }
    }

    /// Applies `update` to the query, its joined tables and the tables of its
    /// prefetched rows, at any depth.
    mutating func updateAllRelations(_ update: (inout SQLQuery) -> Void) {
        update(&self)
        for index in joins.indices {
            joins[index].relation.updateAllRelations(update)
        }
        for index in prefetches.indices {
            for step in prefetches[index].steps.indices {
                prefetches[index].steps[step].relation.updateAllRelations(update)
            }
        }
    }

    /// Removes the orderings of every table: `unordered()`.
    mutating func removeAllOrderings() {
        updateAllRelations {
            $0.orderings = []
            $0.isReversed = false
        }
    }

    /// Appends the primary key of every table after its orderings:
    /// `withStableOrder()`.
    mutating func appendPrimaryKeyOrderings() {
        updateAllRelations { query in
            let tableName = query.tableName
            query.orderings.append(.deferred { db in try SQLQuery.primaryKeyOrderings(db, tableName: tableName) })
        }
    }

    /// True when joined tables or prefetched rows add columns to the fetched rows.
    var hasJoinedSelections: Bool {
        !prefetches.isEmpty || !trailingSelection.isEmpty
            || joins.contains { $0.mode != .none || $0.relation.hasJoinedSelections }
    }

    /// True when joined tables, at any depth, select columns in row scopes.
    var hasScopedJoins: Bool {
        joins.contains { $0.mode == .scoped || $0.relation.hasScopedJoins }
    }

    /// The query without the columns of joined tables nor prefetched rows
    /// (for counting, deleting and updating).
    func strippingJoinedSelections() -> SQLQuery {
        var query = self
        query.prefetches = []
        query.trailingSelection = []
        query.joins = joins.map { join in
            var join = join
            join.mode = .none
            join.relation = join.relation.strippingJoinedSelections()
            return join
        }
        return query
    }
}
