/// A lazy, single-pass sequence of elements whose iteration may throw.
///
/// Database cursors read rows as they are stepped, without loading them all
/// in memory. Iterate them inside the database access that created them:
///
/// ```swift
/// try dbQueue.read { db in
///     let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
///     while let name = try names.next() {
///         print(name)
///     }
/// }
/// ```
public protocol Cursor<Element>: AnyObject {
    /// What `next()` returns: rows, values or records for the database cursors.
    associatedtype Element

    /// Advances to the next element and returns it, or nil at the end.
    func next() throws -> Element?

    /// Calls `body` for each remaining element. The default implementation
    /// calls `next()` until the end; cursors may provide a faster one.
    func forEach(_ body: (Element) throws -> Void) throws
}

/// A cursor over the results of a database statement.
///
/// It iterates the live statement: never use it outside the access that
/// created it, nor modify the database while it iterates.
public protocol DatabaseCursor<Element>: Cursor {
    /// The statement iterated by the cursor: the shared `next()`, `sql` and `arguments` read it.
    /// A requirement for the library's cursors; apps do not call it.
    var _statement: Statement { get }

    /// Whether the statement returned its last row, so that `next()` stops stepping and a dropped
    /// cursor does not reset a finished statement. Library bookkeeping; apps do not touch it.
    var _isDone: Bool { get set }

    /// Decodes the element at the current row of the stepped statement. Called by the shared
    /// `next()`; apps do not call it.
    func _element(sqliteStatement: SQLiteStatement) throws -> Element
}

extension DatabaseCursor {
    /// Resets the statement of a cursor dropped before its end, so that a
    /// cached statement left half-read does not keep the database busy.
    /// `execution` is ``Statement/executionCount`` when the cursor started:
    /// a statement that a newer cursor iterates is left alone.
    @usableFromInline
    func _resetUnfinishedStatement(execution: Int) {
        if !_isDone && _statement.executionCount == execution {
            _statement.reset()
        }
    }

    /// The SQL of the iterated statement.
    public var sql: String { _statement.sql }

    /// The arguments of the iterated statement.
    public var arguments: StatementArguments { _statement.arguments }

    /// The number of columns of the iterated statement.
    public var columnCount: Int { _statement.columnCount }

    /// The column names of the iterated statement.
    public var columnNames: [String] { _statement.columnNames }

    /// The database region read by the iterated statement.
    public var databaseRegion: DatabaseRegion { _statement.databaseRegion }

    /// Steps the statement and decodes the next element. Wraps `sqlite3_step`.
    @inlinable
    public func next() throws -> Element? {
        if _isDone {
            // A cursor that failed keeps failing.
            if let failure = _statement.stepFailure { throw failure }
            return nil
        }
        let statement = _statement
        let sqliteStatement = statement.sqliteStatement
        switch sqlite3_step(sqliteStatement) {
        case SQLITE_ROW:
            statement.steppedRowCount &+= 1
            if statement.checksRecompilation { statement.checkRecompilation() }
            return try _element(sqliteStatement: sqliteStatement)
        case SQLITE_DONE:
            _isDone = true
            statement.didFinishStepping()
            return nil
        case let code:
            _isDone = true
            try statement.didFailStepping(code)
        }
    }

    /// Calls `body` for each remaining element, faster than repeated `next()`.
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) throws {
        try consumeEach { try body($0) }
    }

    /// Appends each remaining element to `elements`, moving it in: the
    /// `fetchAll` of the library's cursors. Through `forEach`, `append`
    /// would copy each element from the closure's borrowed argument, then
    /// destroy it: a retain and a release of each string of a record.
    @inlinable
    func appendElements(to elements: inout [Element]) throws {
        try consumeEach { elements.append($0) }
    }

    /// The loop of `forEach`: calls `body` with each remaining element,
    /// which `body` owns.
    @inlinable
    func consumeEach(_ body: (consuming Element) throws -> Void) throws {
        if _isDone {
            if let failure = _statement.stepFailure { throw failure }
            return
        }
        let statement = _statement
        let sqliteStatement = statement.sqliteStatement
        // Rows are counted in a local, added to the statement's count before
        // the end is told (the statement statistics read it then), or when
        // `body` throws.
        var rowCount = 0
        defer { statement.steppedRowCount &+= rowCount }
        while true {
            switch sqlite3_step(sqliteStatement) {
            case SQLITE_ROW:
                rowCount &+= 1
                if statement.checksRecompilation { statement.checkRecompilation() }
                try body(_element(sqliteStatement: sqliteStatement))
            case SQLITE_DONE:
                _isDone = true
                statement.steppedRowCount &+= rowCount
                rowCount = 0
                statement.didFinishStepping()
                return
            case let code:
                _isDone = true
                statement.steppedRowCount &+= rowCount
                rowCount = 0
                try statement.didFailStepping(code)
            }
        }
    }
}
