import Foundation
import Strata
import StrataTestSupport
import Testing

/// The SQL text of query interface requests matches GRDB 7 (issue 17, item 17).
struct GRDBSQLTextTests {
    @Test func aliasedSelectionsAreNotParenthesized() throws {
        try assocLibrary().read { db throws in
            let a = TableAlias(name: "a")
            let b = TableAlias(name: "b")
            let request = AssocBook.aliased(a)
                .joining(required: AssocBook.author.aliased(b))
                .select((b[Column("id")] + a[Column("id")]).forKey("foo"))
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "b"."id" + "a"."id" AS "foo" FROM "book" "a" JOIN "author" "b" ON "b"."id" = "a"."authorId""#
            )
            #expect(
                try requestSQL(db, AssocAuthor.annotated(with: AssocAuthor.books.isEmpty))
                    == """
                    SELECT "author".*, COUNT(DISTINCT "book"."id") = 0 AS "hasNoBook" FROM "author" \
                    LEFT JOIN "book" ON "book"."authorId" = "author"."id" GROUP BY "author"."id"
                    """)
        }
    }

    @Test func aliasedSelectionsOfAllShapesAreNotParenthesized() throws {
        try assocLibrary().read { db throws in
            let request = AssocBook.select(
                (Column("year") * 2).forKey("double"),
                (Column("year") > 1800).forKey("modern"),
                (Column("year") > 1800 && Column("kind") == "novel").forKey("modernNovel"),
                (-Column("year")).forKey("negated"),
                (Column("authorId") ?? 0).forKey("author"),
                Column("title").collating(.nocase).forKey("title"))
            #expect(
                try requestSQL(db, request)
                    == """
                    SELECT "year" * ? AS "double", "year" > ? AS "modern", \
                    ("year" > ?) AND ("kind" = ?) AS "modernNovel", -"year" AS "negated", \
                    IFNULL("authorId", ?) AS "author", "title" COLLATE NOCASE AS "title" FROM "book"
                    """)
            _ = try Row.fetchAll(db, request)
            // Joined requests and aggregates.
            let a = TableAlias(name: "a")
            let joined = AssocAuthor.aliased(a)
                .annotated(with: (AssocAuthor.books.count + 1).forKey("plusOne"))
                .annotated(withRequired: AssocAuthor.books.select((Column("year") - 1).forKey("yearBefore")))
            let joinedSQL = try requestSQL(db, joined)
            #expect(
                joinedSQL
                    == """
                    SELECT "a".*, COUNT(DISTINCT "book"."id") + ? AS "plusOne", "book"."year" - ? AS "yearBefore" \
                    FROM "author" "a" JOIN "book" ON "book"."authorId" = "a"."id" GROUP BY "a"."id"
                    """)
        }
    }

    @Test func literalOperandsAreParenthesizedUnlessSingleTerm() throws {
        try assocLibrary().read { db throws in
            let request = AssocAuthor.filter(Column("id") + SQL("1 + 1") == SQL("2"))
                .select(SQL("id * 2").forKey("x"))
            #expect(try requestSQL(db, request) == #"SELECT id * 2 AS "x" FROM "author" WHERE ("id" + (1 + 1)) = (2)"#)
        }
    }

    @Test func successiveFiltersMakeOneAndChain() throws {
        try assocLibrary().read { db throws in
            let request =
                AssocAuthor
                .filter(Column("id") > 1)
                .filter(Column("id") < 3 && Column("name") != "x")
                .filter(Column("countryCode") == "DE")
            #expect(
                try requestSQL(db, request)
                    == #"SELECT * FROM "author" WHERE ("id" > ?) AND ("id" < ?) AND ("name" <> ?) AND ("countryCode" = ?)"#
            )
        }
    }

    @Test func operandsKeepTheirOrder() throws {
        try assocLibrary().read { db throws in
            #expect(
                try requestSQL(db, AssocAuthor.having(2 == AssocAuthor.books.count))
                    == """
                    SELECT "author".* FROM "author" LEFT JOIN "book" ON "book"."authorId" = "author"."id" \
                    GROUP BY "author"."id" HAVING ? = COUNT(DISTINCT "book"."id")
                    """)
            #expect(
                try requestSQL(db, AssocAuthor.filter(1 != Column("id")))
                    == #"SELECT * FROM "author" WHERE ? <> "id""#)
            #expect(
                try requestSQL(db, AssocAuthor.having(!AssocAuthor.books.isEmpty))
                    == """
                    SELECT "author".* FROM "author" LEFT JOIN "book" ON "book"."authorId" = "author"."id" \
                    GROUP BY "author"."id" HAVING COUNT(DISTINCT "book"."id") > 0
                    """)
        }
    }

    @Test func noneAndUnnamedAliases() throws {
        try assocLibrary().read { db throws in
            let none = try AssocAuthor.none().makePreparedRequest(db, forSingleResult: false).statement
            #expect(none.sql == #"SELECT * FROM "author" WHERE ?"#)
            #expect(none.arguments == [false])
            let alias = TableAlias()
            let request = AssocAuthor.aliased(alias).filter(alias[Column("id")] == 1).order(alias[Column("name")])
            #expect(try requestSQL(db, request) == #"SELECT * FROM "author" WHERE "id" = ? ORDER BY "name""#)
            // Inside a subquery, the outer alias stays qualified.
            let author = TableAlias()
            let books = AssocBook.filter(Column("authorId") == author[Column("id")])
            #expect(
                try requestSQL(db, AssocAuthor.aliased(author).filter(books.exists()))
                    == #"SELECT * FROM "author" WHERE EXISTS (SELECT * FROM "book" WHERE "authorId" = "author"."id")"#)
        }
    }
}
