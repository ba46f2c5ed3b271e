import Foundation
import Testing

@testable import Strata
import StrataTestSupport

/// `including(all:)` nested in a to-one association (issue 17, item 7): the
/// prefetch query runs from the origin rows through the join path, and the
/// prefetched rows hang on the scope of the to-one row (`including`) or on
/// the row itself (`joining`).
struct NestedPrefetchTests: AwardLibrarySuite {
    private struct AuthorInfo: Decodable, FetchableRecord {
        var name: String
        var awards: [Award]
    }

    private struct BookInfo: Decodable, FetchableRecord {
        var book: Book
        var author: AuthorInfo?
    }

    /// Fetches `request` in a new award library, as rows then as `Record`,
    /// and expects the rows to be fetched with the statements `sql`.
    private func fetch<Record: FetchableRecord>(
        _ request: QueryInterfaceRequest<Book>, as _: Record.Type, sql: [String]
    ) throws -> (rows: [Row], records: [Record]) {
        try readAwardLibrary { db, log throws in
            let rows = try Row.fetchAll(db, request)
            #expect(log.statements(.user) == sql)
            return (rows, try request.asRequest(of: Record.self).fetchAll(db))
        }
    }

    /// The statement that prefetches the awards of the authors of three
    /// books, in the order of `column`.
    private func awardsOfThreeAuthorsSQL(orderedBy column: String) -> String {
        """
        SELECT "award".*, "author"."id" AS "grdb_id" FROM "award" \
        JOIN "author" ON ("author"."id" = "award"."authorId") AND ("author"."id" IN (?, ?, ?)) \
        ORDER BY "award"."\(column)"
        """
    }

