import Foundation
import Strata

/// Which recorded statements a test looks at: the one filter vocabulary of
/// the kit's SQL recorders (``SQLLog`` and ``recordSQL(_:_:expanded:_:)``).
///
/// - ``all``: every statement.
/// - ``user``: without transactions and savepoints, and without the schema
///   queries of the library (`PRAGMA`, `sqlite_master`).
/// - ``changes``: ``user`` without `SELECT` statements: what writes.
/// - ``withoutSchemaQueries``: without the schema queries of the library, but
///   with transactions and savepoints.
package struct SQLFilter: Sendable {
    /// The kinds of statements the filter drops.
    private let dropsTransactions: Bool
    private let dropsSchemaQueries: Bool
    private let dropsSelects: Bool

    /// Every statement.
    package static let all = SQLFilter(dropsTransactions: false, dropsSchemaQueries: false, dropsSelects: false)
    /// Without transactions, savepoints and the schema queries of the library.
    package static let user = SQLFilter(dropsTransactions: true, dropsSchemaQueries: true, dropsSelects: false)
    /// Without transactions, savepoints, schema queries and `SELECT`s.
    package static let changes = SQLFilter(dropsTransactions: true, dropsSchemaQueries: true, dropsSelects: true)
    /// Without the schema queries of the library.
    package static let withoutSchemaQueries = SQLFilter(
        dropsTransactions: false, dropsSchemaQueries: true, dropsSelects: false)

    /// Whether the filter keeps a statement.
    package func keeps(_ sql: String) -> Bool {
        let upper = sql.uppercased()
        if dropsTransactions, Self.isTransaction(upper) { return false }
        if dropsSchemaQueries, Self.isSchemaQuery(upper) { return false }
        if dropsSelects, upper.hasPrefix("SELECT") { return false }
        return true
    }

    /// Whether a statement starts or ends a transaction or savepoint.
    private static func isTransaction(_ upper: String) -> Bool {
        ["SAVEPOINT", "RELEASE", "BEGIN", "COMMIT", "ROLLBACK"].contains { upper.hasPrefix($0) }
    }

    /// Whether a statement is one of the library's reads of the schema.
    private static func isSchemaQuery(_ upper: String) -> Bool {
        upper.hasPrefix("PRAGMA") || upper.contains("SQLITE_MASTER") || upper.contains("SQLITE_TEMP_MASTER")
            || upper.contains("SQLITE_SCHEMA") || upper.contains("PRAGMA_")
    }
}

/// The SQL of the statements that connections executed, for exact-SQL
/// assertions. One log may record several connections (a pool's writer and
/// readers): statements are appended in the order they ran.
///
/// ```swift
/// let log = SQLLog()
/// let dbQueue = try DatabaseQueue(configuration: log.configuration())
/// try dbQueue.write { db in try Player.deleteAll(db) }
/// #expect(log.statements(.user) == [#"DELETE FROM "player""#])
/// ```
package final class SQLLog: @unchecked Sendable {
    private let recorded = LockedBox<[String]>([])

    package init() {}

    /// The statements recorded so far that `filter` keeps, oldest first.
    package func statements(_ filter: SQLFilter = .all) -> [String] {
        recorded.value.filter(filter.keeps)
    }

    /// The last statement recorded.
    package var last: String? { recorded.value.last }

    /// Forgets the statements recorded so far.
    package func clear() { recorded.value = [] }

    /// Records a statement.
    package func append(_ sql: String) { recorded.append(sql) }

    /// A configuration whose connections record their statements here.
    package func configuration(_ base: Configuration = Configuration()) -> Configuration {
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
}

/// Runs `body` and returns the SQL of the statements it executed on `db`
/// that `filter` keeps; with `expanded`, the SQL has its arguments in place
/// (`expandedDescription`).
package func recordSQL(
    _ db: Database, _ filter: SQLFilter = .user, expanded: Bool = false, _ body: () throws -> Void
) rethrows -> [String] {
    let log = SQLLog()
    db.trace { event in
        if expanded {
            log.append(event.expandedDescription)
        } else if case .statement(let statement) = event {
            log.append(statement.sql)
        }
    }
    defer { db.trace(options: [], nil) }
    try body()
    return log.statements(filter)
}

/// The SQL of a request, prepared without running it.
package func requestSQL(_ db: Database, _ request: some FetchRequest, forSingleResult: Bool = false) throws -> String {
    try request.makePreparedRequest(db, forSingleResult: forSingleResult).statement.sql
}

/// The arguments of a request, prepared without running it.
package func requestArguments(_ db: Database, _ request: some FetchRequest) throws -> StatementArguments {
    try request.makePreparedRequest(db, forSingleResult: false).statement.arguments
}
