import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import StrataServerApp

/// A directory removed at deinit, for the database of one test.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-server-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    var databasePath: String { url.appendingPathComponent("library.sqlite").path }
}

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

extension TestClientProtocol {
    /// Sends `value` as JSON.
    @discardableResult
    func post(_ uri: String, json value: some Encodable) async throws -> TestResponse {
        try await execute(
            uri: uri, method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(data: try JSONEncoder().encode(value)))
    }

    /// GETs `uri`, and decodes its JSON body.
    func get<T: Decodable>(_ uri: String, as type: T.Type) async throws -> T {
        let response = try await execute(uri: uri, method: .get)
        guard response.status == .ok else { throw UnexpectedStatus(status: response.status) }
        return try JSONDecoder().decode(T.self, from: Data(buffer: response.body))
    }
}

struct UnexpectedStatus: Error {
    var status: HTTPResponse.Status
}

extension TestResponse {
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }
}
