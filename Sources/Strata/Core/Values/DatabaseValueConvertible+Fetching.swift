/// A cursor of values read from the leftmost column, through `DatabaseValue`.
public final class DatabaseValueCursor<Value: DatabaseValueConvertible>: DatabaseCursor {
    /// Each element is the value of the leftmost column, decoded through `DatabaseValue`.
    public typealias Element = Value

    /// The statement this cursor steps; used by the shared `DatabaseCursor` code, apps do not read it.
    public let _statement: Statement
    /// Set once the statement returned its last row; bookkeeping for `DatabaseCursor`, apps do not touch it.
    @exclusivity(unchecked)
    public var _isDone = false
    /// The run of the statement that this cursor iterates.
    private var execution = 0
    @usableFromInline let row: Row
    @usableFromInline let columnIndex: CInt

    @usableFromInline
    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)?) throws {
        _statement = statement
        if let arguments {
            try statement.setArguments(arguments)
        }
        let live = Row(statement: statement)
        if let adapter {
            let layouted = try adapter._layoutedAdapter(from: statement)
            row = Row(base: live, adapter: layouted)
            columnIndex = 0
        } else {
            row = live
            columnIndex = 0
        }
        if row.count == 0 {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "no column to fetch values from", sql: statement.sql)
        }
        try statement.prepareExecution()
        execution = statement.executionCount
    }

    deinit {
        _resetUnfinishedStatement(execution: execution)
    }

    /// Decodes the leftmost column through `DatabaseValue`; called by `next()`, apps do not call it.
    @inlinable
    public func _element(sqliteStatement: SQLiteStatement) throws -> Value {
        try row.decode(Value.self, atIndex: 0)
    }
}

/// A cursor of values read straight from the leftmost column of the statement.
public final class FastDatabaseValueCursor<Value: DatabaseValueConvertible & StatementColumnConvertible>:
    DatabaseCursor
{
    /// Each element is the value of the leftmost column, read straight from the statement.
    public typealias Element = Value

    /// The statement this cursor steps; used by the shared `DatabaseCursor` code, apps do not read it.
    public let _statement: Statement
    /// Set once the statement returned its last row; bookkeeping for `DatabaseCursor`, apps do not touch it.
    @exclusivity(unchecked)
    public var _isDone = false
    /// The run of the statement that this cursor iterates.
    private var execution = 0
    @usableFromInline let columnIndex: CInt
    @usableFromInline let row: Row

    @usableFromInline
    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)?) throws {
        _statement = statement
        if let arguments {
            try statement.setArguments(arguments)
        }
        let live = Row(statement: statement)
        if let adapter {
            let layouted = try adapter._layoutedAdapter(from: statement)
            guard let first = layouted._mapping.columns.first else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE, message: "no column to fetch values from", sql: statement.sql)
            }
            columnIndex = CInt(first.0)
            row = Row(base: live, adapter: layouted)
        } else {
            if statement.columnCount == 0 {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE, message: "no column to fetch values from", sql: statement.sql)
            }
            columnIndex = 0
            row = live
        }
        try statement.prepareExecution()
        execution = statement.executionCount
    }

    deinit {
        _resetUnfinishedStatement(execution: execution)
    }

    /// Reads the leftmost column straight from the SQLite statement, without a `DatabaseValue`;
    /// called by `next()`, apps do not call it.
    @inlinable
    public func _element(sqliteStatement: SQLiteStatement) throws -> Value {
        if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: columnIndex) {
            return value
        }
        throw row.valueMismatch(Value.self, atIndex: 0)
    }
}

extension DatabaseValueConvertible {
    // MARK: From statements

