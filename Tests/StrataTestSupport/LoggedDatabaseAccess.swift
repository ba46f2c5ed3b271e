import Strata

/// Runs `body` in a write access of the queue of `database`, with the log of
/// its statements: `database` is a queue and its log, as
/// ``makeLoggedDatabase(_:)`` returns them. For the tests that use the queue
/// for one access only.
///
/// ```swift
/// try loggedWrite(makeLoggedDatabase(Player.createTable)) { db, log in
///     try Player.deleteAll(db)
///     #expect(log.statements(.user) == [#"DELETE FROM "player""#])
/// }
/// ```
package func loggedWrite<T>(_ database: (DatabaseQueue, SQLLog), _ body: (Database, SQLLog) throws -> T) throws
    -> T
{
    let (dbQueue, log) = database
    return try dbQueue.write { db in try body(db, log) }
}

/// Runs `body` in a read access of the queue of `database`, with the log of
/// its statements (see ``loggedWrite(_:_:)``).
package func loggedRead<T>(_ database: (DatabaseQueue, SQLLog), _ body: (Database, SQLLog) throws -> T) throws -> T {
    let (dbQueue, log) = database
    return try dbQueue.read { db in try body(db, log) }
}
