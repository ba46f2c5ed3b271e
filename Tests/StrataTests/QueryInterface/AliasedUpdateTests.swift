import Foundation
import Strata
import StrataTestSupport
import Testing

/// UPDATE statements of aliased requests.
struct AliasedUpdateTests {
    @Test("B35: UPDATE of an aliased, joined request does not name the alias on the updated table")
    func joinedAliasedUpdate() throws {
        try assocLibrary().write { db throws in
            let book = TableAlias(name: "b")
            let request = AssocBook.aliased(book).joining(
                required: AssocBook.author.filter(Column("countryCode") == "DE"))
            var updatedCount = 0
            let statements = try recordSQL(db, .all) {
                updatedCount = try request.updateAll(db, Column("year").set(to: 0))
            }
            #expect(updatedCount == 2)
            #expect(
                statements.filter { $0.hasPrefix("UPDATE") } == [
                    """
                    UPDATE "book" SET "year" = ? WHERE "id" IN (SELECT "b"."id" FROM "book" "b" \
                    JOIN "author" ON ("author"."id" = "b"."authorId") AND ("author"."countryCode" = ?))
                    """
                ])
            #expect(try AssocBook.filter(Column("year") == 0).fetchCount(db) == 2)
        }
    }
}
