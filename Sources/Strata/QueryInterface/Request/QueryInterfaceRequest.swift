/// A request built with the query interface: `Player.filter(...).order(...)`.
///
/// Requests are immutable values; they run only when fetched:
///
/// ```swift
/// let request = Player.filter(Column("score") > 1000).order(Column("name"))
/// let players = try request.fetchAll(db)  // [Player]
/// let count = try request.fetchCount(db)  // Int
/// ```
public struct QueryInterfaceRequest<RowDecoder>: Sendable {
    var query: SQLQuery

    init(query: SQLQuery) {
        self.query = query
    }

    /// The name of the queried table.
    public var databaseTableName: String { query.tableName }

    /// Returns a copy modified by `update`.
    func map(_ update: (inout SQLQuery) -> Void) -> Self {
        var query = self.query
        update(&query)
        return Self(query: query)
    }
}

extension QueryInterfaceRequest: FetchRequest {
    /// Compiles the request into a statement with its arguments.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws
        -> PreparedRequest
    {
        try query.makePreparedRequest(db, forSingleResult: singleResult)
    }

    /// The number of rows the request fetches: `SELECT COUNT(*) FROM ...`,
    /// `SELECT COUNT(DISTINCT column) FROM ...`, or a count of a subquery.
    ///
    /// - Complexity: Runs one SQL statement that counts in the database; allocates nothing per row.
    public func fetchCount(_ db: Database) throws -> Int {
        let context = SQLGenerationContext(db)
        let sql = try query.countSQL(context)
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return try Int.fetchOne(statement) ?? 0
    }

    /// The request as a subquery.
    public var sqlSubquery: SQLSubquery { SQLSubquery(impl: .query(query)) }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// The columns of the record type, given to closures.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents
}

extension QueryInterfaceRequest: DerivableRequest {
    /// Returns a request filtered by a predicate built once a connection is available.
    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible)
        -> QueryInterfaceRequest<RowDecoder>
    {
        map { $0.filters.append(.deferred { try predicate($0).sqlExpression }) }
    }

    /// Returns a request sorted by orderings built once a connection is available;
    /// previous orderings are replaced.
    public func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm])
        -> QueryInterfaceRequest<RowDecoder>
    {
        map {
            $0.orderings = [.deferred { try orderings($0).map(\.sqlOrdering) }]
            $0.isReversed = false
        }
    }

    /// Returns a request with reversed orderings (no effect when unordered).
    public func reversed() -> QueryInterfaceRequest<RowDecoder> {
        map { $0.isReversed.toggle() }
    }

    /// Returns a request without any ordering, in joined tables too.
    public func unordered() -> QueryInterfaceRequest<RowDecoder> {
        map { $0.removeAllOrderings() }
    }

    /// Returns a request whose orderings of each table end with the primary
    /// key of that table, for a stable order.
    public func withStableOrder() -> QueryInterfaceRequest<RowDecoder> {
        map { $0.appendPrimaryKeyOrderings() }
    }

    /// Returns a request whose selection is built once a connection is available;
    /// the previous selection is replaced.
    public func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable])
        -> QueryInterfaceRequest<RowDecoder>
    {
        map { $0.selection = [.deferred { try selection($0).map(\.sqlSelection) }] }
    }

    /// Returns a request whose selection is extended once a connection is available.
    public func annotatedWhenConnected(
        with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]
    ) -> QueryInterfaceRequest<RowDecoder> {
        map { $0.selection.append(.deferred { try selection($0).map(\.sqlSelection) }) }
    }

    /// Returns a request grouped by expressions built once a connection is available;
    /// previous groups are replaced.
    public func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible])
        -> QueryInterfaceRequest<RowDecoder>
    {
        map { $0.groups = .deferred { try expressions($0).map(\.sqlExpression) } }
    }

    /// Returns a request whose groups are filtered by a predicate built once a
    /// connection is available.
    public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible)
        -> QueryInterfaceRequest<RowDecoder>
    {
        map { $0.havings.append(.deferred { try predicate($0).sqlExpression }) }
    }

    /// Returns a request whose table can be referred to with the alias.
    public func _aliased(_ alias: TableAliasBase) -> QueryInterfaceRequest<RowDecoder> {
        alias.setTableName(query.tableName)
        return map { $0.alias = alias }
    }

    /// Returns a request that removes duplicate rows: `SELECT DISTINCT`.
    public func distinct() -> QueryInterfaceRequest<RowDecoder> {
        map { $0.isDistinct = true }
    }

    /// Returns a request that embeds a common table expression: `WITH ...`.
    public func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<RowDecoder> {
        map { query in
            query.ctes.removeAll { $0.tableName.lowercased() == cte.tableName.lowercased() }
            query.ctes.append(cte.cte)
        }
    }
}

