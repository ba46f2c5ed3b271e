extension SQLQuery {
    /// Compiles the query: statement, row adapter for the scopes of joined
    /// tables, and the fetch of prefetched rows.
    func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest {
        let context = SQLGenerationContext(db)
        let sql: String
        let adapter: (any RowAdapter)?
        if !joins.isEmpty {
            (sql, adapter) = try joinedSQL(context, forSingleResult: singleResult)
        } else {
            sql = try self.sql(context, forSingleResult: singleResult)
            adapter = nil
        }
        if !hasPrefetches {
            let statement = try db.cachedStatement(sql: sql)
            try statement.setArguments(context.arguments)
            return PreparedRequest(statement: statement, adapter: adapter)
        }
        // The region of the statement covers the prefetched tables (empty
        // when the request fetches no row). The statement is cached apart
        // from the one of the same SQL without prefetches, which keeps the
        // region of its own tables, and its region is set at each use.
        // Observations record the region when the statement runs, so they
        // track the prefetched tables even when the base request has no row
        // yet, and the prefetch queries do not run.
        let statement = try db.cachedPrefetchingStatement(sql: sql)
        try statement.setArguments(context.arguments)
        if try fetchesNoRow(db) {
            statement.databaseRegion = DatabaseRegion()
        } else {
            statement.databaseRegion = statement.compiledRegion.union(try prefetchRegion(db))
        }
        let query = self
        return PreparedRequest(statement: statement, adapter: adapter) { rows, db in
            try query.prefetch(into: rows, db)
        }
    }

    /// True when the query, or one of its joined tables, prefetches rows.
    var hasPrefetches: Bool {
        !prefetches.isEmpty || joins.contains { $0.relation.hasPrefetches }
    }

    /// The prefetches of the query, and those nested in its joined tables
    /// (`Book.including(optional: Book.author.including(all: Author.awards))`),
    /// with the key path of scopes that leads to the prefetched rows
    /// (`["author", "awards"]`).
    ///
    /// A prefetch nested in a join goes through the joined association: its
    /// query runs from the rows of this query, along the join path.
    var allPrefetches: [(keyPath: [String], prefetch: SQLPrefetch)] {
        var result = prefetches.map { (keyPath: [$0.key], prefetch: $0) }
        for join in joins where join.relation.hasPrefetches {
            for (keyPath, nested) in join.relation.allPrefetches {
                var pivot = join.relation.strippingJoinedSelections()
                if keyPath.count > 1 {
                    // The join that leads to the nested prefetch is the next
                    // step of the association: it must not be joined twice.
                    let next = nested.steps[0].relation.tableName.lowercased()
                    pivot.joins.removeAll { $0.key == keyPath[0] && $0.relation.tableName.lowercased() == next }
                }
                let step = SQLAssociationStep(
                    key: .fixed(join.key), isToMany: false, condition: join.condition, relation: pivot)
                result.append(
                    (
                        keyPath: [join.key] + keyPath,
                        prefetch: SQLPrefetch(key: nested.key, steps: [step] + nested.steps)
                    ))
            }
        }
        return result
    }

    /// The number of origin keys of one prefetch query: far below SQLite's
    /// default limit of 32766 arguments.
    static let prefetchChunkSize = 900

    /// The region read by the queries of prefetched rows.
    func prefetchRegion(_ db: Database) throws -> DatabaseRegion {
        var region = DatabaseRegion()
        for (_, prefetch) in allPrefetches {
            let (query, _) = try Self.prefetchQuery(prefetch, db, pivotFilter: nil)
            region.formUnion(try QueryInterfaceRequest<Row>(query: query).databaseRegion(db))
        }
        return region
    }

    /// Fetches the associated rows of `including(all:)`, with one query per
    /// association, and stores them in the rows (or their scopes) under the
    /// association key.
    private func prefetch(into rows: [Row], _ db: Database) throws {
        for (keyPath, prefetch) in allPrefetches {
            guard let pairs = try prefetch.steps[0].condition.columnPairs(db) else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "including(all:) needs an association based on a foreign key: \(prefetch.key)")
            }
            let originKeys = try rows.map { row in
                try pairs.map { pair -> DatabaseValue in
                    guard let index = row.index(forColumn: pair.left) else {
                        throw DatabaseError(
                            resultCode: .SQLITE_MISUSE,
                            message: "including(all:) needs the column \(pair.left) in the selection of \(tableName)")
                    }
                    return row[index]
                }
            }
            var keys: [[DatabaseValue]] = []
            var seen = Set<[DatabaseValue]>()
            for key in originKeys where !key.contains(where: \.isNull) && seen.insert(key).inserted {
                keys.append(key)
            }
            var groups: [[DatabaseValue]: [Row]] = [:]
            if pairs.count > 1 {
                // Compound keys: `("a", "b") IN "grdb_base"`, where the CTE
                // selects the keys of this query: no value of the origin rows
                // is injected in the prefetch query.
                if !keys.isEmpty {
                    let (query, pivotColumns) = try compoundKeyPrefetchQuery(prefetch, db, pairs: pairs)
                    try Self.fetchGrouped(db, query, keyPath: keyPath, by: pivotColumns, into: &groups)
                }
            } else {
                // One query per chunk of keys: SQLite limits the number of
                // statement arguments. The rows of one key all come from one
                // query, in the association's order.
                var start = 0
                while start < keys.count {
                    let end = min(start + Self.prefetchChunkSize, keys.count)
                    let values = keys[start..<end].map { SQLExpression(impl: .databaseValue($0[0])) }
                    let filter = SQLExpression.inList(Column(pairs[0].right).sqlExpression, values)
                    let (query, pivotColumns) = try Self.prefetchQuery(prefetch, db, pivotFilter: filter)
                    try Self.fetchGrouped(db, query, keyPath: keyPath, by: pivotColumns, into: &groups)
                    start = end
                }
            }
            for (row, key) in zip(rows, originKeys) {
                row.setPrefetchedRows(groups[key] ?? [], forKeyPath: keyPath)
            }
        }
    }

    /// The query of prefetched rows, rooted at the destination table, joined
    /// back to the first pivot table when the association goes through
    /// pivots, and whose first table (after the origin) is filtered by
    /// `pivotFilter` (all rows when nil). Also returns the names of the
    /// hidden columns that hold the origin keys.
    static func prefetchQuery(
        _ prefetch: SQLPrefetch, _ db: Database, pivotFilter: SQLExpression?
    ) throws -> (SQLQuery, [String]) {
        let steps = prefetch.steps
        guard let pairs = try steps[0].condition.columnPairs(db) else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "including(all:) needs an association based on a foreign key: \(prefetch.key)")
        }
        let rightColumns = pairs.map(\.right)
        let pivotColumns = rightColumns.map { "grdb_" + $0 }

        // The first table after the origin, filtered by the origin keys.
        var first = steps[0].relation
        let firstAlias = first.alias ?? TableAliasBase(tableName: first.tableName)
        first.alias = firstAlias
        if let pivotFilter {
            first.filters.append(.value(pivotFilter))
        }
        let trailing = zip(rightColumns, pivotColumns).map { column, name in
            SQLExpression(impl: .qualifiedColumn(column, firstAlias)).aliased(name)
        }
        if steps.count == 1 {
            first.trailingSelection += trailing
            return (first, pivotColumns)
        }

        // Join back from the destination to the first table.
        var join = SQLJoin(
            key: steps[0].keyName, kind: .required, mode: .none, condition: steps[1].condition.reversed,
            relation: first.strippingJoinedSelections())
        for index in 1..<(steps.count - 1) {
            var relation = steps[index].relation.strippingJoinedSelections()
            relation.addJoin(join)
            join = SQLJoin(
                key: steps[index].keyName, kind: .required, mode: .none,
                condition: steps[index + 1].condition.reversed, relation: relation)
        }
        var query = steps[steps.count - 1].relation
        query.addJoin(join)
        query.trailingSelection += trailing
        return (query, pivotColumns)
    }

    /// Fetches the rows of a prefetch query, grouped by their origin key.
    private static func fetchGrouped(
        _ db: Database, _ query: SQLQuery, keyPath: [String], by pivotColumns: [String],
        into groups: inout [[DatabaseValue]: [Row]]
    ) throws {
        db.prefetchQueryObserver?(keyPath, QueryInterfaceRequest<Row>(query: query))
        for row in try Row.fetchAll(db, QueryInterfaceRequest<Row>(query: query)) {
            let base = row.unadapted
            let key = pivotColumns.map { name -> DatabaseValue in
                base.index(forColumn: name).map { base[$0] } ?? .null
            }
            groups[key, default: []].append(row)
        }
    }

    /// The prefetch query of an association on a compound key:
    /// `WITH "grdb_base" AS (SELECT "a", "b" FROM <origin> ...) SELECT *, ...
    /// WHERE ("a", "b") IN "grdb_base"`. Through pivots, the condition goes
    /// in the join of the first pivot. The CTEs of the origin come first.
    private func compoundKeyPrefetchQuery(
        _ prefetch: SQLPrefetch, _ db: Database, pairs: [(left: String, right: String)]
    ) throws -> (SQLQuery, [String]) {
        let baseName = "grdb_base"
        let rowValue = SQLExpression(impl: .function("", pairs.map { Column($0.right).sqlExpression }))
        var (query, pivotColumns) = try Self.prefetchQuery(
            prefetch, db, pivotFilter: SQLExpression(impl: .inTable(rowValue, baseName, negated: false)))
        var base = strippingJoinedSelections()
        base.selection = [.value(pairs.map { SQLSelection(impl: .expression(Column($0.left).sqlExpression)) })]
        if base.limit == nil { base.orderings = [] }
        // The CTEs of the origin are not repeated inside the base CTE, unless
        // the origin has its own base (prefetches nested in prefetches).
        if !ctes.contains(where: { $0.tableName.lowercased() == baseName }) {
            base.ctes = []
            query.ctes = ctes + query.ctes.filter { cte in !ctes.contains { $0.tableName == cte.tableName } }
        }
        query.ctes.append(
            SQLCTE(tableName: baseName, columns: nil, isRecursive: false, subquery: SQLSubquery(impl: .query(base))))
        return (query, pivotColumns)
    }
}
