extension Database {
    /// Returns how SQLite would run a statement, without running it: the
    /// steps of `EXPLAIN QUERY PLAN`.
    ///
    /// The arguments matter when SQLite's statistics make plans depend on
    /// values (`sqlite_stat4`); otherwise the plan is the same for all.
    /// Without arguments, the parameters of the SQL stay NULL; with
    /// arguments, they must match the parameters, as for a fetch.
    ///
    /// ```swift
    /// let plan = try db.queryPlan(sql: "SELECT * FROM player WHERE teamId = ?", arguments: [1])
    /// for step in plan.problems { print(step.detail) }  // SCAN player
    /// ```
    ///
    /// - throws: A ``DatabaseError`` when the SQL is not one valid
    ///   statement.
    public func queryPlan(sql: String, arguments: StatementArguments = StatementArguments()) throws -> QueryPlan {
        // An EXPLAIN program does not check the schema cookie when it runs,
        // as other statements do (nor does `PRAGMA schema_version`): a
        // reader of a pool would explain with the schema it last loaded,
        // blind to the index another connection created since. A read of
        // sqlite_master checks the cookie, and reloads the schema when it
        // changed.
        _ = try Row.fetchOne(cachedStatement(sql: "SELECT 1 FROM sqlite_master LIMIT 1"))
        let statement = try makeStatement(sql: "EXPLAIN QUERY PLAN " + sql)
        if arguments.isEmpty {
            statement.setUncheckedArguments(arguments)
        } else {
            try statement.setArguments(arguments)
        }
        let rows = try Row.fetchAll(statement)
        return QueryPlan(explainRows: rows.map { (id: $0[0], parent: $0[1], detail: $0[3]) })
    }
}

extension FetchRequest {
    /// Returns how SQLite would run the request's statement, without running
    /// it: the steps of `EXPLAIN QUERY PLAN`. The statements that fetch the
    /// associations of `including(all:)` are not part of it.
    ///
    /// ```swift
    /// let plan = try Player.filter(Column("teamId") == 1).queryPlan(db)
    /// ```
    public func queryPlan(_ db: Database) throws -> QueryPlan {
        let statement = try makePreparedRequest(db, forSingleResult: false).statement
        return try db.queryPlan(sql: statement.sql, arguments: statement.arguments)
    }
}

extension QueryPlan {
    /// Builds the tree from the rows of `EXPLAIN QUERY PLAN`: each row has
    /// an id, the id of its parent (0 at the top) and a detail.
    init(explainRows rows: [(id: Int, parent: Int, detail: String)]) {
        func children(of parent: Int) -> [Step] {
            rows.filter { $0.parent == parent }.map { row in
                Step(detail: row.detail, children: children(of: row.id))
            }
        }
        self.init(steps: children(of: 0))
    }
}
