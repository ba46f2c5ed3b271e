import ExampleTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import StrataServerApp
import Testing

@Suite("Server-sent events")
struct EventsTests {
    @Test("GET /events sends the number of books, a new one after a write, and ends when the client goes away")
    func events() async throws {
        let server = try TestServer()
        // A live server: the router testing mode waits for the end of a
        // response, and this one does not end.
        try await server.app.test(.live) { client in
            let port = try #require(client.port)
            let (events, reader) = serverSentEventData(from: "http://127.0.0.1:\(port)/events")
            var iterator = events.makeAsyncIterator()

            // The value at once.
            #expect(await iterator.next() == #"{"count":0}"#)
            #expect(server.api.openEventStreams.value == 1)

            // A new value after a write.
            let author = try await client.post("/authors", json: NewAuthor(name: "Ursula K. Le Guin")).decode(
                Author.self)
            let id = try #require(author.id)
            try await client.post("/authors/\(id)/books", json: NewBook(title: "The Dispossessed"))
            #expect(await iterator.next() == #"{"count":1}"#)
            try await client.post("/authors/\(id)/books", json: NewBook(title: "The Lathe of Heaven"))
            #expect(await iterator.next() == #"{"count":2}"#)

            // The client goes away: the stream ends on the server, and its
            // observation with it.
            reader.cancel()
            _ = await reader.result
            // The server notices the closed connection in its own time.
            #expect(await server.api.openEventStreams.wait(until: 0))
        }
    }
}
