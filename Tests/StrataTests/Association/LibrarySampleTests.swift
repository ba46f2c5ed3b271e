import Foundation
import Strata
import StrataTestSupport
import Testing

/// The graph samples of seed 004, "How to Model Graphs of Objects" and
/// "Lazy and Eager Loading".
struct LibrarySampleTests {
    // Fetch all authors along with their number of books
    private struct AuthorInfo: Decodable, FetchableRecord {
        var author: AssocAuthor
        var bookCount: Int
    }

    @Test func authorInfos() throws {
        let dbQueue = try assocLibrary()
        let authorInfos: [AuthorInfo] = try dbQueue.read { db in
            try AssocAuthor
                .annotated(with: AssocAuthor.books.count)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
        }
        #expect(authorInfos.map(\.author.name) == ["Dante", "Goethe", "García Márquez", "Schiller"])
        #expect(authorInfos.map(\.bookCount) == [1, 2, 1, 0])
        try dbQueue.read { db throws in
            #expect(
                try requestSQL(db, AssocAuthor.annotated(with: AssocAuthor.books.count))
                    == #"SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount" FROM "author" "#
                    + #"LEFT JOIN "book" ON "book"."authorId" = "author"."id" GROUP BY "author"."id""#)
        }
    }

    // Fetch the literary careers of German authors, sorted by name
    private struct LiteraryCareer: Codable, FetchableRecord {
        var author: AssocAuthor
        var books: [AssocBook]
    }

    @Test func literaryCareers() throws {
        let dbQueue = try assocLibrary()
        let careers: [LiteraryCareer] = try dbQueue.read { db in
            try AssocAuthor.all()
                .filter(countryCode: "DE")
                .orderByName()
                .including(all: AssocAuthor.books)
                .asRequest(of: LiteraryCareer.self)
                .fetchAll(db)
        }
        #expect(careers.map(\.author.name) == ["Goethe", "Schiller"])
        #expect(careers.map { $0.books.map(\.title) } == [["Faust", "Werther"], []])
    }

    @Test func eagerLoading() throws {
        let dbQueue = try assocLibrary()
        let request = AssocAuthor.all()
            .including(all: AssocAuthor.books)  // <- Explicit request for books
            .asRequest(of: LiteraryCareer.self)
        try dbQueue.read { db throws in
            // Fetch first author and its books in one stroke
            let career = try #require(try request.fetchOne(db))
            #expect(career.author.name == "Dante")
            #expect(career.books.map(\.title) == ["Inferno"])
        }
    }

    @Test func novelsOfAnAuthor() throws {
        try assocLibrary().read { db throws in
            let author = try #require(try AssocAuthor.fetchOne(db, key: 2))
            let request = AssocAuthor.books.filter(Column("authorId") == author.id)
            #expect(request.databaseTableName == "book")
            let novels = try AssocBook.joining(required: AssocBook.author.filter(key: author.id))
                .filter(kind: "novel")
                .orderByTitle()
                .fetchAll(db)
            #expect(novels.map(\.title) == ["Werther"])
        }
    }

    @Test func nestedIncludes() throws {
        try assocLibrary().read { db throws in
            // Authors with their books, each book with its author again.
            let request =
                AssocAuthor
                .filter(key: 2)
                .including(all: AssocAuthor.books.including(required: AssocBook.author.forKey("writer")))
            let row = try #require(try Row.fetchOne(db, request))
            let books = try #require(row.prefetchedRows["books"])
            #expect(books.map { $0["title"] as String } == ["Faust", "Werther"])
            #expect(books.map { $0.scopes["writer"]?["name"] as String? } == ["Goethe", "Goethe"])
        }
    }

    @Test func aggregateClosures() throws {
        try assocLibrary().read { db throws in
            let request = AssocAuthor.annotated(with: [
                AssocAuthor.books.max { $0.year },
                AssocAuthor.books.min { $0.year },
                AssocAuthor.books.sum { $0.year },
                AssocAuthor.books.total { $0.year },
                AssocAuthor.books.average { $0.year },
            ])
            let row = try #require(try Row.fetchOne(db, request.filter(key: 2)))
            #expect(row["maxBookYear"] == 1808)
            #expect(row["minBookYear"] == 1774)
            #expect(row["bookYearSum"] == 3582)
            #expect(row["averageBookYear"] == 1791.0)
        }
    }
}
