import Foundation
import Strata

/// A new in-memory database queue with `configuration`, once `sql` (the
/// schema and rows of a test) has run in it.
package func inMemoryDatabase(_ sql: String = "", configuration: Configuration = Configuration()) throws
    -> DatabaseQueue
{
    let dbQueue = try DatabaseQueue(configuration: configuration)
    if !sql.isEmpty {
        try dbQueue.write { db in try db.execute(sql: sql) }
    }
    return dbQueue
}

/// Runs `body` in a write access of a new in-memory database, once `sql`
/// (the schema and rows of a test) has run in it, and returns what `body`
/// returns.
///
/// ```swift
/// try inMemoryWrite("CREATE TABLE t (a)") { db in
///     #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
/// }
/// ```
package func inMemoryWrite<T>(_ sql: String = "", _ body: (Database) throws -> T) throws -> T {
    try DatabaseQueue().write { db in
        if !sql.isEmpty { try db.execute(sql: sql) }
        return try body(db)
    }
}

/// A new in-memory database queue whose statements are recorded in `log`,
/// once `sql` has run in it: the log is empty when it returns.
package func inMemoryDatabase(_ sql: String, recordingIn log: SQLLog) throws -> DatabaseQueue {
    let dbQueue = try inMemoryDatabase(sql, configuration: log.configuration())
    log.clear()
    return dbQueue
}

/// An in-memory database queue on which `setup` has run, in one write: the
/// tables and rows of a test.
///
/// ```swift
/// let dbQueue = try inMemoryDatabase { db in
///     try db.execute(sql: "CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT)")
/// }
/// ```
package func inMemoryDatabase(
    configuration: Configuration = Configuration(), _ setup: (Database) throws -> Void
) throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue(configuration: configuration)
    try dbQueue.write(setup)
    return dbQueue
}

/// An in-memory database queue whose statements go to a new ``SQLLog``:
/// `setup` runs first (tables and rows), then the log is cleared, so that
/// the log holds only what the test runs.
///
/// ```swift
/// let (dbQueue, log) = try makeLoggedDatabase { db in try Player.createTable(db) }
/// try dbQueue.write { db in try Player.deleteAll(db) }
/// #expect(log.statements(.user) == [#"DELETE FROM "player""#])
/// ```
package func makeLoggedDatabase(_ setup: (Database) throws -> Void = { _ in }) throws -> (DatabaseQueue, SQLLog) {
    let log = SQLLog()
    let dbQueue = try inMemoryDatabase(configuration: log.configuration(), setup)
    log.clear()
    return (dbQueue, log)
}

/// The records that `sql` fetches from a fresh in-memory database (a query
/// that needs no table, such as a `SELECT` of literal values).
package func fetchInMemory<Record: FetchableRecord>(_ type: Record.Type, sql: String) throws -> [Record] {
    try inMemoryDatabase().read { try Record.fetchAll($0, sql: sql) }
}
