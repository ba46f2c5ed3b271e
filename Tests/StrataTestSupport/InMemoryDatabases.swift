import Foundation
import Strata

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
