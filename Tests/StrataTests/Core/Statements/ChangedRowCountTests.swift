import Foundation
import Strata
import StrataTestSupport
import Testing

// The number of rows a statement changed, when other writes of the same
// statement move `total_changes()`: an FTS5 table synchronized with the
// table flushes its pending index data into its shadow tables.

private struct Food: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: UUID
    var foodId: String
    var name: String
}

private struct Serving: Codable, FetchableRecord, PersistableRecord {
    var id: Int64?
    var foodId: String
    var grams: Double
}

/// A `food` table with a BLOB (UUID) primary key and a unique `foodId`, a
/// `serving` table that refers to `foodId`, and an FTS5 table synchronized
/// with `food`, created last.
private func createFoodSchema(_ db: Database) throws {
    try db.create(table: "food") { t in
        t.primaryKey("id", .blob)
        t.column("foodId", .text).notNull().unique()
        t.column("name", .text).notNull()
    }
    try db.create(table: "serving") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("foodId", .text).notNull().references("food", column: "foodId")
        t.column("grams", .double).notNull()
    }
    try db.create(virtualTable: "food_ft", using: FTS5()) { t in
        t.synchronize(withTable: "food")
        t.column("name")
    }
}

/// Runs `body` in the write transaction of a new in-memory database that
/// has just created the food schema: the FTS5 table is as new as the rows.
private func inNewFoodSchema(_ body: (Database) throws -> Void) throws {
    try inMemoryWrite { db in
        try createFoodSchema(db)
        try body(db)
    }
}

struct ChangedRowCountTests {
    @Test("B03: save() inserts a new record of a table that an FTS5 table is synchronized with")
    func saveInsertsWithSynchronizedFTS5() throws {
        try inNewFoodSchema { db in
            let apple = Food(id: UUID(), foodId: "apple", name: "Apple")
            try apple.save(db)
            #expect(try Food.fetchAll(db) == [apple])
            try Serving(id: nil, foodId: "apple", grams: 120).save(db)
            #expect(try Serving.fetchCount(db) == 1)
            // The saved row is indexed.
            #expect(try String.fetchAll(db, sql: "SELECT name FROM food_ft WHERE food_ft MATCH 'apple'") == ["Apple"])
        }
    }

    @Test("B03: save() inserts when the FTS5 table was created in an earlier transaction")
    func saveInsertsWithSynchronizedFTS5InEarlierTransaction() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"))
        try dbQueue.write { db in try createFoodSchema(db) }
        try dbQueue.write { db in
            let apple = Food(id: UUID(), foodId: "apple", name: "Apple")
            try apple.save(db)
            try Serving(id: nil, foodId: "apple", grams: 120).save(db)
            let pear = Food(id: UUID(), foodId: "pear", name: "Pear")
            try pear.save(db)
            #expect(try Food.order(Column("foodId")).fetchAll(db) == [apple, pear])
        }
    }

    @Test("B03: update() of a missing record throws recordNotFound with a synchronized FTS5 table")
    func updateThrowsWithSynchronizedFTS5() throws {
        try inNewFoodSchema { db throws in
            let ghost = Food(id: UUID(), foodId: "ghost", name: "Ghost")
            #expect {
                try ghost.update(db)
            } throws: { error in
                guard case RecordError.recordNotFound(let tableName, _) = error else { return false }
                return tableName == "food"
            }
            #expect(try Food.fetchCount(db) == 0)
        }
    }

    @Test("B03: updateAll and deleteAll that match no row return 0 with a synchronized FTS5 table")
    func batchCountsWithSynchronizedFTS5() throws {
        try inNewFoodSchema { db in
            #expect(try Food.filter(Column("foodId") == "none").updateAll(db, Column("name").set(to: "X")) == 0)
            try db.execute(sql: "INSERT INTO food_ft(food_ft) VALUES ('rebuild')")
            #expect(try Food.filter(Column("foodId") == "none").deleteAll(db) == 0)
        }
    }
}
