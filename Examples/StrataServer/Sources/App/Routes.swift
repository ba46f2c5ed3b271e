#if STRATA
    import Strata
#else
    import GRDB
#endif
import Hummingbird
import ServiceLifecycle
import Synchronization

/// The REST API over one database pool.
public struct LibraryAPI: Sendable {
    public let dbPool: DatabasePool
    /// The `GET /events` streams that are open now.
    public let openEventStreams = EventStreamCount()

    /// Opens the database, migrates it, and seeds it if asked to.
    public init(options: ServerOptions) throws {
        dbPool = try openDatabasePool(options)
        try DatabaseMigrator.library.migrate(dbPool)
        if options.seedAuthors > 0 {
            try seed(authors: options.seedAuthors, booksPerAuthor: 10)
        }
    }

    /// Creates authors and their books, unless there are authors already.
    func seed(authors: Int, booksPerAuthor: Int) throws {
        try dbPool.write { db in
            guard try Author.fetchCount(db) == 0 else { return }
            for a in 1...authors {
                var author = Author(name: "Author \(a)")
                try author.insert(db)
                for b in 1...booksPerAuthor {
                    var book = Book(authorId: author.id!, title: "Book \(a).\(b)", year: 1900 + (a * b) % 125)
                    try book.insert(db)
                }
            }
        }
    }

    /// The routes:
    ///
    /// - `GET /authors`: the authors, by name.
    /// - `POST /authors` `{"name": ..., "country": ...}`: a new author (201).
    /// - `GET /authors/:id`: an author with all their books.
    /// - `POST /authors/:id/books` `{"title": ..., "year": ...}`: a new book (201).
    /// - `GET /books?limit=`: the last books, with their author.
    /// - `GET /events`: server-sent events, one with the number of books at
    ///   once, then one each time it changes.
    /// - `GET /metrics`, when `options.metricsEndpoint` is set.
    public func addRoutes(to router: Router<some RequestContext>, options: ServerOptions) {
        let dbPool = self.dbPool
        let openEventStreams = self.openEventStreams

        router.get("authors") { _, _ in
            try await dbPool.read { db in
                try Author.order(Column("name"), Column("id")).fetchAll(db)
            }
        }

        router.post("authors") { request, context -> EditedResponse<Author> in
            let new = try await request.decode(as: NewAuthor.self, context: context)
            guard !new.name.isEmpty else { throw HTTPError(.badRequest, message: "name is empty") }
            let author = try await dbPool.write { db in
                var author = Author(name: new.name, country: new.country)
                try author.insert(db)
                return author
            }
            return EditedResponse(status: .created, response: author)
        }

        router.get("authors/:id") { _, context -> AuthorInfo in
            let id = try context.parameters.require("id", as: Int64.self)
            let info = try await dbPool.read { db in
                try Author
                    .filter(key: id)
                    .including(all: Author.books.order(Column("id")))
                    .asRequest(of: AuthorInfo.self)
                    .fetchOne(db)
            }
            guard let info else { throw HTTPError(.notFound) }
            return info
        }

        router.post("authors/:id/books") { request, context -> EditedResponse<Book> in
            let authorId = try context.parameters.require("id", as: Int64.self)
            let new = try await request.decode(as: NewBook.self, context: context)
            guard !new.title.isEmpty else { throw HTTPError(.badRequest, message: "title is empty") }
            let book = try await dbPool.write { db -> Book? in
                guard try Author.exists(db, key: authorId) else { return nil }
                var book = Book(authorId: authorId, title: new.title, year: new.year)
                try book.insert(db)
                return book
            }
            guard let book else { throw HTTPError(.notFound) }
            return EditedResponse(status: .created, response: book)
        }

        router.get("books") { request, _ in
            let limit = min(max(request.uri.queryParameters.get("limit", as: Int.self) ?? 20, 0), 100)
            return try await dbPool.read { db in
                try Book
                    .including(required: Book.author)
                    .order(Column("id").desc)
                    .limit(limit)
                    .asRequest(of: BookInfo.self)
                    .fetchAll(db)
            }
        }

        router.get("events") { request, _ -> Response in
            let bookCounts =
                ValueObservation
                .tracking { db in try Book.fetchCount(db) }
                .removeDuplicates()
                .values(in: dbPool)
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    openEventStreams.increment()
                    defer { openEventStreams.decrement() }
                    do {
                        // Ends when the client goes away (the handler is
                        // cancelled), and when the server shuts down.
                        try await request.body.consumeWithCancellationOnInboundClose { _ in
                            for try await count in bookCounts.cancelOnGracefulShutdown() {
                                try await writer.write(
                                    ByteBuffer(string: "event: books\ndata: {\"count\":\(count)}\n\n"))
                            }
                        }
                    } catch is CancellationError {
                        return  // The connection is closed: nothing to finish.
                    }
                    try await writer.finish(nil)
                })
        }

        if let metrics = options.metricsEndpoint {
            router.get("metrics") { _, _ in
                Response(
                    status: .ok,
                    headers: [.contentType: "text/plain; version=0.0.4"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.render())))
            }
        }
    }
}

/// The number of open `GET /events` streams.
public final class EventStreamCount: Sendable {
    private let count = Atomic<Int>(0)

    public var value: Int { count.load(ordering: .relaxed) }

    func increment() { count.add(1, ordering: .relaxed) }
    func decrement() { count.subtract(1, ordering: .relaxed) }
}
