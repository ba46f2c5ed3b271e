import Foundation
import Strata
import StrataTestSupport
import Testing

/// Keys of joined to-many associations and of aggregates (issue 17, items 10 and 12).
struct AssociationKeyTests {
    private struct Parent: TableRecord {
        static let children = hasMany(Child.self)
        static let puppies = hasMany(Child.self, key: "littlePuppies")
    }

    private struct Child: TableRecord {}

    private func database() throws -> DatabaseQueue {
        try parentChildDatabase("INSERT INTO parent VALUES (1), (2); INSERT INTO child VALUES (1, 1, 10), (2, 1, 20);")
    }

    @Test func toManyKeysAreSingularWhenJoined() throws {
        try database().read { db throws in
            let row = try #require(try Row.fetchOne(db, Parent.including(required: Parent.children)))
            #expect(Array(row.scopes.names) == ["child"])
            let puppy = try #require(try Row.fetchOne(db, Parent.including(required: Parent.puppies)))
            #expect(Array(puppy.scopes.names) == ["littlePuppy"])
            let kitten = try #require(
                try Row.fetchOne(db, Parent.including(optional: Parent.children.forKey("kittens"))))
            #expect(Array(kitten.scopes.names) == ["kitten"])
            // Prefetches keep the plural key.
            let prefetched = try #require(try Row.fetchOne(db, Parent.including(all: Parent.children)))
            #expect(Array(prefetched.prefetchedRows.keys) == ["children"])
        }
    }

    @Test func aggregatesKeepTheirKeyThroughCoalesceAndCast() throws {
        try database().read { db throws in
            let request = Parent.annotated(
                with: Parent.children.min(Column("score")) ?? 0, cast(Parent.children.count, as: .real)
            )
            .order(Column("id"))
            let rows = try Row.fetchAll(db, request)
            #expect(rows[0]["minChildScore"] as Int? == 10)
            #expect(rows[1]["minChildScore"] as Int? == 0)
            #expect(rows[0]["childCount"] as Double? == 2)
        }
    }
}
