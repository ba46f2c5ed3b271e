import ExampleTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import StrataServerApp

/// The application of one test, over a fresh database.
struct TestServer {
    let directory: TemporaryDirectory
    let options: ServerOptions
    let api: LibraryAPI
    let app: Application<RouterResponder<BasicRequestContext>>

    init(configure: (inout ServerOptions) -> Void = { _ in }) throws {
        directory = try TemporaryDirectory()
        var options = ServerOptions(databasePath: directory.databasePath)
        options.port = 0
        options.logger = Logger(label: "test")
        options.logger.logLevel = .warning
        configure(&options)
        self.options = options
        api = try LibraryAPI(options: options)
        app = Application(
            router: buildRouter(api, options: options),
            configuration: .init(address: .hostname(options.hostname, port: options.port)),
            logger: options.logger)
    }
}
