import Strata
import Testing

/// Runs the samples of `Sources/Strata/Strata.docc/QueryInterface.md`: each
/// ```swift block of the article is a piece of this file (`ArticleSampleTests`
/// checks it).
struct QueryInterfaceGuideTests {
    struct Book: Codable, Hashable, Identifiable, FetchableRecord, PersistableRecord {
        var id: Int64
        var title: String
        var author: String
        var year: Int
        var pages: Int
        var rating: Double?

        enum Columns {
            static let title = Column(CodingKeys.title)
            static let author = Column(CodingKeys.author)
            static let year = Column(CodingKeys.year)
            static let pages = Column(CodingKeys.pages)
            static let rating = Column(CodingKeys.rating)
        }
    }

    struct BookSummary: Decodable, FetchableRecord {
        var title: String
        var year: Int
    }

    struct AuthorStats: Decodable, FetchableRecord {
        var author: String
        var bookCount: Int
        var pageCount: Int
    }

    /// The library of the article: the `book` table and its five books.
    static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.column("title", .text).notNull()
                t.column("author", .text).notNull()
                t.column("year", .integer).notNull()
                t.column("pages", .integer).notNull()
                t.column("rating", .double)  // NULL until someone rates the book
            }
            let books = [
                Book(id: 1, title: "Dune", author: "Herbert", year: 1965, pages: 412, rating: 4.5),
                Book(id: 2, title: "Children of Dune", author: "Herbert", year: 1976, pages: 444, rating: 3.9),
                Book(id: 3, title: "The Left Hand of Darkness", author: "Le Guin", year: 1969, pages: 304, rating: 4.2),
                Book(id: 4, title: "The Dispossessed", author: "Le Guin", year: 1974, pages: 387, rating: nil),
                Book(id: 5, title: "Frankenstein", author: "Shelley", year: 1818, pages: 280, rating: 4.0),
            ]
            for book in books {
                try book.insert(db)
            }
        }
        return dbQueue
    }

    @Test func schema() throws {
        let dbQueue = try Self.makeDatabase()
        let count = try dbQueue.read { db in try Book.fetchCount(db) }
        #expect(count == 5)
    }

    @Test func requestAndItsSQL() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let request = Book.filter(Book.Columns.year >= 1950)
                .order(Book.Columns.year.desc, Book.Columns.title)
                .limit(2)
            let books = try request.fetchAll(db)  // Children of Dune (1976), The Dispossessed (1974)
            #expect(books.map(\.title) == ["Children of Dune", "The Dispossessed"])

            let statement = try request.makePreparedRequest(db).statement
            print(statement.sql)
            // SELECT * FROM "book" WHERE "year" >= ? ORDER BY "year" DESC, "title" LIMIT 2
            print(statement.arguments)  // [1950]
            #expect(statement.sql == #"SELECT * FROM "book" WHERE "year" >= ? ORDER BY "year" DESC, "title" LIMIT 2"#)
            #expect(statement.arguments == [1950])
        }
    }

    @Test func chainedCalls() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let rated = Book.all()
                .filter { $0.year >= 1950 }
                .filter { $0.rating != nil }
                .order(Book.Columns.title)
                .order(Book.Columns.rating.desc)  // replaces the order by title
            // SELECT * FROM "book" WHERE ("year" >= ?) AND ("rating" IS NOT NULL) ORDER BY "rating" DESC
            let sql = try rated.makePreparedRequest(db).statement.sql
            #expect(
                sql == #"SELECT * FROM "book" WHERE ("year" >= ?) AND ("rating" IS NOT NULL) ORDER BY "rating" DESC"#)
            #expect(try rated.fetchAll(db).map(\.id) == [1, 3, 2])
        }
    }

    @Test func columnExpressions() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let byHerbert = Book.filter(Book.Columns.author == "Herbert")
            let unrated = Book.filter(Book.Columns.rating == nil)  // "rating" IS NULL
            let dunes = Book.filter(Book.Columns.title.like("%dune%"))  // LIKE ignores the case of ASCII letters
            let oldOrLoved = Book.filter(Book.Columns.year < 1900 || Book.Columns.rating >= 4.4)
            let sixties = Book.filter((1960...1969).contains(Book.Columns.year))  // "year" BETWEEN ? AND ?
            let chosen = Book.filter([1, 3].contains(Column("id")))  // "id" IN (?, ?)
            let others = Book.filter(!["Shelley"].contains(Book.Columns.author))  // NOT IN
            #expect(try byHerbert.fetchAll(db).map(\.id) == [1, 2])
            #expect(try unrated.fetchAll(db).map(\.id) == [4])
            #expect(try dunes.fetchAll(db).map(\.id) == [1, 2])
            #expect(try oldOrLoved.fetchAll(db).map(\.id) == [1, 5])
            #expect(try sixties.fetchAll(db).map(\.id) == [1, 3])
            #expect(try chosen.fetchAll(db).map(\.id) == [1, 3])
            #expect(try others.fetchAll(db).map(\.id) == [1, 2, 3, 4])
            #expect(try sixties.makePreparedRequest(db).statement.sql.hasSuffix(#"WHERE "year" BETWEEN ? AND ?"#))
            #expect(try chosen.makePreparedRequest(db).statement.sql.hasSuffix(#"WHERE "id" IN (?, ?)"#))
            // A NULL rating is neither below 4 nor not below 4.
            #expect(try Book.filter(Book.Columns.rating < 4).fetchCount(db) == 1)
            #expect(try Book.filter(!(Book.Columns.rating < 4)).fetchCount(db) == 3)
        }
    }

    @Test func fetching() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let all = try Book.fetchAll(db)  // [Book], in the table's order
            let oldest = try Book.order(Book.Columns.year).fetchOne(db)  // Book?: Frankenstein
            let herbert = try Book.filter(Book.Columns.author == "Herbert").fetchSet(db)  // Set<Book>
            let ratedCount = try Book.filter(Book.Columns.rating != nil).fetchCount(db)  // 4
            #expect(all.count == 5)
            #expect(oldest?.title == "Frankenstein")
            #expect(herbert.map(\.id).sorted() == [1, 2])
            #expect(ratedCount == 4)
        }
    }

    @Test func selection() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let titles = try Book.select(Book.Columns.title, as: String.self).order(Book.Columns.title).fetchAll(db)
            let authors = try Book.select(Book.Columns.author, as: String.self).distinct().fetchSet(db)
            // ["Herbert", "Le Guin", "Shelley"]
            #expect(titles.first == "Children of Dune")
            #expect(authors == ["Herbert", "Le Guin", "Shelley"])

            let summaries = try Book.select(Book.Columns.title, Book.Columns.year)
                .order(Book.Columns.year)
                .asRequest(of: BookSummary.self)
                .fetchAll(db)  // [BookSummary]: Frankenstein (1818), Dune (1965)...
            #expect(summaries.map(\.year) == [1818, 1965, 1969, 1974, 1976])
            #expect(summaries.first?.title == "Frankenstein")
        }
    }

    @Test func aggregates() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let row = try Row.fetchOne(db, Book.select(min(Book.Columns.year), max(Book.Columns.year)))!
            let first: Int = row[0]  // 1818
            let last: Int = row[1]  // 1976
            let pageCount = try Book.select(sum(Book.Columns.pages), as: Int.self).fetchOne(db)  // 1827
            let meanRating = try Book.select(average(Book.Columns.rating), as: Double.self).fetchOne(db)  // 4.15
            let ratings = try Book.select(count(Book.Columns.rating), as: Int.self).fetchOne(db)  // 4, not 5
            #expect(first == 1818)
            #expect(last == 1976)
            #expect(pageCount == 1827)
            #expect(abs(meanRating! - 4.15) < 1e-9)
            #expect(ratings == 4)
        }
    }

    @Test func grouping() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let bookCount = count(Column("id"))
            let pageCount = sum(Book.Columns.pages)
            let request = Book.select(Book.Columns.author, bookCount.forKey("bookCount"), pageCount.forKey("pageCount"))
                .group(Book.Columns.author)
                .having(bookCount >= 2)
                .order(Book.Columns.author)
                .asRequest(of: AuthorStats.self)
            let stats = try request.fetchAll(db)
            // Herbert: 2 books, 856 pages; Le Guin: 2 books, 691 pages
            #expect(stats.map(\.author) == ["Herbert", "Le Guin"])
            #expect(stats.map(\.bookCount) == [2, 2])
            #expect(stats.map(\.pageCount) == [856, 691])
        }
    }

    @Test func keyLookups() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let dune = try Book.find(db, id: 1)  // Book, or throws RecordError.recordNotFound
            let missing = try Book.fetchOne(db, key: 99)  // nil: no book has the key 99
            let leGuin = try Book.fetchAll(db, ids: [3, 4])  // [Book]
            let known = try Book.exists(db, id: 5)  // true
            #expect(dune.title == "Dune")
            #expect(missing == nil)
            #expect(leGuin.map(\.title) == ["The Left Hand of Darkness", "The Dispossessed"])
            #expect(known)
            #expect(throws: RecordError.self) { try Book.find(db, id: 99) }
        }
    }

    @Test func keyRequests() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let request = Book.filter(ids: [1, 2, 3]).filter(Book.Columns.year > 1966)
            let books = try request.fetchAll(db)  // Children of Dune, The Left Hand of Darkness
            #expect(books.map(\.id) == [2, 3])
        }
    }

    @Test func bulkUpdatesAndDeletes() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.write { db throws in
            let rerated = try Book.filter(Book.Columns.author == "Le Guin")
                .updateAll(db, Book.Columns.rating.set(to: 5.0))  // 2
            let cleared = try Book.filter(id: 2).updateAll(db, Column("rating").set(to: nil))  // 1
            let longer = try Book.updateAll(db, Book.Columns.pages += 10)  // 5: every row
            let deleted = try Book.filter(Book.Columns.year < 1900).deleteAll(db)  // 1
            #expect(rerated == 2)
            #expect(cleared == 1)
            #expect(longer == 5)
            #expect(deleted == 1)
            #expect(try Book.fetchCount(db) == 4)
            #expect(try Book.fetchOne(db, id: 2)?.rating == nil)
            #expect(try Book.fetchOne(db, id: 4)?.rating == 5.0)
            #expect(try Book.fetchOne(db, id: 1)?.pages == 422)
        }
    }

    @Test func sqlInsideRequests() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let minimum = 1960
            let withArguments = Book.filter(sql: "year > ? AND rating IS NOT NULL", arguments: [minimum])
            let condition: SQL = "\(Book.Columns.year) > \(minimum)"
            let interpolated = Book.filter(condition).order(Book.Columns.year)
            // SELECT * FROM "book" WHERE "year" > ? ORDER BY "year"
            #expect(try withArguments.fetchAll(db).map(\.id) == [1, 2, 3])
            let statement = try interpolated.makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT * FROM "book" WHERE "year" > ? ORDER BY "year""#)
            #expect(statement.arguments == [1960])
            #expect(try interpolated.fetchAll(db).map(\.id) == [1, 3, 4, 2])
        }
    }

    @Test func sqlRequest() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let author = "Herbert"
            let request: SQLRequest<Book> = """
                SELECT * FROM book
                WHERE author = \(author)
                ORDER BY year
                """
            let books = try request.fetchAll(db)  // Dune, Children of Dune
            let count = try request.fetchCount(db)  // 2
            let titles = try SQLRequest<String>(sql: "SELECT title FROM book WHERE year < ?", arguments: [1900])
                .fetchAll(db)  // ["Frankenstein"]
            #expect(books.map(\.title) == ["Dune", "Children of Dune"])
            #expect(count == 2)
            #expect(titles == ["Frankenstein"])
        }
    }
}
