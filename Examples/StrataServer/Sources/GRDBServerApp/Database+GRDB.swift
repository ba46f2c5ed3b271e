import GRDB
import Hummingbird

/// What the log says the server runs on.
let databaseLibraryName = "GRDB"

/// The pool, configured by hand as `Configuration.server()` configures it in
/// Strata, so that the two builds compare fairly. GRDB has no logging, metrics
/// or tracing integration: with the integrations on, only Hummingbird reports.
func openDatabasePool(_ options: ServerOptions) throws -> DatabasePool {
    var configuration = Configuration()
    configuration.maximumReaderCount = options.maximumReaderCount
    configuration.busyMode = .timeout(options.busyTimeout)
    configuration.prepareDatabase { db in
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
    // Pools are in WAL mode, with SQLite's automatic checkpoints.
    return try DatabasePool(path: options.databasePath, configuration: configuration)
}

/// GRDB has no diagnostics: the GRDB build has no `/diagnostics` routes.
func addDiagnosticRoutes(to router: Router<some RequestContext>, dbPool: DatabasePool) {}

/// GRDB has no read replica: `--replica-of` needs the Strata build.
func openReplica(_ options: ServerOptions) throws -> (any DatabaseReader, (any ReplicaFollower)?) {
    throw HTTPError(.notImplemented, message: "--replica-of needs the Strata build (strata-server)")
}
