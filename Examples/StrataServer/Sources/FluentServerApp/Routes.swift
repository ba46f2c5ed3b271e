import FluentKit
import Hummingbird
import Strata
import StrataFluent

extension LibraryDatabases {
    /// The routes, those of the GRDB-API build written with Fluent:
    ///
    /// - `GET /authors`: the authors, by name.
    /// - `POST /authors` `{"name": ..., "country": ...}`: a new author (201).
    /// - `GET /authors/:id`: an author with all their books.
    /// - `POST /authors/:id/books` `{"title": ..., "year": ...}`: a new book
    ///   (201), 404 for an unknown author.
    /// - `GET /books?limit=`: the last books, with their author.
    /// - `GET /events`, on Strata's driver: server-sent events, the number
    ///   of books at once and each time it changes, from a
    ///   `ValueObservation` on the pool under Fluent (`strataWriter`).
    public func addRoutes(to router: Router<some RequestContext>) {
        router.get("authors") { _, context in
            try await Author.query(on: self.database(logger: context.logger))
                .sort(\.$name).sort(\.$id).all()
                .map(AuthorResponse.init)
        }

        router.post("authors") { request, context -> EditedResponse<AuthorResponse> in
            let new = try await request.decode(as: NewAuthor.self, context: context)
            guard !new.name.isEmpty else { throw HTTPError(.badRequest, message: "name is empty") }
            let author = Author(name: new.name, country: new.country)
            try await author.create(on: self.database(logger: context.logger))
            return EditedResponse(status: .created, response: AuthorResponse(author))
        }

        router.get("authors/:id") { _, context -> AuthorInfo in
            let id = try context.parameters.require("id", as: Int64.self)
            let author = try await Author.query(on: self.database(logger: context.logger))
                .filter(\.$id == id)
                .with(\.$books)
                .first()
            guard let author else { throw HTTPError(.notFound) }
            // Fluent's eager loading does not sort the children: in id
            // order, as the GRDB-API build answers.
            let books = author.books.map(BookResponse.init).sorted { ($0.id ?? 0) < ($1.id ?? 0) }
            return AuthorInfo(author: AuthorResponse(author), books: books)
        }

        router.post("authors/:id/books") { request, context -> EditedResponse<BookResponse> in
            let authorID = try context.parameters.require("id", as: Int64.self)
            let new = try await request.decode(as: NewBook.self, context: context)
            guard !new.title.isEmpty else { throw HTTPError(.badRequest, message: "title is empty") }
            let book = Book(authorID: authorID, title: new.title, year: new.year)
            do {
                try await book.create(on: self.database(logger: context.logger))
            } catch let error as any FluentKit.DatabaseError where error.isConstraintFailure {
                // The foreign key: no such author.
                throw HTTPError(.notFound)
            }
            return EditedResponse(status: .created, response: BookResponse(book))
        }

        router.get("books") { request, context in
            let limit = min(max(request.uri.queryParameters.get("limit", as: Int.self) ?? 20, 0), 100)
            return try await Book.query(on: self.database(logger: context.logger))
                .with(\.$author)
                .sort(\.$id, .descending)
                .limit(limit)
                .all()
                .map { BookInfo(book: BookResponse($0), author: AuthorResponse($0.author)) }
        }

        if let writer = database().strataWriter {
            addEventRoute(to: router, writer: writer)
        }
    }

    /// `GET /events`: Strata's `ValueObservation` on the pool that Fluent
    /// writes through, so that Fluent's writes notify it like any other.
    func addEventRoute(to router: Router<some RequestContext>, writer: any DatabaseWriter) {
        router.get("events") { request, _ -> Response in
            let bookCounts =
                ValueObservation
                .tracking { db in try Table("book").fetchCount(db) }
                .removeDuplicates()
                .values(in: writer)
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { responseWriter in
                    do {
                        // Ends when the client goes away, and when the
                        // server shuts down.
                        try await request.body.consumeWithCancellationOnInboundClose { _ in
                            for try await count in bookCounts.cancelOnGracefulShutdown() {
                                try await responseWriter.write(
                                    ByteBuffer(string: "event: books\ndata: {\"count\":\(count)}\n\n"))
                            }
                        }
                    } catch is CancellationError {
                        return
                    }
                    try await responseWriter.finish(nil)
                })
        }
    }
}
