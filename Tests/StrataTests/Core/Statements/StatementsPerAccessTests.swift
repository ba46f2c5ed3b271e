import Foundation
import Strata
import StrataTestSupport
import Testing

/// How many statements typical accesses of a server run: a pool reader checks
/// its schema cache once per read transaction, not before each schema lookup.
@Suite("Statements per access")
struct StatementsPerAccessTests {
    private struct Author: Codable, FetchableRecord, PersistableRecord, Identifiable {
        var id: Int64
        var name: String
        static let books = hasMany(Book.self)
    }

    private struct Book: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var authorId: Int64
        var title: String
        static let author = belongsTo(Author.self)
    }

    private struct AuthorInfo: Decodable, FetchableRecord {
        var author: Author
        var books: [Book]
    }

    /// A pool of authors and books in `directory`, and the log of its
    /// statements, empty once the pool is set up.
    private func makeLoggedPool(_ directory: TemporaryDirectory) throws -> (DatabasePool, SQLLog) {
        let log = SQLLog()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: log.configuration())
        try dbPool.write { db in
            try db.create(table: "author") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("author").notNull()
                t.column("title", .text).notNull()
            }
            try Author(id: 1, name: "Ada").insert(db)
            try Book(id: 1, authorId: 1, title: "Notes").insert(db)
            try Book(id: 2, authorId: 1, title: "Letters").insert(db)
        }
        log.clear()
        return (dbPool, log)
    }

    private func schemaVersionChecks(_ log: SQLLog) -> Int {
        log.statements().filter { $0 == "PRAGMA schema_version" }.count
    }

    @Test("An author with its books, read from a pool, checks the schema version once")
    func authorWithBooks() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, log) = try makeLoggedPool(directory)
        for _ in 0..<3 {
            log.clear()
            let info = try dbPool.read { db in
                try Author
                    .filter(id: 1)
                    .including(all: Author.books.order(Column("id")))
                    .asRequest(of: AuthorInfo.self)
                    .fetchOne(db)
            }
            #expect(info?.books.map(\.title) == ["Notes", "Letters"])
            #expect(schemaVersionChecks(log) == 1)
            // BEGIN, the version check, the author, the books, COMMIT.
            #expect(log.statements(.user).count == 2)
        }
    }

    @Test("Six typical requests check the schema version once each at most")
    func typicalRequests() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, log) = try makeLoggedPool(directory)
        _ = try dbPool.read { db in try Author.fetchAll(db) }
        _ = try dbPool.read { db in try Author.fetchOne(db, id: 1) }
        _ = try dbPool.read { db in try Book.filter(Column("authorId") == 1).fetchAll(db) }
        _ = try dbPool.read { db in try Book.including(required: Book.author).fetchAll(db) }
        _ = try dbPool.read { db in try Author.fetchCount(db) }
        try dbPool.write { db in try Book(id: 3, authorId: 1, title: "Drafts").insert(db) }
        #expect(schemaVersionChecks(log) <= 5)
    }

    @Test("A reader sees the schema the writer changed between two reads")
    func schemaChangeBetweenReads() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, _) = try makeLoggedPool(directory)
        #expect(try dbPool.read { db in try db.columns(in: "author").map(\.name) } == ["id", "name"])
        try dbPool.write { db in try db.alter(table: "author") { t in t.add(column: "bio", .text) } }
        #expect(try dbPool.read { db in try db.columns(in: "author").map(\.name) } == ["id", "name", "bio"])
    }

    @Test("Outside of a transaction, each lookup checks the schema version")
    func withoutTransaction() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, log) = try makeLoggedPool(directory)
        try dbPool.unsafeRead { db in
            _ = try db.columns(in: "author")
            _ = try db.primaryKey("book")
        }
        #expect(schemaVersionChecks(log) >= 2)
    }
}
