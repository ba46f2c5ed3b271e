import Foundation
import Logging
import Metrics
import Tracing

/// How the server opens its database and what it reports.
public struct ServerOptions: Sendable {
    /// The address the server binds: loopback unless told otherwise.
    public var hostname = "127.0.0.1"
    /// The port; 0 picks a free one.
    public var port = 8080
    /// The database file. It is created, and migrated, at start (on a
    /// replica, the follower restores it).
    public var databasePath: String
    /// When set, the server is a read replica (Strata build only): it runs
    /// `litestream restore -f` from this replica URL into `databasePath`,
    /// restarts it when it stops, reads through a `DatabaseReplica`, and
    /// serves the read routes and `/events`; writes answer 405.
    public var replicaOf: String?
    /// The Litestream executable of a replica server.
    public var litestreamPath = "litestream"
    /// How often a replica's follower looks for new changes at the URL.
    public var followInterval = "100ms"
    /// The readers of the pool. Both builds use the same number.
    public var maximumReaderCount = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
    /// How long a write waits for a lock held by another process (Litestream,
    /// a backup) before it fails with SQLITE_BUSY.
    public var busyTimeout: Double = 5
    /// At start, when the database has no author: the authors to create,
    /// with ten books each (for the load script).
    public var seedAuthors = 0
    /// The server's logger.
    public var logger = Logger(label: "\(databaseLibraryName.lowercased())-server")
    /// Whether the server reports what it does: Hummingbird's log, metrics and
    /// tracing middleware, and, in the Strata build, Strata's integrations
    /// (SQL log, slow statements, long reads, database metrics, spans).
    public var integrations = true
    /// With the integrations: whether Hummingbird's log, metrics and tracing
    /// middleware run too. Off, only the database reports (Strata's
    /// integrations and diagnostics in the Strata build, nothing in the GRDB
    /// build), so that a load test separates the two costs.
    public var middleware = true
    /// With the integrations, in the Strata build: which of the database's
    /// reports run (all by default). The load script turns them on one at a
    /// time, to measure what each costs. The GRDB build has none.
    public var databaseReports = Set(DatabaseReport.allCases)
    /// With the integrations: statements slower than this are logged as
    /// warnings.
    public var slowStatementThreshold: Double? = 0.1
    /// With the integrations: reads open longer than this are logged as
    /// warnings (they hold back WAL checkpoints).
    public var longReadTransactionThreshold: Double? = 1
    /// With the integrations: where the metrics go. Nil uses the factory
    /// bootstrapped in `MetricsSystem`.
    public var metricsFactory: (any MetricsFactory)?
    /// With the integrations: the metrics that `GET /metrics` shows, if any.
    public var metricsEndpoint: TextMetrics?
    /// With the integrations: the tracer of database spans. Nil uses the one
    /// bootstrapped in `InstrumentationSystem` (Hummingbird's tracing
    /// middleware always does).
    public var tracer: (any Tracer)?

    public init(databasePath: String) {
        self.databasePath = databasePath
    }
}

/// One of the reports the database makes when the integrations are on
/// (Strata build).
public enum DatabaseReport: String, CaseIterable, Sendable {
    /// Strata's logger: slow statements and long reads as warnings, the SQL
    /// at `trace`.
    case logging
    /// `DatabaseMetrics`: statement durations, access waits, transactions.
    case metrics
    /// `DatabaseTracing`: a span per access and per statement under the
    /// request's span.
    case tracing
    /// Strata's diagnostics: statement statistics, the query plan monitor,
    /// the storage health monitor.
    case diagnostics
}

extension DatabaseReport {
    /// The reports of a comma-separated list (`logging,metrics`); throws for
    /// a name that is none of them.
    public static func set(fromList list: String) throws -> Set<DatabaseReport> {
        var reports: Set<DatabaseReport> = []
        for name in list.split(separator: ",") {
            let name = name.trimmingCharacters(in: .whitespaces)
            if name.isEmpty { continue }
            guard let report = DatabaseReport(rawValue: name) else {
                throw UnknownDatabaseReport(name: name)
            }
            reports.insert(report)
        }
        return reports
    }
}

/// A name of `--database-reports` that is no report.
public struct UnknownDatabaseReport: Error, CustomStringConvertible {
    /// The unknown name.
    public var name: String
    public var description: String {
        "Unknown database report \(name): use \(DatabaseReport.allCases.map(\.rawValue).joined(separator: ", "))"
    }
}
