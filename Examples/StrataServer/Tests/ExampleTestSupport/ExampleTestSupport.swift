import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting

// What the example's two test targets share: a temporary database
// directory, JSON in and out of HummingbirdTesting's client, and a reader
// of server-sent events.

/// A directory removed at deinit, for the database of one test.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-server-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    public var databasePath: String { url.appendingPathComponent("library.sqlite").path }
}

extension TestClientProtocol {
    /// Sends `value` as JSON.
    @discardableResult
    public func post(_ uri: String, json value: some Encodable) async throws -> TestResponse {
        try await execute(
            uri: uri, method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(data: try JSONEncoder().encode(value)))
    }

    /// GETs `uri`, and decodes its JSON body.
    public func get<T: Decodable>(_ uri: String, as type: T.Type) async throws -> T {
        let response = try await execute(uri: uri, method: .get)
        guard response.status == .ok else { throw UnexpectedStatus(status: response.status) }
        return try JSONDecoder().decode(T.self, from: Data(buffer: response.body))
    }
}

/// A response whose status was not the one expected.
public struct UnexpectedStatus: Error {
    public var status: HTTPResponse.Status
}

extension TestResponse {
    /// The JSON body, decoded.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }
}

/// The `data:` lines of the server-sent events at `url`, one string each,
/// until the stream ends or the returned task is cancelled (which closes
/// the connection).
public func serverSentEventData(from url: String) -> (AsyncStream<String>, Task<Void, any Error>) {
    let (events, continuation) = AsyncStream<String>.makeStream()
    let reader = Task {
        defer { continuation.finish() }
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
        guard response.status == .ok, response.headers["content-type"] == ["text/event-stream"] else {
            throw UnexpectedStatus(status: .init(code: Int(response.status.code)))
        }
        var received = ""
        for try await buffer in response.body {
            received += String(buffer: buffer)
            // An event ends with an empty line; its data is on `data:` lines.
            while let end = received.range(of: "\n\n") {
                let event = received[..<end.lowerBound]
                for line in event.split(separator: "\n") where line.hasPrefix("data: ") {
                    continuation.yield(String(line.dropFirst("data: ".count)))
                }
                received = String(received[end.upperBound...])
            }
        }
    }
    return (events, reader)
}
