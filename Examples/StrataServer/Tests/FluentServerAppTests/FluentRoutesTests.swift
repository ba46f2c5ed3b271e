import ExampleTestSupport
import FluentKit
import FluentServerApp
import Hummingbird
import HummingbirdTesting
import SQLKit
import Strata
import StrataFluent
import Testing

/// The routes on each driver of the build: Strata's, and with the trait
/// `FluentSQLiteDriver`, fluent-sqlite-driver too.
@Suite("The Fluent build's routes")
struct FluentRoutesTests {
    @Test("POST /authors, then GET /authors and GET /authors/:id", arguments: FluentDriverChoice.availableCases)
    func authors(driver: FluentDriverChoice) async throws {
        try await FluentTestServer.with(driver: driver) { server in
            try await server.app.test(.router) { client in
                let created = try await client.post(
                    "/authors", json: NewAuthor(name: "Ursula K. Le Guin", country: "US"))
                #expect(created.status == .created)
                let author = try created.decode(AuthorResponse.self)
                #expect(author.name == "Ursula K. Le Guin")
                #expect(author.country == "US")
                let id = try #require(author.id)
                try await client.post("/authors", json: NewAuthor(name: "Iain M. Banks"))

                let authors = try await client.get("/authors", as: [AuthorResponse].self)
                #expect(authors.map(\.name) == ["Iain M. Banks", "Ursula K. Le Guin"])
                #expect(authors[0].country == nil)

                let info = try await client.get("/authors/\(id)", as: AuthorInfo.self)
                #expect(info.author == author)
                #expect(info.books.isEmpty)
            }
        }
    }

    @Test(
        "POST /authors/:id/books, and the author with their books in order (eager loading)",
        arguments: FluentDriverChoice.availableCases)
    func books(driver: FluentDriverChoice) async throws {
        try await FluentTestServer.with(driver: driver) { server in
            try await server.app.test(.router) { client in
                let author = try await client.post("/authors", json: NewAuthor(name: "Ursula K. Le Guin"))
                    .decode(AuthorResponse.self)
                let id = try #require(author.id)
                let created = try await client.post(
                    "/authors/\(id)/books", json: NewBook(title: "The Dispossessed", year: 1974))
                #expect(created.status == .created)
                let book = try created.decode(BookResponse.self)
                #expect(book.authorId == id && book.title == "The Dispossessed" && book.year == 1974)
                try await client.post("/authors/\(id)/books", json: NewBook(title: "The Lathe of Heaven"))

                let info = try await client.get("/authors/\(id)", as: AuthorInfo.self)
                #expect(info.books.map(\.title) == ["The Dispossessed", "The Lathe of Heaven"])
                #expect(info.books[1].year == nil)

                let last = try await client.get("/books?limit=1", as: [BookInfo].self)
                #expect(last.map(\.book.title) == ["The Lathe of Heaven"])
                #expect(last.first?.author == author)
            }
        }
    }

    @Test(
        "Unknown authors are 404, the foreign key included; empty names and titles are 400",
        arguments: FluentDriverChoice.availableCases)
    func badRequests(driver: FluentDriverChoice) async throws {
        try await FluentTestServer.with(driver: driver) { server in
            try await server.app.test(.router) { client in
                #expect(try await client.execute(uri: "/authors/42", method: .get).status == .notFound)
                // No author 42: SQLite's foreign key check refuses the book.
                let orphan = try await client.post("/authors/42/books", json: NewBook(title: "Nobody's"))
                #expect(orphan.status == .notFound)
                #expect(try await client.post("/authors", json: NewAuthor(name: "")).status == .badRequest)
                let author = try await client.post("/authors", json: NewAuthor(name: "A")).decode(AuthorResponse.self)
                let id = try #require(author.id)
                #expect(try await client.post("/authors/\(id)/books", json: NewBook(title: "")).status == .badRequest)
                #expect(try await client.execute(uri: "/authors/nope", method: .get).status == .badRequest)
                #expect(try await client.get("/books", as: [BookInfo].self).isEmpty)
            }
        }
    }

    @Test("Seeding: 100 authors and 1,000 books in one transaction, which a second start does not repeat")
    func seed() async throws {
        try await FluentTestServer.with(seedAuthors: 100) { server in
            try await server.databases.seed(authors: 100)
            let db = server.databases.database()
            #expect(try await Author.query(on: db).count() == 100)
            #expect(try await Book.query(on: db).count() == 1_000)
            try await server.app.test(.router) { client in
                let info = try await client.get("/authors/7", as: AuthorInfo.self)
                #expect(info.author.name == "Author 7")
                #expect(info.books.count == 10)
                #expect(try await client.get("/books?limit=500", as: [BookInfo].self).count == 100)
            }
        }
    }

    @Test("The Fluent database runs on a Strata pool: Strata's API reads what Fluent wrote")
    func strataUnderneath() async throws {
        try await FluentTestServer.with(seedAuthors: 3) { server in
            let writer = try #require(server.databases.database().strataWriter)
            #expect(writer is DatabasePool)
            let (authors, books, foreignKeys, journalMode) = try await writer.read { db in
                (
                    try Table("author").fetchCount(db), try Table("book").fetchCount(db),
                    try Bool.fetchOne(db, sql: "PRAGMA foreign_keys"),
                    try String.fetchOne(db, sql: "PRAGMA journal_mode")
                )
            }
            #expect(authors == 3 && books == 30)
            #expect(foreignKeys == true)
            #expect(journalMode == "wal")
            // The migrations of the schema, recorded by Fluent's migrator.
            #expect(try await writer.read { db in try db.tableExists("_fluent_migrations") })
            #expect(
                try await writer.read { db in try db.indexes(on: "book").map(\.name).sorted() }
                    == ["book_on_authorId", "book_on_title"])
        }
    }

    @Test("--wal turns the file to WAL mode, on either driver", arguments: FluentDriverChoice.availableCases)
    func writeAheadLog(driver: FluentDriverChoice) async throws {
        try await FluentTestServer.with(driver: driver) { server in
            try await server.databases.useWriteAheadLog()
            let sql = try #require(server.databases.database() as? any SQLDatabase)
            let mode = try await sql.raw("PRAGMA journal_mode").first(decodingColumn: "journal_mode", as: String.self)
            #expect(mode == "wal")
        }
    }

    #if !FluentSQLiteDriver
        @Test("Without the trait, fluent-sqlite-driver is refused with a clear error")
        func unavailableDriver() async throws {
            let directory = try TemporaryDirectory()
            await #expect(throws: UnavailableDriver.self) {
                _ = try await LibraryDatabases(
                    path: directory.databasePath, driver: .fluentSQLiteDriver, logger: .init(label: "test"))
            }
            #expect(!FluentDriverChoice.fluentSQLiteDriver.isAvailable)
        }
    #endif
}
