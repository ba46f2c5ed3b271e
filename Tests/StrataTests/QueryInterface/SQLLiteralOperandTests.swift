import Foundation
import Strata
import StrataTestSupport
import Testing

/// Raw SQL literals inside the SQL built by the query interface.
struct SQLLiteralOperandTests {
    @Test("B30: raw SQL literals used as operands always go in parentheses")
    func literalOperandsAreParenthesized() throws {
        try assocLibrary().read { db throws in
            let cast = SQL("CAST(\(Column("title")) AS BLOB)").sqlExpression
            #expect(
                try requestSQL(db, AssocBook.select(cast && Column("year")))
                    == #"SELECT (CAST("title" AS BLOB)) AND "year" FROM "book""#)
            #expect(
                try requestSQL(db, AssocBook.filter(SQL("year") > 1800))
                    == #"SELECT * FROM "book" WHERE (year) > ?"#)
            #expect(
                try requestSQL(db, AssocBook.filter(!SQL(sql: "1").sqlExpression))
                    == #"SELECT * FROM "book" WHERE NOT (1)"#)
            #expect(
                try requestSQL(db, AssocAuthor.joining(required: AssocAuthor.books.filter(sql: "1")))
                    == #"SELECT "author".* FROM "author" JOIN "book" ON ("book"."authorId" = "author"."id") AND (1)"#)
            // A literal that is not an operand is written as is.
            #expect(try requestSQL(db, AssocBook.filter(sql: "1")) == #"SELECT * FROM "book" WHERE 1"#)
            #expect(try requestSQL(db, AssocBook.select(cast)) == #"SELECT CAST("title" AS BLOB) FROM "book""#)
            #expect(
                try requestSQL(db, AssocBook.select(length(SQL("title").sqlExpression)))
                    == #"SELECT LENGTH(title) FROM "book""#)
            #expect(
                try AssocBook.select(SQL("year") > 1800, as: Int.self).order(Column("id")).fetchAll(db) == [
                    0, 1, 0, 1, 0,
                ])
        }
    }

    @Test("B41: an empty array interpolated in an SQL literal is (SELECT NULL WHERE NULL)")
    func emptyArrayInLiteral() throws {
        try assocLibrary().read { db throws in
            let ids: [Int] = []
            let inSQL: SQL = "SELECT id FROM book WHERE id IN \(ids)"
            #expect(try inSQL.build(db).sql == "SELECT id FROM book WHERE id IN (SELECT NULL WHERE NULL)")
            #expect(try Int.fetchAll(db, SQLRequest<Int>(literal: inSQL)).isEmpty)
            let notInSQL: SQL = "SELECT id FROM book WHERE id NOT IN \(ids) ORDER BY id"
            #expect(
                try notInSQL.build(db).sql == "SELECT id FROM book WHERE id NOT IN (SELECT NULL WHERE NULL) ORDER BY id"
            )
            #expect(try Int.fetchAll(db, SQLRequest<Int>(literal: notInSQL)) == [1, 2, 3, 4, 5])
            // Non-empty lists are unchanged.
            let some: SQL = "SELECT id FROM book WHERE id IN \([1, 2])"
            #expect(try some.build(db).sql == "SELECT id FROM book WHERE id IN (?,?)")
        }
    }
}
