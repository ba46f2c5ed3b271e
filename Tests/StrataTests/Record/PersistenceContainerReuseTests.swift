import Strata
import StrataTestSupport
import Testing

/// Inserts reuse what the previous insertion of the same record type
/// learned (its columns, its values buffer): records whose encoding varies
/// must still insert exactly what they encode.
@Suite struct PersistenceContainerReuseTests {
    /// Encodes `b` only when it is set, and `c` before `a` when `reversed`.
    struct Item: PersistableRecord {
        static let databaseTableName = "item"
        var a: Int
        var b: String?
        var c: Int
        var reversed = false

        func encode(to container: inout PersistenceContainer) {
            if reversed {
                container["c"] = c
                container["a"] = a
            } else {
                container["a"] = a
                container["c"] = c
            }
            if let b {
                container["b"] = b
            }
        }
    }

    @Test func varyingColumnsInsertWhatEachRecordEncodes() throws {
        let dbQueue = try ItemTable.makeDatabase()
        try dbQueue.write { db in
            try Item(a: 1, b: "x", c: 10).insert(db)
            try Item(a: 2, b: nil, c: 20).insert(db)
            try Item(a: 3, b: "y", c: 30, reversed: true).insert(db)
            try Item(a: 4, b: "z", c: 40).insert(db)
            try Item(a: 5, b: nil, c: 50, reversed: true).insert(db)
        }
        #expect(try ItemTable.rows(dbQueue) == ["1 x 10", "2 default 20", "3 y 30", "4 z 40", "5 default 50"])
    }

    /// Sets fewer columns than the previous record of its type, and reads
    /// the container while it encodes.
    struct Shrinking: PersistableRecord {
        static let databaseTableName = "item"
        var a: Int
        var b: String?
        func encode(to container: inout PersistenceContainer) {
            #expect(container.isEmpty)
            #expect(container["a"] == nil)
            container["a"] = a
            #expect(container.count == 1)
            #expect(container["b"] == nil)
            #expect(container.map(\.0) == ["a"])
            if let b {
                container["b"] = b
                #expect(container.count == 2)
            }
        }
    }

    @Test func fewerColumnsThanThePreviousRecord() throws {
        let dbQueue = try ItemTable.makeDatabase()
        try dbQueue.write { db in
            try Shrinking(a: 1, b: "x").insert(db)
            try Shrinking(a: 2, b: nil).insert(db)
            try Shrinking(a: 3, b: "y").insert(db)
            try Shrinking(a: 4, b: nil).insert(db)
        }
        let values = try dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT a || ' ' || b FROM item ORDER BY rowid")
        }
        #expect(values == ["1 x", "2 default", "3 y", "4 default"])
    }

    /// A column set twice, with another case: the last value wins, in the
    /// position of the first.
    struct Overwriting: PersistableRecord {
        static let databaseTableName = "item"
        var value: Int
        func encode(to container: inout PersistenceContainer) {
            container["a"] = value
            container["c"] = value
            container["A"] = value + 1
            #expect(container["a"] as? DatabaseValue == (value + 1).databaseValue)
            #expect(container.count == 2)
        }
    }

    @Test func overwrittenColumnsAfterATemplate() throws {
        let dbQueue = try ItemTable.makeDatabase()
        try dbQueue.write { db in
            for value in [1, 2, 3] {
                try Overwriting(value: value).insert(db)
            }
        }
        #expect(try ItemTable.rows(dbQueue) == ["2 default 1", "3 default 2", "4 default 3"])
    }

    /// Keeps the container it is given in didInsert.
    final class Keeper: PersistableRecord {
        static let databaseTableName = "item"
        let value: Int
        var kept: PersistenceContainer?
        init(_ value: Int) { self.value = value }
        func encode(to container: inout PersistenceContainer) {
            container["a"] = value
            container["c"] = value * 10
        }
        func didInsert(_ inserted: InsertionSuccess) {
            kept = inserted.persistenceContainer
        }
    }

    @Test func containersKeptByRecordsAreNotReused() throws {
        let dbQueue = try ItemTable.makeDatabase()
        let first = Keeper(1)
        let second = Keeper(2)
        try dbQueue.write { db in
            try first.insert(db)
            try second.insert(db)
            try Keeper(3).insert(db)
        }
        let firstValues = try #require(first.kept).map { $0.1 }
        let secondValues = try #require(second.kept).map { $0.1 }
        #expect(firstValues == [1.databaseValue, 10.databaseValue])
        #expect(secondValues == [2.databaseValue, 20.databaseValue])
        #expect(try #require(first.kept).map { $0.0 } == ["a", "c"])
    }

    /// Keeps the containers of didInsert and didSave, in a table with an
    /// INTEGER PRIMARY KEY that the insert fills.
    final class SavedKeeper: MutablePersistableRecord {
        static let databaseTableName = "keyed"
        let value: Int
        var inserted: PersistenceContainer?
        var saved: PersistenceContainer?
        init(_ value: Int) { self.value = value }
        func encode(to container: inout PersistenceContainer) {
            container["value"] = value
        }
        func didInsert(_ inserted: InsertionSuccess) {
            self.inserted = inserted.persistenceContainer
        }
        func didSave(_ saved: PersistenceSuccess) {
            self.saved = saved.persistenceContainer
        }
    }

    /// The success of `didSave` holds the container of the insertion, moved
    /// out of it rather than copied, with the rowid.
    @Test func didSaveSeesTheInsertedContainer() throws {
        let dbQueue = try inMemoryDatabase { db in
            try db.execute(sql: "CREATE TABLE keyed (id INTEGER PRIMARY KEY, value INTEGER)")
        }
        var records = [SavedKeeper(10), SavedKeeper(20), SavedKeeper(30)]
        try dbQueue.write { db in
            for index in records.indices {
                try records[index].insert(db)
            }
        }
        for (index, record) in records.enumerated() {
            let saved = try #require(record.saved)
            #expect(saved.map { $0.0 } == ["value", "id"])
            #expect(saved.map { $0.1 } == [record.value.databaseValue, (index + 1).databaseValue])
            #expect(try #require(record.inserted).map { $0.1 } == saved.map { $0.1 })
        }
    }

    @Test func recordsWithTheSameTableButOtherTypes() throws {
        let dbQueue = try ItemTable.makeDatabase()
        try dbQueue.write { db in
            try Item(a: 1, b: "x", c: 10).insert(db)
            try Overwriting(value: 5).insert(db)
            try Item(a: 2, b: "y", c: 20).insert(db)
        }
        #expect(try ItemTable.rows(dbQueue) == ["1 x 10", "6 default 5", "2 y 20"])
    }

    @Test func failedInsertionsDoNotBreakTheNextOnes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item (a INTEGER PRIMARY KEY, b TEXT, c INTEGER)")
            try Item(a: 1, b: "x", c: 10).insert(db)
            #expect(throws: DatabaseError.self) {
                try Item(a: 1, b: "y", c: 20).insert(db)
            }
            try Item(a: 2, b: "z", c: 30).insert(db)
        }
        let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
        #expect(count == 2)
    }
}
