import ExampleTestSupport
import FluentServerApp
import Hummingbird
import Logging

/// The Fluent application of one test, over a fresh database on Strata's
/// driver.
struct FluentTestServer {
    let directory: TemporaryDirectory
    let databases: LibraryDatabases
    let app: Application<RouterResponder<BasicRequestContext>>

    /// Runs `body` with a server, and closes its databases after it.
    static func with<R>(
        driver: FluentDriverChoice = .strata, seedAuthors: Int = 0, _ body: (FluentTestServer) async throws -> R
    ) async throws -> R {
        let directory = try TemporaryDirectory()
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let databases = try await LibraryDatabases(path: directory.databasePath, driver: driver, logger: logger)
        do {
            if seedAuthors > 0 {
                try await databases.seed(authors: seedAuthors)
            }
            let router = Router(context: BasicRequestContext.self)
            databases.addRoutes(to: router)
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
            let result = try await body(FluentTestServer(directory: directory, databases: databases, app: app))
            await databases.shutdown()
            return result
        } catch {
            await databases.shutdown()
            throw error
        }
    }
}
