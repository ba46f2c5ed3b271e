extension TableRecord {
    /// A request for all rows of the table: `SELECT * FROM "player"`.
    public static func all() -> QueryInterfaceRequest<Self> {
        QueryInterfaceRequest(query: SQLQuery(tableName: databaseTableName, selection: databaseSelection))
    }

    /// A request that fetches no row.
    public static func none() -> QueryInterfaceRequest<Self> { all().none() }

    /// A request filtered by a predicate.
    public static func filter(_ predicate: some SQLSpecificExpressible) -> QueryInterfaceRequest<Self> {
        all().filter(predicate)
    }

    /// A request filtered by a predicate built from the record columns.
    public static func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().filter(predicate)
    }

    /// A request filtered by an SQL literal.
    public static func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().filter(literal: sqlLiteral)
    }

    /// A request filtered by raw SQL.
    public static func filter(sql: String, arguments: StatementArguments = StatementArguments())
        -> QueryInterfaceRequest<Self>
    {
        all().filter(sql: sql, arguments: arguments)
    }

    /// A request that selects the expressions.
    public static func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// A request that selects the expressions.
    public static func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// A request that selects an expression built from the record columns.
    public static func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().select([selection(databaseComponents)])
    }

    /// A request that selects expressions built from the record columns.
    public static func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().select(selection(databaseComponents))
    }

    /// A request that selects an SQL literal.
    public static func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().select(literal: sqlLiteral)
    }

    /// A request that selects raw SQL.
    public static func select(sql: String, arguments: StatementArguments = StatementArguments())
        -> QueryInterfaceRequest<Self>
    {
        all().select(sql: sql, arguments: arguments)
    }

    /// A request that selects the expressions and fetches `RowDecoder`.
    public static func select<RowDecoder>(
        _ selection: any SQLSelectable..., as type: RowDecoder.Type = RowDecoder.self
    ) -> QueryInterfaceRequest<RowDecoder> {
        all().select(selection, as: type)
    }

    /// A request that selects the expressions and fetches `RowDecoder`.
    public static func select<RowDecoder>(
        _ selection: [any SQLSelectable], as type: RowDecoder.Type = RowDecoder.self
    ) -> QueryInterfaceRequest<RowDecoder> {
        all().select(selection, as: type)
    }

    /// A request that selects an expression built from the record columns, and fetches `RowDecoder`.
    public static func select<RowDecoder>(
        _ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: RowDecoder.Type = RowDecoder.self
    ) rethrows -> QueryInterfaceRequest<RowDecoder> {
        try all().select([selection(databaseComponents)], as: type)
    }

    /// A request that selects an SQL literal and fetches `RowDecoder`.
    public static func select<RowDecoder>(literal sqlLiteral: SQL, as type: RowDecoder.Type = RowDecoder.self)
        -> QueryInterfaceRequest<RowDecoder>
    {
        all().select(literal: sqlLiteral, as: type)
    }

    /// A request that selects raw SQL and fetches `RowDecoder`.
    public static func select<RowDecoder>(
        sql: String, arguments: StatementArguments = StatementArguments(), as type: RowDecoder.Type = RowDecoder.self
    ) -> QueryInterfaceRequest<RowDecoder> {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// A request whose selection is extended with the expressions.
    public static func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: selection)
    }

    /// A request whose selection is extended with the expressions.
    public static func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
        all().annotated(with: selection)
    }

    /// A request whose selection is extended with an expression built from the record columns.
    public static func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().annotated(with: [selection(databaseComponents)])
    }

    /// A request whose selection is extended with expressions built from the record columns.
    public static func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().annotated(with: selection(databaseComponents))
    }

    /// A request sorted by the orderings.
    public static func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// A request sorted by the orderings.
    public static func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// A request sorted by an ordering built from the record columns.
    public static func order(_ orderings: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().order([orderings(databaseComponents)])
    }

    /// A request sorted by orderings built from the record columns.
    public static func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().order(orderings(databaseComponents))
    }

    /// A request sorted by an SQL literal.
    public static func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().order(literal: sqlLiteral)
    }

    /// A request sorted by raw SQL.
    public static func order(sql: String, arguments: StatementArguments = StatementArguments())
        -> QueryInterfaceRequest<Self>
    {
        all().order(sql: sql, arguments: arguments)
    }

    /// A request limited to `limit` rows, after `offset` rows.
    public static func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> {
        all().limit(limit, offset: offset)
    }

    /// A request that embeds a common table expression.
    public static func with<RowDecoder>(_ cte: CommonTableExpression<RowDecoder>) -> QueryInterfaceRequest<Self> {
        all().with(cte)
    }

    /// A request whose table can be referred to with the alias.
    public static func aliased(_ alias: TableAlias<Self>) -> QueryInterfaceRequest<Self> {
        all().aliased(alias)
    }

    /// A request whose table can be referred to with the alias.
    public static func aliased(_ alias: TableAlias<Void>) -> QueryInterfaceRequest<Self> {
        all().aliased(alias)
    }

    /// The number of rows in the table.
    ///
    /// - Complexity: Runs one SQL statement that counts in the database; allocates nothing per row.
    public static func fetchCount(_ db: Database) throws -> Int {
        try all().fetchCount(db)
    }

    /// The number of columns selected by `databaseSelection`.
    public static func numberOfSelectedColumns(_ db: Database) throws -> Int {
        try all().makePreparedRequest(db).statement.columnCount
    }

    /// Deletes all rows of the table, and returns the number of deleted rows.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public static func deleteAll(_ db: Database) throws -> Int {
        try all().deleteAll(db)
    }

    /// Updates all rows of the table, and returns the number of updated rows.
    ///
    /// - Complexity: Runs one SQL statement (`UPDATE`).
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows of the table, and returns the number of updated rows.
    ///
    /// - Complexity: Runs one SQL statement (`UPDATE`).
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows with an assignment built from the record columns.
    ///
    /// - Complexity: Runs one SQL statement (`UPDATE`).
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (DatabaseComponents) throws -> ColumnAssignment
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, [assignment(databaseComponents)])
    }

    /// Updates all rows with assignments built from the record columns.
    ///
    /// - Complexity: Runs one SQL statement (`UPDATE`).
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments(databaseComponents))
    }
}

// Fetching a whole table is fetching the request `Self.all()`.
extension FetchableRecord where Self: TableRecord {
    /// The first record of the table, or nil when the table is empty.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    @inlinable
    public static func fetchOne(_ db: Database) throws -> Self? {
        try Self.all().fetchOne(db)
    }

    /// Every record of the table, in an array.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public static func fetchAll(_ db: Database) throws -> [Self] {
        try Self.all().fetchAll(db)
    }

    /// Every record of the table, one by one through a cursor.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public static func fetchCursor(_ db: Database) throws -> RecordCursor<Self> {
        try Self.all().fetchCursor(db)
    }
}

extension FetchableRecord where Self: TableRecord & Hashable {
    /// Every distinct record of the table, in a set.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    public static func fetchSet(_ db: Database) throws -> Set<Self> {
        try Self.all().fetchSet(db)
    }
}