    /// Returns a cursor of the values of the leftmost column.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public static func fetchCursor(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> DatabaseValueCursor<Self> {
        try DatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the values of the leftmost column.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public static func fetchAll(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> [Self] {
        let cursor = try fetchCursor(statement, arguments: arguments, adapter: adapter)
        var values: [Self] = []
        try cursor.appendElements(to: &values)
        return values
    }

    /// Returns the value of the leftmost column of the first row; nil when
    /// there is no row or the value is NULL.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    @inlinable
    public static func fetchOne(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> Self? {
        let cursor = try DatabaseValueCursor<Self?>(statement: statement, arguments: arguments, adapter: adapter)
        let value = try cursor.next()
        statement.reset()
        return value.flatMap { $0 }
    }

    // MARK: From SQL

    /// Returns a cursor of the values of the leftmost column of an SQL query.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public static func fetchCursor(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> DatabaseValueCursor<Self> {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the values of the leftmost column of an SQL query.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public static func fetchAll(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> [Self] {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns the value of the leftmost column of the first row, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    @inlinable
    public static func fetchOne(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> Self? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    // MARK: From requests

    /// Returns a cursor of the values of a request.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> DatabaseValueCursor<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns an array of the values of a request.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchAll(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns the value of the first row of a request, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    @inlinable
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let prepared = try request.makePreparedRequest(db, forSingleResult: true)
        return try fetchOne(prepared.statement, adapter: prepared.adapter)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// Returns a set of the values of the leftmost column.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public static func fetchSet(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> Set<Self> {
        let cursor = try fetchCursor(statement, arguments: arguments, adapter: adapter)
        var values = Set<Self>()
        try cursor.forEach { values.insert($0) }
        return values
    }

    /// Returns a set of the values of the leftmost column of an SQL query.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public static func fetchSet(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> Set<Self> {
        try fetchSet(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns a set of the values of a request.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchSet(prepared.statement, adapter: prepared.adapter)
    }
}

// MARK: - Fast path

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// Returns a cursor of the values of the leftmost column, read straight
    /// from the statement.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public static func fetchCursor(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> FastDatabaseValueCursor<Self> {
        try FastDatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the values of the leftmost column, read straight
    /// from the statement.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public static func fetchAll(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> [Self] {
        let cursor: FastDatabaseValueCursor<Self> = try fetchCursor(statement, arguments: arguments, adapter: adapter)
        var values: [Self] = []
        try cursor.appendElements(to: &values)
        return values
    }

    /// Returns the value of the first row, read straight from the statement;
    /// nil when there is no row or the value is NULL.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    @inlinable
    public static func fetchOne(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> Self? {
        let cursor = try FastDatabaseValueCursor<Self?>(statement: statement, arguments: arguments, adapter: adapter)
        let value = try cursor.next()
        statement.reset()
        return value.flatMap { $0 }
    }

    /// Returns a cursor of the values of an SQL query, read straight from the statement.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public static func fetchCursor(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> FastDatabaseValueCursor<Self> {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the values of an SQL query, read straight from the statement.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public static func fetchAll(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> [Self] {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns the value of the first row of an SQL query, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    @inlinable
    public static func fetchOne(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> Self? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns a cursor of the values of a request, read straight from the statement.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public static func fetchCursor(
        _ db: Database, _ request: some FetchRequest
    ) throws -> FastDatabaseValueCursor<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns an array of the values of a request, read straight from the statement.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchAll(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns the value of the first row of a request, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    @inlinable
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let prepared = try request.makePreparedRequest(db, forSingleResult: true)
        return try fetchOne(prepared.statement, adapter: prepared.adapter)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    /// Returns a set of the values of the leftmost column, read straight from the statement.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public static func fetchSet(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> Set<Self> {
        let cursor: FastDatabaseValueCursor<Self> = try fetchCursor(statement, arguments: arguments, adapter: adapter)
        var values = Set<Self>()
        try cursor.forEach { values.insert($0) }
        return values
    }

    /// Returns a set of the values of an SQL query, read straight from the statement.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public static func fetchSet(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> Set<Self> {
        try fetchSet(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns a set of the values of a request, read straight from the statement.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchSet(prepared.statement, adapter: prepared.adapter)
    }
}
