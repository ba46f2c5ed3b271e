import Logging
import Metrics
import Strata

/// What the log says the server runs on.
let databaseLibraryName = "Strata"

/// The pool, configured for a server in one line, with Strata's logging,
/// metrics and tracing when the integrations are on.
func openDatabasePool(_ options: ServerOptions) throws -> DatabasePool {
    // A busy timeout for writes, synchronous = NORMAL, the readers, and SQLite's
    // automatic checkpoints, which Litestream needs (it runs its own, and reads
    // the WAL as it grows).
    var configuration = Configuration.server(
        maximumReaderCount: options.maximumReaderCount,
        busyTimeout: options.busyTimeout,
        automaticCheckpoints: true)
    if options.integrations {
        let reports = options.databaseReports
        if reports.contains(.logging) {
            var logger = Logger(label: "strata")
            logger.logLevel = options.logger.logLevel
            configuration.logger = logger  // SQL at trace, slow statements and long reads at warning
            configuration.slowStatementThreshold = options.slowStatementThreshold
            configuration.longReadTransactionThreshold = options.longReadTransactionThreshold
        }
        if reports.contains(.metrics) {
            configuration.metrics = DatabaseMetrics(factory: options.metricsFactory)
        }
        if reports.contains(.tracing) {
            configuration.tracing = DatabaseTracing(tracer: options.tracer)
        }
        if reports.contains(.diagnostics) {
            // Diagnostics (Strata's own): the statements that take the time, for
            // `GET /diagnostics/statements`; a warning in the log for each
            // statement whose plan scans a table of 1,000 rows or more; the WAL
            // and the long reads watched, for `GET /diagnostics/storage`, with a
            // warning in the log when the WAL passes 64 MB or a read stays open
            // 30 s while it grows.
            configuration.statementStatistics = StatementStatisticsCollector()
            configuration.queryPlanMonitor = QueryPlanMonitor(minimumRowCount: 1000) { _ in }
            configuration.storageHealthMonitor = StorageHealthMonitor(
                walSizeLimit: 64 * 1024 * 1024, readTransactionThreshold: 30
            ) { _ in }
        }
    }
    return try DatabasePool(path: options.databasePath, configuration: configuration)
}
