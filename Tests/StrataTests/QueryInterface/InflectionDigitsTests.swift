import Foundation
import Strata
import StrataTestSupport
import Testing

/// Inflected keys of strings that end with digits (issue 28).
struct InflectionDigitsTests {
    @Test(
        "B08: inflections ignore trailing digits",
        arguments: [
            ("d1", "ds1"), ("player2", "players2"), ("person10", "people10"), ("category3", "categories3"),
            ("child1", "children1"), ("box42", "boxes42"), ("data1", "data1"), ("team_member2", "team_members2"),
            ("v2player", "v2players"), ("12", "12"),
        ])
    func trailingDigits(singular: String, plural: String) {
        #expect(Inflections.default.pluralize(singular) == plural)
        #expect(Inflections.default.singularize(plural) == singular)
    }

    @Test("B08: a to-many key that ends with digits is singularized before the digits when joined")
    func joinedToManyKeyWithDigits() throws {
        try inMemoryWrite(
            """
            CREATE TABLE p (id INTEGER PRIMARY KEY);
            CREATE TABLE c (id INTEGER PRIMARY KEY, pId INTEGER REFERENCES p(id));
            CREATE TABLE d (id INTEGER PRIMARY KEY, cId INTEGER REFERENCES c(id));
            INSERT INTO p VALUES (1);
            INSERT INTO c VALUES (7, 1);
            INSERT INTO d VALUES (3, 7);
            """
        ) { db throws in
            let p = Table("p")
            let c = Table("c")
            let ds = c.hasMany(Table("d")).forKey("ds1")
            let request = p.including(all: p.hasMany(c).including(required: ds))
            let row = try #require(try Row.fetchOne(db, request))
            let prefetched = try #require(row.prefetchedRows["cs"]?.first)
            #expect(prefetched.scopes["d1"]?["id"] as Int64? == 3)
            #expect(prefetched.scopes["ds1"] == nil)

            struct D: Decodable, FetchableRecord { var id: Int64 }
            struct C: Decodable, FetchableRecord {
                var id: Int64
                var d1: D
            }
            #expect(try C(row: prefetched).d1.id == 3)

            // Aggregate keys come from the singular name as well.
            let counted = try #require(try Row.fetchOne(db, c.annotated(with: ds.count)))
            #expect(counted["d1Count"] as Int? == 1)
        }
    }
}
