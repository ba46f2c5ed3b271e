import Foundation
import Strata
import StrataTestSupport
import Testing

/// `annotated(withRequired:)` and `annotated(withOptional:)` (issue 17,
/// item 9) append the selection of the associated table to the selection of
/// the annotated request, as it is at the time of the call, after the
/// columns already selected and before the scopes included later, in call
/// order. They never create a scope.
struct AnnotatedWithAssociationTests: AwardLibrarySuite {
    private struct BookWithAuthorName: Decodable, FetchableRecord {
        var title: String
        var authorName: String?
    }

    @Test func annotatedColumnsFollowTheSelection() throws {
        try readAwardLibrary { db, log throws in
            let request = Book.select(Column("title"))
                .annotated(withOptional: Book.author.select(Column("name").forKey("authorName")))
                .order(Column("id"))
            let rows = try Row.fetchAll(db, request)
            #expect(
                log.statements(.user) == [
                    """
                    SELECT "book"."title", "author"."name" AS "authorName" FROM "book" \
                    LEFT JOIN "author" ON "author"."id" = "book"."authorId" ORDER BY "book"."id"
                    """
                ])
            #expect(rows[0] == ["title": "Les Misérables", "authorName": "Hugo"])
            #expect(rows[2] == ["title": "Beowulf", "authorName": nil])
            #expect(rows.allSatisfy { $0.scopes.isEmpty })
            let records = try request.asRequest(of: BookWithAuthorName.self).fetchAll(db)
            #expect(records.map(\.authorName) == ["Hugo", "Goethe", nil, "Hugo", "Anonymous"])
        }
    }

    @Test func annotationsComeInCallOrderBeforeLaterScopes() throws {
        try readAwardLibrary { db, log throws in
            let request = Book.select(Column("title"))
                .annotated(withRequired: Book.author.select(Column("name")))
                .annotated(with: Column("id"))
                .including(required: Book.author.select(Column("countryCode")))
                .annotated(withOptional: Book.author.joining(optional: Author.country).select(Column("id")))
                .order(Column("id"))
            let rows = try Row.fetchAll(db, request)
            // The same author table: the annotations and the scope share its join.
            #expect(
                log.statements(.user) == [
                    """
                    SELECT "book"."title", "author"."name", "book"."id", "author"."id", "author"."countryCode" \
                    FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" \
                    LEFT JOIN "country" ON "country"."code" = "author"."countryCode" ORDER BY "book"."id"
                    """
                ])
            #expect(Array(rows[0].columnNames) == ["title", "name", "id", "id"])
            #expect(Set(rows[0].scopes.names) == ["author"])
            #expect(rows[0].scopes["author"] == ["countryCode": "FR"])
        }
    }

    @Test func annotationsUseTheSelectionAtTheTimeOfTheCall() throws {
        try readAwardLibrary { db, _ throws in
            let author = Book.author.select(Column("name"))
            let request = Book.annotated(withRequired: author).annotated(with: Column("title").forKey("again"))
            #expect(
                try requestSQL(db, request)
                    == """
                    SELECT "book".*, "author"."name", "book"."title" AS "again" FROM "book" \
                    JOIN "author" ON "author"."id" = "book"."authorId"
                    """)
            // All columns of the associated table.
            #expect(
                try requestSQL(db, Book.select(Column("id")).annotated(withRequired: Book.author))
                    == """
                    SELECT "book"."id", "author".* FROM "book" \
                    JOIN "author" ON "author"."id" = "book"."authorId"
                    """)
            // The columns of the table but some.
            let excluding = Book.select(Column("id"))
                .annotated(withRequired: Book.author.select(AllColumnsExcluding(["id"])))
            #expect(
                try requestSQL(db, excluding)
                    == """
                    SELECT "book"."id", "author"."name", "author"."countryCode" FROM "book" \
                    JOIN "author" ON "author"."id" = "book"."authorId"
                    """)
            #expect(
                try Row.fetchOne(db, excluding.order(Column("id"))) == ["id": 1, "name": "Hugo", "countryCode": "FR"])
        }
    }

    @Test func annotatedAssociationInsideAnIncludedAssociation() throws {
        try readAwardLibrary { db, log throws in
            let request =
                Book
                .including(
                    required: Book.author
                        .select(Column("name"))
                        .annotated(withOptional: Author.country.select(Column("name").forKey("countryName")))
                )
                .order(Column("id"))
            let rows = try Row.fetchAll(db, request)
            #expect(
                log.statements(.user) == [
                    """
                    SELECT "book".*, "author"."name", "country"."name" AS "countryName" FROM "book" \
                    JOIN "author" ON "author"."id" = "book"."authorId" \
                    LEFT JOIN "country" ON "country"."code" = "author"."countryCode" ORDER BY "book"."id"
                    """
                ])
            let author = try #require(rows[0].scopes["author"])
            #expect(author == ["name": "Hugo", "countryName": "France"])
            #expect(author.scopes.isEmpty)
            #expect(rows[3].scopes["author"] == ["name": "Anonymous", "countryName": nil])
        }
    }
}
