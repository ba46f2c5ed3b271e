import Foundation
import Strata
import StrataTestSupport
import Testing

/// `belongsTo`, `joining` and `including` to-one (seed 004 "Associations",
/// seed 000 "FAQ: Associations").
struct BelongsToTests {
    /// The SQL of the books whose author comes from a given country, with
    /// their author: the filtered association is in the join condition.
    private let booksWithAuthorFromCountrySQL =
        #"SELECT "book".*, "author".* FROM "book" JOIN "author" "#
        + #"ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" = ?)"#

    @Test func joiningRequired() throws {
        // SELECT book.* FROM book JOIN author ON author.id = book.authorID
        try assocLibrary().read { db throws in
            let request = AssocBook.joining(required: AssocBook.author)
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "book".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId""#)
            #expect(try request.fetchAll(db).map(\.id) == [1, 2, 3, 4])
            #expect(try request.fetchCount(db) == 4)
        }
    }

    @Test func joiningOptionalAbsent() throws {
        // SELECT book.* FROM book LEFT JOIN author ON author.id = book.authorID WHERE author.id IS NULL
        try assocLibrary().read { db throws in
            let authorAlias = TableAlias()
            let request =
                AssocBook
                .joining(optional: AssocBook.author.aliased(authorAlias))
                .filter(!authorAlias.exists)
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "book".* FROM "book" LEFT JOIN "author" ON "author"."id" = "book"."authorId" "#
                    + #"WHERE "author"."id" IS NULL"#)
            #expect(try request.fetchAll(db).map(\.title) == ["Beowulf"])
            let withAuthor =
                AssocBook
                .joining(optional: AssocBook.author.aliased(authorAlias))
                .filter(authorAlias.exists)
            #expect(try requestSQL(db, withAuthor).hasSuffix(#"WHERE "author"."id" IS NOT NULL"#))
            #expect(try withAuthor.fetchCount(db) == 4)
        }
    }

    /// The FAQ "How do I select only one column of an associated record?".
    private struct BookInfo: Decodable, FetchableRecord {
        var book: AssocBook
        var authorName: String?  // nil when the book is anonymous

        static func all() -> QueryInterfaceRequest<BookInfo> {
            let authorAlias = TableAlias()
            let authorName = authorAlias[AssocAuthor.Columns.name].forKey(CodingKeys.authorName)
            return
                AssocBook
                .annotated(with: authorName)
                .joining(optional: AssocBook.author.aliased(authorAlias))
                .asRequest(of: BookInfo.self)
        }
    }

    @Test func oneAssociatedColumn() throws {
        try assocLibrary().read { db throws in
            #expect(
                try requestSQL(db, BookInfo.all())
                    == #"SELECT "book".*, "author"."name" AS "authorName" FROM "book" "#
                    + #"LEFT JOIN "author" ON "author"."id" = "book"."authorId""#)
            let bookInfos = try BookInfo.all().fetchAll(db)
            #expect(bookInfos.map(\.book.title) == ["Inferno", "Faust", "Werther", "Cien años de soledad", "Beowulf"])
            #expect(bookInfos.map(\.authorName) == ["Dante", "Goethe", "Goethe", "García Márquez", nil])
        }
    }

    /// Books with their author (`Authorship`, seed 004).
    private struct Authorship: Decodable, FetchableRecord {
        var book: AssocBook
        var author: AssocAuthor
    }

    @Test func includingRequired() throws {
        try assocLibrary().read { db throws in
            let request = AssocBook.all()
                .including(required: AssocBook.author.filter(countryCode: "CO"))
                .asRequest(of: Authorship.self)
            #expect(try requestSQL(db, request) == booksWithAuthorFromCountrySQL)
            #expect(try requestArguments(db, request) == ["CO"])
            let authorships = try request.fetchAll(db)
            #expect(authorships.map(\.book.title) == ["Cien años de soledad"])
            #expect(authorships.map(\.author.name) == ["García Márquez"])

            // Equivalent alternative
            let alternative = AssocBook.all()
                .filter(authorCountryCode: "CO")
                .including(required: AssocBook.author)
                .asRequest(of: Authorship.self)
            #expect(try requestSQL(db, alternative) == booksWithAuthorFromCountrySQL)
            #expect(try alternative.fetchAll(db).map(\.author.name) == ["García Márquez"])
        }
    }

    /// `BookInfo` with an optional author, decoded by hand from row scopes.
    private struct OptionalAuthorship: FetchableRecord {
        var book: AssocBook
        var author: AssocAuthor?

        init(row: Row) throws {
            book = try AssocBook(row: row)
            author = try row.scopes["author"].flatMap { try $0.containsNonNullValue ? AssocAuthor(row: $0) : nil }
        }
    }

