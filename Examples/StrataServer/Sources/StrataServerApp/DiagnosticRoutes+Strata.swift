import Hummingbird
import Strata

/// What `GET /diagnostics/statements` returns: the statement statistics,
/// the longest in total first.
struct StatementsReport: ResponseEncodable {
    var statements: [StatementStatistics]
}

/// The Strata build's diagnostic routes (GRDB has no diagnostics):
///
/// - `GET /diagnostics/statements`: each distinct statement with its
///   executions, durations, rows and SQLite counters, the longest in total
///   first (empty without the integrations). `DELETE` starts them over.
/// - `GET /diagnostics/storage`: the storage health report (pages, WAL
///   frames in use, last checkpoint, oldest read transaction), as text.
/// - `GET /diagnostics/sqlite`: the linked SQLite, its compile options and
///   the features Strata's API needs.
func addDiagnosticRoutes(to router: Router<some RequestContext>, dbPool: DatabasePool) {
    router.get("diagnostics/statements") { _, _ in
        StatementsReport(statements: dbPool.statementStatistics())
    }
    router.delete("diagnostics/statements") { _, _ -> HTTPResponse.Status in
        dbPool.resetStatementStatistics()
        return .noContent
    }
    router.get("diagnostics/storage") { _, _ in
        try dbPool.storageHealth().description
    }
    router.get("diagnostics/sqlite") { _, _ in
        try await dbPool.read { db in db.linkedSQLite.description }
    }
}
