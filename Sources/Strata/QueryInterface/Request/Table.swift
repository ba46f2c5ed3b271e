/// A database table, as a starting point for requests when there is no
/// record type: `Table("player").filter(...)`.
///
/// ```swift
/// let playerTable = Table("player")
/// let rows = try playerTable.filter(Column("score") > 1000).fetchAll(db)  // [Row]
/// ```
public struct Table<RowDecoder>: Sendable {
    /// The name of the table.
    public var tableName: String

    /// Creates a table whose requests fetch `RowDecoder`.
    public init(_ tableName: String) {
        self.tableName = tableName
    }

    /// A request for all rows of the table.
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        let selection = (RowDecoder.self as? any TableRecord.Type)?.databaseSelection ?? [AllColumns()]
        return QueryInterfaceRequest(query: SQLQuery(tableName: tableName, selection: selection))
    }

    /// A request that fetches no row.
    public func none() -> QueryInterfaceRequest<RowDecoder> { all().none() }

    /// A request filtered by a predicate.
    public func filter(_ predicate: some SQLSpecificExpressible) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(predicate)
    }

    /// A request filtered by an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(literal: sqlLiteral)
    }

    /// A request filtered by raw SQL.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments())
        -> QueryInterfaceRequest<RowDecoder>
    {
        all().filter(sql: sql, arguments: arguments)
    }

    /// A request that selects the expressions.
    public func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
        all().select(selection)
    }

    /// A request that selects the expressions.
    public func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> {
        all().select(selection)
    }

    /// A request that selects an SQL literal.
    public func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().select(literal: sqlLiteral)
    }

    /// A request that selects raw SQL.
    public func select(sql: String, arguments: StatementArguments = StatementArguments())
        -> QueryInterfaceRequest<RowDecoder>
    {
        all().select(sql: sql, arguments: arguments)
    }

    /// A request that selects the expressions and fetches `T`.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// A request that selects the expressions and fetches `T`.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// A request that selects an SQL literal and fetches `T`.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral, as: type)
    }

    /// A request that selects raw SQL and fetches `T`.
    public func select<T>(
        sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self
    ) -> QueryInterfaceRequest<T> {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// A request whose selection is extended with the expressions.
    public func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: selection)
    }

    /// A request whose selection is extended with the expressions.
    public func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: selection)
    }

    /// A request sorted by the orderings.
    public func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<RowDecoder> {
        all().order(orderings)
    }

    /// A request sorted by the orderings.
    public func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<RowDecoder> {
        all().order(orderings)
    }

    /// A request sorted by an SQL literal.
    public func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().order(literal: sqlLiteral)
    }

    /// A request sorted by raw SQL.
    public func order(sql: String, arguments: StatementArguments = StatementArguments())
        -> QueryInterfaceRequest<RowDecoder>
    {
        all().order(sql: sql, arguments: arguments)
    }

    /// A request limited to `limit` rows, after `offset` rows.
    public func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<RowDecoder> {
        all().limit(limit, offset: offset)
    }

    /// A request that embeds a common table expression.
    public func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<RowDecoder> {
        all().with(cte)
    }

    /// A request whose table can be referred to with the alias.
    public func aliased(_ alias: TableAlias<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> {
        all().aliased(alias)
    }

    /// A request whose table can be referred to with the alias.
    public func aliased(_ alias: TableAlias<Void>) -> QueryInterfaceRequest<RowDecoder> {
        all().aliased(alias)
    }

    /// The number of rows in the table.
    ///
    /// - Complexity: Runs one SQL statement that counts in the database; allocates nothing per row.
    public func fetchCount(_ db: Database) throws -> Int {
        try all().fetchCount(db)
    }

    /// The region of the full table.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try all().databaseRegion(db)
    }

    /// Deletes all rows of the table, and returns the number of deleted rows.
    ///
    /// - Complexity: Runs one SQL statement (`DELETE`).
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        try all().deleteAll(db)
    }

    /// Updates all rows of the table, and returns the number of updated rows.
    ///
    /// - Complexity: Runs one SQL statement (`UPDATE`).
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows of the table, and returns the number of updated rows.
    ///
    /// - Complexity: Runs one SQL statement (`UPDATE`).
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }
}

extension Table where RowDecoder == Row {
    /// Creates a table whose requests fetch rows.
    public init(_ tableName: String) {
        self.tableName = tableName
    }
}

extension Table: DatabaseRegionConvertible {}

extension Table where RowDecoder: TableRecord {
    /// The columns of the record type, given to closures.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents
}

extension Table {
    /// Updates all rows with an assignment built from the record columns.
    ///
    /// - Complexity: Runs one SQL statement (`UPDATE`).
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (DatabaseComponents) throws -> ColumnAssignment
    ) throws -> Int where RowDecoder: TableRecord {
        try all().updateAll(db, onConflict: conflictResolution, assignment: assignment)
    }

    /// Updates all rows with assignments built from the record columns.
    ///
    /// - Complexity: Runs one SQL statement (`UPDATE`).
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> Int where RowDecoder: TableRecord {
        try all().updateAll(db, onConflict: conflictResolution, assignments: assignments)
    }
}

extension Table where RowDecoder == Row {
    /// A cursor over all rows of the table.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public func fetchCursor(_ db: Database) throws -> RowCursor { try all().fetchCursor(db) }
    /// All rows of the table.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    public func fetchAll(_ db: Database) throws -> [Row] { try all().fetchAll(db) }
    /// A set of all rows of the table.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    public func fetchSet(_ db: Database) throws -> Set<Row> { try all().fetchSet(db) }
    /// The first row of the table, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    public func fetchOne(_ db: Database) throws -> Row? { try all().fetchOne(db) }
}

extension Table where RowDecoder: FetchableRecord {
    /// A cursor over all records of the table.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try all().fetchCursor(db) }
    /// All records of the table.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    /// The first record of the table, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: FetchableRecord & Hashable {
    /// A set of all records of the table.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible {
    /// A cursor over the values of the leftmost column.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> { try all().fetchCursor(db) }
    /// The values of the leftmost column.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    /// The first value of the leftmost column, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// A cursor over the values of the leftmost column.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> {
        try all().fetchCursor(db)
    }
    /// The values of the leftmost column.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    /// The first value of the leftmost column, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & Hashable {
    /// A set of the values of the leftmost column.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// A set of the values of the leftmost column, read straight from the statement.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}
