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
