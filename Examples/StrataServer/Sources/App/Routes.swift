#if STRATA
    import Strata
#else
    import GRDB
#endif
import Dispatch
import Hummingbird
import ServiceLifecycle
import Synchronization

/// The REST API over one database pool, or over a read replica.
public struct LibraryAPI: Sendable {
    /// The database pool; nil on a read replica, which can't write.
    public let dbPool: DatabasePool?
    /// What the read routes and `/events` read: the pool, or the replica.
    public let reader: any DatabaseReader
    /// What keeps a replica up to date (its follower process), alive as
    /// long as the routes.
    let follower: (any ReplicaFollower)?
    /// The `GET /events` streams that are open now.
    public let openEventStreams = EventStreamCount()

    /// Opens the database, migrates it, and seeds it if asked to; or, with
    /// `options.replicaOf`, opens the replica.
    public init(options: ServerOptions) throws {
        if options.replicaOf != nil {
            (reader, follower) = try openReplica(options)
            dbPool = nil
            return
        }
        let dbPool = try openDatabasePool(options)
        self.dbPool = dbPool
        reader = dbPool
        follower = nil
        try DatabaseMigrator.library.migrate(dbPool)
        if options.seedAuthors > 0 {
            try seed(dbPool, authors: options.seedAuthors, booksPerAuthor: 10)
        }
    }

    /// Creates authors and their books, unless there are authors already.
    func seed(_ dbPool: DatabasePool, authors: Int, booksPerAuthor: Int) throws {
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
    /// - `GET /diagnostics/...` in the Strata build: see `addDiagnosticRoutes`.
    ///
    /// On a read replica, the POST routes answer 405 (writes go to the
    /// primary), and `GET /replica` tells the follower's process and how many
    /// times it was restarted.
    public func addRoutes(to router: Router<some RequestContext>, options: ServerOptions) {
        let reader = self.reader
        let openEventStreams = self.openEventStreams
        if let dbPool {
            addDiagnosticRoutes(to: router, dbPool: dbPool)
            addWriteRoutes(to: router, dbPool: dbPool)
        }
        if let follower {
            router.get("replica") { _, _ in
                ReplicaStatus(followerProcess: follower.processIdentifier, followerRestarts: follower.restartCount)
            }
        }
        if dbPool == nil {
            for path in ["authors", "authors/:id/books"] {
                router.post(RouterPath(path)) { _, _ -> HTTPResponse.Status in
                    throw HTTPError(.methodNotAllowed, message: "This server is a read replica: write to the primary.")
                }
            }
        }

        router.get("authors") { _, _ in
            try await reader.read { db in
                try Author.order(Column("name"), Column("id")).fetchAll(db)
            }
        }

        router.get("authors/:id") { _, context -> AuthorInfo in
            let id = try context.parameters.require("id", as: Int64.self)
            let info = try await reader.read { db in
                try Author
                    .filter(key: id)
                    .including(all: Author.books.order(Column("id")))
                    .asRequest(of: AuthorInfo.self)
                    .fetchOne(db)
            }
            guard let info else { throw HTTPError(.notFound) }
            return info
        }

        router.get("books") { request, _ in
            let limit = min(max(request.uri.queryParameters.get("limit", as: Int.self) ?? 20, 0), 100)
            return try await reader.read { db in
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
                .values(in: reader)
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

/// The process that keeps a read replica up to date.
protocol ReplicaFollower: Sendable {
    /// Its process identifier.
    var processIdentifier: Int32 { get }
    /// How many times it stopped and was started again.
    var restartCount: Int { get }
}

/// What `GET /replica` returns.
public struct ReplicaStatus: ResponseCodable {
    public var followerProcess: Int32
    public var followerRestarts: Int
}

extension LibraryAPI {
    /// The routes that write: `POST /authors` and `POST /authors/:id/books`.
    func addWriteRoutes(to router: Router<some RequestContext>, dbPool: DatabasePool) {
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
    }
}

/// The number of open `GET /events` streams. Tests wait for a count
/// without polling: each change wakes the waiters whose count it reached.
public final class EventStreamCount: Sendable {
    private struct Waiter {
        let id: Int
        let target: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var count = 0
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    public var value: Int { state.withLock { $0.count } }

    func increment() { change(by: 1) }
    func decrement() { change(by: -1) }

    private func change(by delta: Int) {
        let reached = state.withLock { state in
            state.count += delta
            let count = state.count
            let reached = state.waiters.filter { $0.target == count }
            state.waiters.removeAll { $0.target == count }
            return reached
        }
        for waiter in reached { waiter.continuation.resume(returning: true) }
    }

    /// Returns true once the count is `target`, or false after `timeout`.
    public func wait(until target: Int, timeout: Duration = .seconds(10)) async -> Bool {
        await withCheckedContinuation { continuation in
            let id: Int? = state.withLock { state in
                if state.count == target { return nil }
                let id = state.nextID
                state.nextID += 1
                state.waiters.append(Waiter(id: id, target: target, continuation: continuation))
                return id
            }
            guard let id else {
                continuation.resume(returning: true)
                return
            }
            let (seconds, attoseconds) = timeout.components
            let deadline =
                DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
            DispatchQueue.global().asyncAfter(deadline: deadline) {
                let expired = self.state.withLock { state -> Waiter? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index)
                }
                expired?.continuation.resume(returning: false)
            }
        }
    }
}
