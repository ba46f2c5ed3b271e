import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Metrics

/// `strata-server` and `grdb-server`: the same command, over two libraries.
public struct ServerCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "\(databaseLibraryName.lowercased())-server",
        abstract: "A small REST API over SQLite, with server-sent events (\(databaseLibraryName) build).")

    @Option(help: "The database file (env DATABASE_PATH).")
    var database = ProcessInfo.processInfo.environment["DATABASE_PATH"] ?? "library.sqlite"

    @Option(help: "The address to bind (env HOST).")
    var hostname = ProcessInfo.processInfo.environment["HOST"] ?? "127.0.0.1"

    @Option(help: "The port (env PORT).")
    var port = ProcessInfo.processInfo.environment["PORT"].flatMap(Int.init) ?? 8080

    @Option(
        help: """
            Serve reads and /events as a read replica of the database that Litestream replicates at this URL \
            (Strata build): runs `litestream restore -f` into --database.
            """)
    var replicaOf: String?

    @Option(help: "The Litestream executable of a replica (env LITESTREAM).")
    var litestream = ProcessInfo.processInfo.environment["LITESTREAM"] ?? "litestream"

    @Option(help: "The readers of the database pool.")
    var readers = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)

    @Option(help: "Authors to create at start, ten books each, if the database has none.")
    var seedAuthors = 0

    @Option(help: "The log level (env LOG_LEVEL). With Strata and the integrations, trace logs the SQL.")
    var logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"] ?? "info"

    @Flag(inversion: .prefixedNo, help: "Logs, metrics (GET /metrics) and traces of requests and the database.")
    var integrations = true

    @Flag(
        inversion: .prefixedNo,
        help: "With the integrations: Hummingbird's log, metrics and tracing middleware (off: the database's only).")
    var middleware = true

    @Option(
        help: ArgumentHelp(
            "With the integrations, in the Strata build: the database's reports, comma-separated.",
            valueName: "logging,metrics,tracing,diagnostics"))
    var databaseReports = DatabaseReport.allCases.map(\.rawValue).joined(separator: ",")

    public init() {}

    public func run() async throws {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("Unknown log level \(logLevel)")
        }
        var logger = Logger(label: "\(databaseLibraryName.lowercased())-server")
        logger.logLevel = level
        var options = ServerOptions(databasePath: database)
        options.hostname = hostname
        options.port = port
        options.maximumReaderCount = readers
        options.seedAuthors = seedAuthors
        options.replicaOf = replicaOf
        options.litestreamPath = litestream
        options.logger = logger
        options.integrations = integrations
        options.middleware = middleware
        do {
            options.databaseReports = try DatabaseReport.set(fromList: databaseReports)
        } catch {
            throw ValidationError("\(error)")
        }
        if integrations {
            let metrics = TextMetrics()
            MetricsSystem.bootstrap(metrics)
            options.metricsEndpoint = metrics
            // Spans go to the tracer bootstrapped in InstrumentationSystem:
            // bootstrap an exporter here (swift-otel, for example) to see them.
        }
        let app = try buildApplication(options)
        try await app.runService()
    }
}
