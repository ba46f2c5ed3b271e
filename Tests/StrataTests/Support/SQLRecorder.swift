import Foundation
import Strata

/// The SQL of the statements that connections executed, for exact-SQL
/// assertions. One log may record several connections (a pool's writer and
/// readers): statements are appended in the order they ran.
///
/// ```swift
/// let log = SQLLog()
/// let dbQueue = try DatabaseQueue(configuration: log.configuration())
/// try dbQueue.write { db in try Player.deleteAll(db) }
/// #expect(log.last == #"DELETE FROM "player""#)
/// ```
final class SQLLog: @unchecked Sendable {
    private let lock = TestLock()
    private var recorded: [String] = []

    init() {}

    /// Every statement recorded so far, oldest first.
    var statements: [String] { lock.withLock { recorded } }

    /// The statements recorded so far, without transactions, savepoints and
    /// the schema queries of the library (`PRAGMA`, `sqlite_master`).
    var userStatements: [String] { statements.filter { !Self.isBookkeeping($0) } }

    /// The last statement recorded.
    var last: String? { lock.withLock { recorded.last } }

    /// Forgets the statements recorded so far.
    func clear() { lock.withLock { recorded.removeAll() } }

    func append(_ sql: String) { lock.withLock { recorded.append(sql) } }

    /// A configuration whose connections record their statements here.
    func configuration(_ base: Configuration = Configuration()) -> Configuration {
        var configuration = base
        configuration.prepareDatabase { db in
            db.trace { event in
                if case .statement(let statement) = event {
                    self.append(statement.sql)
                }
            }
        }
        return configuration
    }

    /// Whether a statement ends or starts a transaction or savepoint, or
    /// reads the schema.
    static func isBookkeeping(_ sql: String) -> Bool {
        let upper = sql.uppercased()
        return ["SAVEPOINT", "RELEASE", "BEGIN", "COMMIT", "ROLLBACK", "PRAGMA"].contains { upper.hasPrefix($0) }
            || upper.contains("SQLITE_MASTER") || upper.contains("SQLITE_TEMP_MASTER")
            || upper.contains("SQLITE_SCHEMA")
            || upper.contains("PRAGMA_")
    }
}

/// Runs `block` and returns the SQL of every statement it executed.
func allExecutedSQL(_ db: Database, _ block: () throws -> Void) rethrows -> [String] {
    var statements: [String] = []
    db.trace { event in
        if case .statement(let statement) = event {
            statements.append(statement.sql)
        }
    }
    defer { db.trace(options: [], nil) }
    try block()
    return statements
}

/// Runs `block` and returns the SQL of the statements it executed, without
/// savepoint, transaction, select and pragma statements.
func executedSQL(_ db: Database, _ block: () throws -> Void) rethrows -> [String] {
    let ignoredPrefixes = ["SAVEPOINT", "RELEASE", "BEGIN", "COMMIT", "ROLLBACK", "SELECT", "PRAGMA"]
    return try allExecutedSQL(db, block).filter { sql in
        !ignoredPrefixes.contains { sql.uppercased().hasPrefix($0) }
    }
}

/// The SQL of a request, prepared without running it.
func requestSQL(_ db: Database, _ request: some FetchRequest, forSingleResult: Bool = false) throws -> String {
    try request.makePreparedRequest(db, forSingleResult: forSingleResult).statement.sql
}

/// The arguments of a request, prepared without running it.
func requestArguments(_ db: Database, _ request: some FetchRequest) throws -> StatementArguments {
    try request.makePreparedRequest(db, forSingleResult: false).statement.arguments
}

/// The SQL of the statements run by `body` on `db`, with their arguments
/// (`expandedDescription`), without the schema queries of the library.
func recordedSQL(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
    final class Log { var statements: [String] = [] }
    let log = Log()
    db.trace { event in
        let sql = event.expandedDescription
        if sql.hasPrefix("PRAGMA") || sql.contains("sqlite_master") || sql.contains("sqlite_temp_master")
            || sql.contains("pragma_database_list") || sql.hasPrefix("SELECT rowid FROM")
        {
            return
        }
        log.statements.append(sql)
    }
    defer { db.trace(nil) }
    try body()
    return log.statements
}
