import ExampleTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import StrataServerApp
import Testing

@Suite("REST routes")
struct RoutesTests {
    @Test("POST /authors, then GET /authors and GET /authors/:id")
    func authors() async throws {
        let server = try TestServer()
        try await server.app.test(.router) { client in
            #expect(try await client.get("/authors", as: [Author].self) == [])

            let created = try await client.post("/authors", json: NewAuthor(name: "Ursula K. Le Guin", country: "US"))
            #expect(created.status == .created)
            let ursula = try created.decode(Author.self)
            let id = try #require(ursula.id)
            #expect(ursula == Author(id: id, name: "Ursula K. Le Guin", country: "US"))
            try await client.post("/authors", json: NewAuthor(name: "Italo Calvino"))

            let authors = try await client.get("/authors", as: [Author].self)
            #expect(authors.map(\.name) == ["Italo Calvino", "Ursula K. Le Guin"])

            let info = try await client.get("/authors/\(id)", as: AuthorInfo.self)
            #expect(info.author == ursula)
            #expect(info.books == [])

            try await client.execute(uri: "/authors/999", method: .get) { #expect($0.status == .notFound) }
            let empty = try await client.post("/authors", json: NewAuthor(name: ""))
            #expect(empty.status == .badRequest)
        }
    }

    @Test("POST /authors/:id/books, then GET /authors/:id with its books, and GET /books")
    func books() async throws {
        let server = try TestServer()
        try await server.app.test(.router) { client in
            let author = try await client.post("/authors", json: NewAuthor(name: "Ursula K. Le Guin")).decode(
                Author.self)
            let other = try await client.post("/authors", json: NewAuthor(name: "Italo Calvino")).decode(Author.self)
            let id = try #require(author.id)
            let otherId = try #require(other.id)

            let created = try await client.post(
                "/authors/\(id)/books", json: NewBook(title: "The Dispossessed", year: 1974))
            #expect(created.status == .created)
            let dispossessed = try created.decode(Book.self)
            #expect(dispossessed.authorId == id)
            #expect(dispossessed.title == "The Dispossessed")
            #expect(dispossessed.year == 1974)
            let lathe = try await client.post("/authors/\(id)/books", json: NewBook(title: "The Lathe of Heaven"))
                .decode(Book.self)
            let cities = try await client.post("/authors/\(otherId)/books", json: NewBook(title: "Invisible Cities"))
                .decode(Book.self)

            // The author with all their books (including(all:)), in order.
            let info = try await client.get("/authors/\(id)", as: AuthorInfo.self)
            #expect(info.author == author)
            #expect(info.books == [dispossessed, lathe])

            // The last books, each with its author (including(required:)).
            let last = try await client.get("/books?limit=2", as: [BookInfo].self)
            #expect(last == [BookInfo(book: cities, author: other), BookInfo(book: lathe, author: author)])
            #expect(try await client.get("/books", as: [BookInfo].self).count == 3)

            let missing = try await client.post("/authors/999/books", json: NewBook(title: "Nowhere"))
            #expect(missing.status == .notFound)
            let untitled = try await client.post("/authors/\(id)/books", json: NewBook(title: ""))
            #expect(untitled.status == .badRequest)
        }
    }

    @Test("GET /metrics shows the database metrics of the requests")
    func metrics() async throws {
        let metrics = TextMetrics()
        let server = try TestServer { options in
            options.metricsFactory = metrics
            options.metricsEndpoint = metrics
        }
        try await server.app.test(.router) { client in
            try await client.post("/authors", json: NewAuthor(name: "Ursula K. Le Guin"))
            _ = try await client.get("/authors", as: [Author].self)
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            let text = String(buffer: response.body)
            #expect(text.contains("strata_statement_duration_seconds_count "))
            #expect(text.contains(#"strata_access_wait_seconds_count{role="writer"} "#))
            #expect(text.contains(#"strata_access_wait_seconds_count{role="reader"} "#))
            #expect(text.contains(#"strata_transactions{outcome="commit"} "#))
        }
    }
}