    @Test func includingAllNestedInIncludingOptional() throws {
        let (rows, infos) = try fetch(
            Book
                .including(optional: Book.author.including(all: Author.awards.order(Column("name"))))
                .order(Column("id")),
            as: BookInfo.self,
            sql: [
                """
                SELECT "book".*, "author".* FROM "book" \
                LEFT JOIN "author" ON "author"."id" = "book"."authorId" ORDER BY "book"."id"
                """,
                awardsOfThreeAuthorsSQL(orderedBy: "name"),
            ])
        // The prefetched rows hang on the scope of the author.
        #expect(rows[0].prefetchStorage.rows.isEmpty)
        let author = try #require(rows[0].scopes["author"])
        #expect(author.prefetchedRows["awards"]?.map { $0["name"] as String } == ["Academy", "Legion"])
        #expect(rows[1].scopes["author"]?.prefetchedRows["awards"]?.count == 1)
        #expect(rows[2].scopes["author"]?.prefetchedRows["awards"] == [])  // No author
        #expect(rows[4].scopes["author"]?.prefetchedRows["awards"] == [])  // No award
        // The pivot column follows the columns of the award table.
        #expect(Array(author.prefetchedRows["awards"]![0].columnNames) == ["id", "authorId", "name", "grdb_id"])
        // The row finds the rows of its scopes.
        #expect(rows[0].prefetchedRows.keys == ["awards"])

        #expect(infos.map(\.book.title) == ["Les Misérables", "Faust", "Beowulf", "Notre-Dame", "Edda"])
        #expect(infos.map { $0.author?.name } == ["Hugo", "Goethe", nil, "Hugo", "Anonymous"])
        #expect(
            infos.map { $0.author?.awards.map(\.name) }
                == [["Academy", "Legion"], ["Weimar"], nil, ["Academy", "Legion"], []])
    }

    @Test func includingAllNestedInIncludingRequiredWithFilter() throws {
        try readAwardLibrary { db, log throws in
            let request =
                Book
                .including(required: Book.author.filter(Column("name") != "Goethe").including(all: Author.awards))
                .order(Column("id"))
            let infos = try request.asRequest(of: BookInfo.self).fetchAll(db)
            #expect(
                log.statements(.user) == [
                    """
                    SELECT "book".*, "author".* FROM "book" \
                    JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."name" <> ?) \
                    ORDER BY "book"."id"
                    """,
                    """
                    SELECT "award".*, "author"."id" AS "grdb_id" FROM "award" \
                    JOIN "author" ON ("author"."id" = "award"."authorId") AND ("author"."name" <> ?) \
                    AND ("author"."id" IN (?, ?))
                    """,
                ])
            #expect(infos.map(\.book.id) == [1, 4, 5])
            #expect(infos.map { $0.author?.awards.count } == [2, 2, 0])
        }
    }

    private struct BookAwards: Decodable, FetchableRecord {
        var book: Book
        var awards: [Award]
    }

    @Test func includingAllNestedInJoining() throws {
        let (rows, records) = try fetch(
            Book
                .joining(required: Book.author.including(all: Author.awards.order(Column("id"))))
                .order(Column("id")),
            as: BookAwards.self,
            sql: [
                """
                SELECT "book".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" \
                ORDER BY "book"."id"
                """,
                awardsOfThreeAuthorsSQL(orderedBy: "id"),
            ])
        // No scope: the prefetched rows hang on the row itself.
        #expect(rows[0].scopes.isEmpty)
        #expect(rows[0].prefetchStorage.rows["awards"]?.count == 2)
        #expect(rows.map { $0.prefetchedRows["awards"]?.count } == [2, 1, 2, 0])

        #expect(records.map(\.book.id) == [1, 2, 4, 5])
        #expect(
            records.map { $0.awards.map(\.name) } == [
                ["Academy", "Legion"], ["Weimar"], ["Academy", "Legion"], [],
            ])
    }

    private struct CountryInfo: Decodable, FetchableRecord {
        var country: Country
        var authors: [Author]
    }

    private struct BookCountryInfo: Decodable, FetchableRecord {
        var book: Book
        var country: CountryInfo
    }

    @Test func includingAllNestedInThroughAssociation() throws {
        let (rows, infos) = try fetch(
            Book
                .including(required: Book.country.including(all: Country.authors.order(Column("name"))))
                .order(Column("id")),
            as: BookCountryInfo.self,
            sql: [
                """
                SELECT "book".*, "country".* FROM "book" \
                \(awardLibraryBookCountryJoins) ORDER BY "book"."id"
                """,
                """
                SELECT "author1".*, "author2"."id" AS "grdb_id" FROM "author" "author1" \
                JOIN "country" ON "country"."code" = "author1"."countryCode" \
                JOIN "author" "author2" ON ("author2"."countryCode" = "country"."code") \
                AND ("author2"."id" IN (?, ?)) \
                ORDER BY "author1"."name"
                """,
            ])
        // The destination is under the scope of the pivot, and the
        // prefetched rows on the scope of the destination.
        let country = try #require(rows[0].scopes["author"]?.scopes["country"])
        #expect(country.prefetchedRows["authors"]?.map { $0["name"] as String } == ["Hugo"])

        #expect(infos.map(\.book.id) == [1, 2, 4])
        #expect(infos.map(\.country.country.code) == ["FR", "DE", "FR"])
        #expect(infos.map { $0.country.authors.map(\.name) } == [["Hugo"], ["Goethe"], ["Hugo"]])
    }

    @Test func regionIncludesNestedPrefetchedTable() throws {
        try readAwardLibrary { db, log throws in
            let request = Book.including(optional: Book.author.including(all: Author.awards))
            let region = try request.databaseRegion(db)
            #expect(region.description == "author(*),award(authorId,id,name),book(authorId,id,title)")
            let joined = Book.joining(required: Book.author.including(all: Author.awards))
            #expect(try joined.databaseRegion(db).isModified(byEventsOfKind: .insert(tableName: "award")))
        }
    }

    @Test @MainActor func observationNoticesNestedPrefetchedTable() async throws {
        let log = SQLLog()
        let dbQueue = try awardLibrary(log)
        let observation = ValueObservation.tracking { db in
            try Book.including(optional: Book.author.including(all: Author.awards))
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
                .map { $0.author?.awards.count ?? 0 }
        }
        let values = ObservedValues<[Int]>()
        let cancellable = observation.start(
            in: dbQueue, scheduling: .immediate, onError: { _ in }, onChange: values.record)
        try await dbQueue.write { db in
            try db.execute(sql: "INSERT INTO award VALUES (4, 2, 'Frankfurt')")
        }
        #expect(await values.wait { $0.count == 2 })
        #expect(values.values == [[2, 1, 0, 2, 0], [2, 2, 0, 2, 0]])
        cancellable.cancel()
    }
}
