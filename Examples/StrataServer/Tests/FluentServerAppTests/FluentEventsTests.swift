import ExampleTestSupport
import FluentServerApp
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("The Fluent build's server-sent events")
struct FluentEventsTests {
    @Test("GET /events: a ValueObservation on the pool under Fluent sees the books Fluent creates")
    func events() async throws {
        try await FluentTestServer.with { server in
            // A live server: the router testing mode waits for the end of
            // a response, and this one does not end.
            try await server.app.test(.live) { client in
                let port = try #require(client.port)
                let (events, reader) = serverSentEventData(from: "http://127.0.0.1:\(port)/events")
                var iterator = events.makeAsyncIterator()
                #expect(await iterator.next() == #"{"count":0}"#)

                let author = try await client.post("/authors", json: NewAuthor(name: "Ursula K. Le Guin"))
                    .decode(AuthorResponse.self)
                let id = try #require(author.id)
                try await client.post("/authors/\(id)/books", json: NewBook(title: "The Dispossessed"))
                #expect(await iterator.next() == #"{"count":1}"#)
                // An author alone changes no count: no event.
                try await client.post("/authors", json: NewAuthor(name: "Iain M. Banks"))
                try await client.post("/authors/\(id)/books", json: NewBook(title: "The Lathe of Heaven"))
                #expect(await iterator.next() == #"{"count":2}"#)

                reader.cancel()
                _ = await reader.result
            }
        }
    }
}
