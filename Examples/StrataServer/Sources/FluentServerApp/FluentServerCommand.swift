import ArgumentParser
import Foundation
import Hummingbird
import Logging

/// `fluent-server`: the example's API written with FluentKit, on Strata's
/// driver or on fluent-sqlite-driver.
public struct FluentServerCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "fluent-server",
        abstract: "The example's REST API written with FluentKit, on Strata's driver or fluent-sqlite-driver.")

    @Option(help: "The database file (env DATABASE_PATH).")
    var database = ProcessInfo.processInfo.environment["DATABASE_PATH"] ?? "library.sqlite"

    @Option(help: "The address to bind (env HOST).")
    var hostname = ProcessInfo.processInfo.environment["HOST"] ?? "127.0.0.1"

    @Option(help: "The port (env PORT).")
    var port = ProcessInfo.processInfo.environment["PORT"].flatMap(Int.init) ?? 8080

    @Option(help: "The FluentKit driver: strata, or fluent-sqlite-driver (in builds with that trait).")
    var driver = FluentDriverChoice.strata.rawValue

    @Option(help: "Authors to create at start, ten books each, if the database has none.")
    var seedAuthors = 0

    @Flag(
        help: """
            Turn the database file to WAL mode before serving: Strata's pools always use WAL; \
            fluent-sqlite-driver keeps SQLite's rollback journal unless the app asks.
            """)
    var wal = false

    @Option(help: "The log level (env LOG_LEVEL); debug logs the SQL.")
    var logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"] ?? "info"

    public init() {}

    public func run() async throws {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("Unknown log level \(logLevel)")
        }
        guard let driver = FluentDriverChoice(rawValue: driver) else {
            throw ValidationError(
                "Unknown driver \(driver): \(FluentDriverChoice.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var logger = Logger(label: "fluent-server")
        logger.logLevel = level
        let databases = try await LibraryDatabases(path: database, driver: driver, logger: logger)
        do {
            if wal {
                try await databases.useWriteAheadLog()
            }
            if seedAuthors > 0 {
                try await databases.seed(authors: seedAuthors)
            }
        } catch {
            await databases.shutdown()
            throw error
        }
        let router = Router(context: BasicRequestContext.self)
        databases.addRoutes(to: router)
        logger.info("Serving \(database) with FluentKit on \(driver.rawValue)")
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(hostname, port: port), serverName: "fluent-server-example"),
            services: [databases],
            logger: logger)
        try await app.runService()
    }
}
