import Foundation
import Strata
import StrataTestSupport
import Testing

/// The same association used twice in a request (issue 17, item 11): a
/// user-named alias wins over an anonymous one, and two `including(all:)`
/// of the same key merge their filters.
struct AssociationMergeTests: AwardLibrarySuite {
    @Test func namedAliasWinsOverAnonymousAlias() throws {
        try readAwardLibrary { db, log throws in
            // annotated(withRequired:) joins the author with an anonymous alias.
            let request =
                Book
                .annotated(withRequired: Book.author.select(Column("name")))
                .joining(required: Book.author.aliased(TableAlias(name: "a")))
                .filter(sql: "a.countryCode = ?", arguments: ["FR"])
                .order(Column("id"))
            let rows = try Row.fetchAll(db, request)
            #expect(
                log.statements(.user) == [
                    """
                    SELECT "book".*, "a"."name" FROM "book" JOIN "author" "a" ON "a"."id" = "book"."authorId" \
                    WHERE a.countryCode = ? ORDER BY "book"."id"
                    """
                ])
            #expect(rows.map { $0["title"] as String } == ["Les Misérables", "Notre-Dame"])

            // In the other order as well, and with aggregates, whose alias
            // is anonymous too.
            let authors =
                Author
                .annotated(with: Author.awards.count)
                .joining(optional: Author.awards.aliased(TableAlias(name: "w")).filter(sql: "w.name <> 'Legion'"))
                .order(Column("id"))
            #expect(
                try requestSQL(db, authors)
                    == """
                    SELECT "author".*, COUNT(DISTINCT "w"."id") AS "awardCount" FROM "author" \
                    LEFT JOIN "award" "w" ON ("w"."authorId" = "author"."id") AND (w.name <> 'Legion') \
                    GROUP BY "author"."id" ORDER BY "author"."id"
                    """)
            #expect(try Row.fetchAll(db, authors).map { $0["awardCount"] as Int } == [1, 1, 0])
        }
    }

    @Test func twoIncludingAllOfTheSameKeyMergeTheirFilters() throws {
        try readAwardLibrary { db, log throws in
            let request =
                Author
                .including(all: Author.awards.filter(Column("id") > 1))
                .including(all: Author.awards.filter(Column("name") != "Weimar"))
                .order(Column("id"))
            let rows = try Row.fetchAll(db, request)
            #expect(
                log.statements(.user) == [
                    #"SELECT * FROM "author" ORDER BY "id""#,
                    """
                    SELECT *, "authorId" AS "grdb_authorId" FROM "award" \
                    WHERE ("id" > ?) AND ("name" <> ?) AND ("authorId" IN (?, ?, ?))
                    """,
                ])
            #expect(rows.map { $0.prefetchedRows["awards"]?.map { $0["name"] as String } } == [["Legion"], [], []])

            // Nested in an association as well.
            log.clear()
            let books =
                Book
                .including(
                    required: Book.author
                        .including(all: Author.awards.filter(Column("id") > 1))
                        .including(all: Author.awards.filter(Column("name") != "Weimar"))
                )
                .filter(key: 1)
            let row = try #require(try Row.fetchOne(db, books))
            #expect(
                log.statements(.user).last
                    == """
                    SELECT "award".*, "author"."id" AS "grdb_id" FROM "award" \
                    JOIN "author" ON ("author"."id" = "award"."authorId") AND ("author"."id" = ?) \
                    WHERE ("award"."id" > ?) AND ("award"."name" <> ?)
                    """)
            #expect(row.scopes["author"]?.prefetchedRows["awards"]?.map { $0["name"] as String } == ["Legion"])
        }
    }

    @Test func includingAllWithAnotherKeyIsAnotherPrefetch() throws {
        try readAwardLibrary { db, _ throws in
            let request =
                Author
                .including(all: Author.awards.filter(Column("id") > 1).forKey("recentAwards"))
                .including(all: Author.awards)
                .filter(key: 1)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.prefetchedRows["awards"]?.count == 2)
            #expect(row.prefetchedRows["recentAwards"]?.count == 1)
        }
    }
}