    @Test func includingOptional() throws {
        try assocLibrary().read { db throws in
            let request = AssocBook.including(optional: AssocBook.author).order(Column("id"))
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "book".*, "author".* FROM "book" LEFT JOIN "author" "#
                    + #"ON "author"."id" = "book"."authorId" ORDER BY "book"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows[0].unscoped == ["id": 1, "authorId": 1, "title": "Inferno", "kind": "poem", "year": 1320])
            #expect(rows[0].scopes["author"] == ["id": 1, "name": "Dante", "countryCode": "IT"])
            #expect(rows[4].scopes["author"]?.containsNonNullValue == false)
            let infos = try request.asRequest(of: OptionalAuthorship.self).fetchAll(db)
            #expect(infos.map(\.author?.name) == ["Dante", "Goethe", "Goethe", "García Márquez", nil])
            let one = try request.asRequest(of: OptionalAuthorship.self).fetchOne(db)
            #expect(one?.author?.name == "Dante")
        }
    }

    private struct DecodedBookInfo: Decodable, FetchableRecord {
        var book: AssocBook
        var author: AssocAuthor?
    }

    @Test func includingOptionalDecodable() throws {
        try assocLibrary().read { db throws in
            let infos = try AssocBook.including(optional: AssocBook.author)
                .asRequest(of: DecodedBookInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.book.title) == ["Inferno", "Faust", "Werther", "Cien años de soledad", "Beowulf"])
            #expect(infos.map(\.author?.name) == ["Dante", "Goethe", "Goethe", "García Márquez", nil])
        }
    }

    /// Associations inside `DerivableRequest` extensions (seed 004).
    @Test func derivableRequestExtension() throws {
        try assocLibrary().read { db throws in
            let request = AssocBook.all()
                .filter(kind: "novel")
                .filter(authorCountryCode: "DE")
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "book".* FROM "book" JOIN "author" "#
                    + #"ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" = ?) "#
                    + #"WHERE "book"."kind" = ?"#)
            #expect(try requestArguments(db, request) == ["DE", "novel"])
            #expect(try request.fetchAll(db).map(\.title) == ["Werther"])
        }
    }

    @Test func refinedAssociation() throws {
        try assocLibrary().read { db throws in
            let request =
                AssocBook
                .including(required: AssocBook.author.select(Column("name")).order(Column("name").desc))
                .order(Column("year"))
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "book".*, "author"."name" FROM "book" JOIN "author" "#
                    + #"ON "author"."id" = "book"."authorId" ORDER BY "book"."year", "author"."name" DESC"#)
            let rows = try Row.fetchAll(db, request)
            #expect(
                rows.map { $0.scopes["author"]!["name"] as String } == ["Dante", "Goethe", "Goethe", "García Márquez"])

            let keyed = AssocBook.including(required: AssocBook.author.forKey("writer"))
            let row = try #require(try Row.fetchOne(db, keyed))
            #expect(row.scopes["writer"]?["name"] == "Dante")
            #expect(row.scopes["author"] == nil)
        }
    }

    @Test func annotatedWithAssociation() throws {
        try assocLibrary().read { db throws in
            let request = AssocBook.annotated(
                withRequired: AssocBook.author.select(Column("name").forKey("authorName")))
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "book".*, "author"."name" AS "authorName" FROM "book" JOIN "author" "#
                    + #"ON "author"."id" = "book"."authorId""#)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row["authorName"] == "Dante")
            #expect(row.scopes.isEmpty)

            let optional = AssocBook.annotated(withOptional: AssocBook.author.select(Column("name")))
            #expect(
                try requestSQL(db, optional)
                    == #"SELECT "book".*, "author"."name" FROM "book" LEFT JOIN "author" "#
                    + #"ON "author"."id" = "book"."authorId""#)
            #expect(try Row.fetchAll(db, optional).count == 5)
        }
    }

    @Test func mergedJoins() throws {
        try assocLibrary().read { db throws in
            // The same association, joined then included, is joined once.
            let request =
                AssocBook
                .joining(optional: AssocBook.author.filter(countryCode: "DE"))
                .including(required: AssocBook.author)
            #expect(try requestSQL(db, request) == booksWithAuthorFromCountrySQL)
            #expect(try request.fetchCount(db) == 2)
        }
    }

    @Test func deleteAndUpdateJoinedRequests() throws {
        try assocLibrary().write { db throws in
            let count = try AssocBook.all().filter(authorCountryCode: "DE").updateAll(
                db, Column("kind").set(to: "classic"))
            #expect(count == 2)
            #expect(try AssocBook.filter(Column("kind") == "classic").fetchCount(db) == 2)
            let deleted = try AssocBook.all().filter(authorCountryCode: "DE").deleteAll(db)
            #expect(deleted == 2)
            #expect(try AssocBook.fetchCount(db) == 3)
        }
    }
}
