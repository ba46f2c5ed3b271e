import Foundation
import Strata
import StrataTestSupport
import Testing

/// `reversed()` on an association reverses the associations nested inside it (issue 17, item 13).
struct ReversedAssociationTests {
    private struct Parent: TableRecord {
        static let children = hasMany(Child.self)
    }

    private struct Child: TableRecord {
        static let parent = belongsTo(Parent.self)
    }

    @Test func reversedReachesNestedAssociations() throws {
        try parentChildDatabase().read { db throws in
            let nested = Child.parent.order(Column("id")).including(required: Parent.children.order(Column("score")))
            let request = Child.including(required: nested.reversed())
            #expect(
                try requestSQL(db, request)
                    == """
                    SELECT "child1".*, "parent".*, "child2".* FROM "child" "child1" \
                    JOIN "parent" ON "parent"."id" = "child1"."parentId" \
                    JOIN "child" "child2" ON "child2"."parentId" = "parent"."id" \
                    ORDER BY "parent"."id" DESC, "child2"."score" DESC
                    """)
            let twice = Child.including(required: nested.reversed().reversed())
            #expect(try requestSQL(db, twice).hasSuffix(#"ORDER BY "parent"."id", "child2"."score""#))
        }
    }
}
