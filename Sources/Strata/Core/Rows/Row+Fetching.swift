/// A cursor of rows. The row it returns is reused at each step: keep one with
/// ``Row/copy()``.
public final class RowCursor: DatabaseCursor {
    /// Each element is the same reused row, on the current step: copy it to keep its values.
    public typealias Element = Row

    /// The statement this cursor steps; used by the shared `DatabaseCursor` code, apps do not read it.
    public let _statement: Statement
    /// Set once the statement returned its last row; bookkeeping for `DatabaseCursor`, apps do not touch it.
    @exclusivity(unchecked)
    public var _isDone = false
    /// The run of the statement that this cursor iterates.
    private var execution = 0
    private let row: Row

    @usableFromInline
    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)?) throws {
        _statement = statement
        if let arguments {
            try statement.setArguments(arguments)
        }
        let live = Row(statement: statement)
        if let adapter {
            row = Row(base: live, adapter: try adapter._layoutedAdapter(from: statement))
        } else {
            row = live
        }
        try statement.prepareExecution()
        execution = statement.executionCount
    }

    deinit {
        _resetUnfinishedStatement(execution: execution)
    }

    /// Returns the reused row, now on the current step; called by `next()`, apps do not call it.
    public func _element(sqliteStatement: SQLiteStatement) throws -> Row {
        row
    }
}

extension Row {
    // MARK: From statements

    /// Returns a cursor of the rows of a statement.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public static func fetchCursor(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> RowCursor {
        try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// Returns an array of copied rows.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    public static func fetchAll(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> [Row] {
        let cursor = try fetchCursor(statement, arguments: arguments, adapter: adapter)
        var rows: [Row] = []
        try cursor.forEach { rows.append($0.copy()) }
        return rows
    }

    /// Returns a set of copied rows.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    public static func fetchSet(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> Set<Row> {
        let cursor = try fetchCursor(statement, arguments: arguments, adapter: adapter)
        var rows = Set<Row>()
        try cursor.forEach { rows.insert($0.copy()) }
        return rows
    }

    /// Returns the first row, copied, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    public static func fetchOne(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> Row? {
        let cursor = try fetchCursor(statement, arguments: arguments, adapter: adapter)
        let row = try cursor.next()?.copy()
        statement.reset()
        return row
    }

    // MARK: From SQL

    /// Returns a cursor of the rows of an SQL query.
    ///
    /// ```swift
    /// let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player")
    /// while let row = try rows.next() { ... }
    /// ```
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public static func fetchCursor(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> RowCursor {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the rows of an SQL query.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    public static func fetchAll(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> [Row] {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns a set of the rows of an SQL query.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    public static func fetchSet(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> Set<Row> {
        try fetchSet(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns the first row of an SQL query, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    public static func fetchOne(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> Row? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    // MARK: From requests

    /// Returns a cursor of the rows of a request.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access. A cursor does not run the prefetch statements of `including(all:)`:
    ///   fetch such a request with `fetchAll`, `fetchSet` or `fetchOne`.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RowCursor {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns an array of the rows of a request.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows. Plus one per prefetched association (`including(all:)`).
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try prepared.fetchRows(fetchAll(prepared.statement, adapter: prepared.adapter), db)
    }

    /// Returns a set of the rows of a request.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows. Plus one per prefetched association (`including(all:)`).
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Row> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try Set(prepared.fetchRows(fetchAll(prepared.statement, adapter: prepared.adapter), db))
    }

    /// Returns the first row of a request, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only. Plus one per prefetched
    ///   association (`including(all:)`).
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
        let prepared = try request.makePreparedRequest(db, forSingleResult: true)
        guard let row = try fetchOne(prepared.statement, adapter: prepared.adapter) else { return nil }
        return try prepared.fetchRows([row], db).first
    }
}