extension QueryInterfaceRequest {
    /// Returns a request that fetches at most `limit` rows, after skipping
    /// `offset` rows; previous limits are replaced.
    public func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<RowDecoder> {
        map { $0.limit = SQLLimit(limit: limit, offset: offset) }
    }

    /// The same request, fetching another type.
    public func asRequest<T>(of type: T.Type) -> QueryInterfaceRequest<T> {
        QueryInterfaceRequest<T>(query: query)
    }

    /// Returns a request that selects the expressions and fetches `T`.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection).asRequest(of: T.self)
    }

    /// Returns a request that selects the expressions and fetches `T`.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection).asRequest(of: T.self)
    }

    /// Returns a request that selects an SQL literal and fetches `T`.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(literal: sqlLiteral).asRequest(of: T.self)
    }

    /// Returns a request that selects raw SQL and fetches `T`.
    public func select<T>(
        sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self
    ) -> QueryInterfaceRequest<T> {
        select(sql: sql, arguments: arguments).asRequest(of: T.self)
    }

    /// Returns whether the request fetches no row.
    public func isEmpty(_ db: Database) throws -> Bool {
        try !exists(db)
    }

    /// Returns whether the request fetches at least one row.
    func exists(_ db: Database) throws -> Bool {
        let context = SQLGenerationContext(db)
        let sql = try "SELECT EXISTS (" + query.sql(context) + ")"
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return try Bool.fetchOne(statement) ?? false
    }

    /// Deletes the rows of the request, and returns the number of deleted rows.
    ///
    /// ```swift
    /// // DELETE FROM "player" WHERE "team" = 'red'
    /// try Player.filter(Column("team") == "red").deleteAll(db)
    /// ```
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        let context = SQLGenerationContext(db)
        let sql = try query.deleteSQL(context)
        return try db.changedRowCount(of: databaseTableName) { try db.execute(sql: sql, arguments: context.arguments) }
    }

    /// Updates the rows of the request, and returns the number of updated rows.
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = 0 WHERE "team" = 'red'
    /// try Player.filter(Column("team") == "red").updateAll(db, Column("score").set(to: 0))
    /// ```
    ///
    /// - Complexity: Runs one SQL statement (`UPDATE`).
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...
    ) throws -> Int {
        try updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates the rows of the request, and returns the number of updated rows.
    ///
    /// - Complexity: Runs one SQL statement (`UPDATE`).
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> Int {
        if assignments.isEmpty { return 0 }
        // By default, the update conflict resolution of the record type.
        let conflictResolution =
            conflictResolution
            ?? (RowDecoder.self as? any MutablePersistableRecord.Type)?.persistenceConflictPolicy
            .conflictResolutionForUpdate
        let context = SQLGenerationContext(db)
        let sql = try query.updateSQL(context, conflictResolution: conflictResolution, assignments: assignments)
        return try db.changedRowCount(of: databaseTableName) { try db.execute(sql: sql, arguments: context.arguments) }
    }
}

extension QueryInterfaceRequest {
    /// Returns a request that selects an expression built from the record
    /// columns, and fetches `T`.
    public func select<T>(
        _ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self
    ) rethrows -> QueryInterfaceRequest<T> where RowDecoder: TableRecord {
        try select([selection(RowDecoder.databaseComponents)]).asRequest(of: T.self)
    }

    /// Updates the rows with an assignment built from the record columns.
    ///
    /// - Complexity: Runs one SQL statement (`UPDATE`).
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (DatabaseComponents) throws -> ColumnAssignment
    ) throws -> Int where RowDecoder: TableRecord {
        try updateAll(db, onConflict: conflictResolution, [assignment(RowDecoder.databaseComponents)])
    }

    /// Updates the rows with assignments built from the record columns.
    ///
    /// - Complexity: Runs one SQL statement (`UPDATE`).
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> Int where RowDecoder: TableRecord {
        try updateAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }
}

extension QueryInterfaceRequest {
    /// Returns a request that selects the primary key (the rowid for tables
    /// without explicit primary key), and fetches `PrimaryKey`.
    public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self)
        -> QueryInterfaceRequest<PrimaryKey>
    {
        let tableName = databaseTableName
        return selectWhenConnected { db in
            try db.primaryKey(tableName).columns.map { Column($0) }
        }
        .asRequest(of: PrimaryKey.self)
    }
}

extension QueryInterfaceRequest {
    /// Returns a request that selects the primary key, and fetches ids.
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> where RowDecoder: Identifiable {
        selectPrimaryKey(as: RowDecoder.ID.self)
    }
}
