import Foundation
import Strata
import StrataTestSupport
import Testing

// UPDATE statements of records whose persistence encoding spells column names
// differently from the table.

/// Encodes `name` as `NAme` and `id` as `ID`.
private struct Person: MutablePersistableRecord {
    static let databaseTableName = "persons"
    var id: Int64
    var name: String

    func encode(to container: inout PersistenceContainer) throws {
        container["ID"] = id
        container["NAme"] = name
    }
}

struct UpdateColumnSpellingTests {
    @Test("B26: record updates name the columns as the table spells them")
    func updateUsesTableSpelling() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE persons (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO persons (id, name) VALUES (1, 'Arthur')")
            var person = Person(id: 1, name: "Barbara")
            #expect(
                try recordSQL(db, .withoutSchemaQueries, expanded: true) { try person.update(db) } == [
                    #"UPDATE "persons" SET "name"='Barbara' WHERE "id"=1"#
                ])
            person.name = "Craig"
            #expect(
                try recordSQL(db, .withoutSchemaQueries, expanded: true) { try person.update(db, columns: ["NAME"]) }
                    == [
                        #"UPDATE "persons" SET "name"='Craig' WHERE "id"=1"#
                    ])
            #expect(
                try recordSQL(db, .withoutSchemaQueries, expanded: true) {
                    try person.updateChanges(db) { $0.name = "David" }
                } == [#"UPDATE "persons" SET "name"='David' WHERE "id"=1"#])
            #expect(try String.fetchOne(db, sql: "SELECT name FROM persons") == "David")
        }
    }
}
