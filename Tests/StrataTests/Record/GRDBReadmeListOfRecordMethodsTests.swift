import Foundation
import Strata
import StrataTestSupport
import Testing

// The Records chapter of the v5.8 README (seed 000): the "List of Record
// Methods" table, each row run once (see GRDBReadmeRecordsChapterTests.swift for
// the conventions). GRDB 7 spells `didInsert(with:for:)` `didInsert(_:)`.
// The Record class, which adopts all protocols and adds `updateChanges(_:)`,
// is the kit's `RecordPlayer`.

private enum MethodList {
    struct Player: Codable, Hashable, Identifiable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "player"
        static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name"), Column("score")] }
        static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .abort, update: .rollback)

        var id: Int64?
        var name: String
        var score: Int

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    /// Players 1 (Arthur, 100), 2 (Barbara, 1000), 3 (Craig, 500).
    static func database() throws -> (DatabaseQueue, SQLLog) {
        try makeLoggedDatabase { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
                t.column("score", .integer).notNull()
            }
            try StrataTestSupport.Player.insert(StrataTestSupport.Player.samples, db)
        }
    }
}

@Suite("README Records chapter: List of Record Methods")
struct GRDBReadmeListOfRecordMethodsTests {
    fileprivate typealias Player = MethodList.Player

    @Test("Core methods")
    func coreMethods() throws {
        try loggedWrite(MethodList.database()) { db, log throws in
            let row: Row = ["id": 1, "name": "Arthur", "score": 100]
            #expect(try Player(row: row) == Player(id: 1, name: "Arthur", score: 100))  // init(row:)
            #expect(Player.databaseTableName == "player")  // Type.databaseTableName
            // Type.databaseSelection
            #expect(try requestSQL(db, Player.all()) == #"SELECT "id", "name", "score" FROM "player""#)
            // Type.persistenceConflictPolicy
            #expect(Player.persistenceConflictPolicy.conflictResolutionForUpdate == .rollback)
            // record.encode(to:): GRDB 7 containers are made by the library only.
            let david = Player(id: nil, name: "David", score: 0)
            #expect(
                try david.databaseDictionary == ["id": .null, "name": "David".databaseValue, "score": 0.databaseValue])
            var player = david
            try player.insert(db)  // record.didInsert(_:)
            #expect(player.id == 4)
            log.clear()
            try player.update(db)
            #expect(log.last?.hasPrefix(#"UPDATE OR ROLLBACK "player""#) == true)
        }
    }

    @Test("Insert and update records")
    func insertAndUpdate() throws {
        try loggedWrite(MethodList.database()) { db, log throws in
            var david = Player(id: nil, name: "David", score: 0)
            try david.insert(db)  // record.insert(db)
            david.score = 10
            try david.save(db)  // record.save(db)
            david.score = 20
            try david.update(db)  // record.update(db)
            david.score = 30
            try david.update(db, columns: ["score"])  // record.update(db, columns:...)
            let old = david
            david.score = 40
            #expect(try david.updateChanges(db, from: old))  // record.updateChanges(db, from:...)
            #expect(try david.updateChanges(db) { $0.score = 50 })  // record.updateChanges(db) { ... }
            let record = try #require(try RecordPlayer.fetchOne(db, key: 4))
            record.score = 60
            #expect(try record.updateChanges(db))  // record.updateChanges(db)
            #expect(try Player.updateAll(db, Column("score") += 1) == 4)  // Type.updateAll(db, ...)
            // Type.filter(...).updateAll(db, ...)
            #expect(try Player.filter(Column("score") > 100).updateAll(db, Column("score") -= 1) == 3)
            #expect(
                log.statements(.user).filter { !$0.hasPrefix("SELECT") } == [
                    #"INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)"#,
                    #"UPDATE OR ROLLBACK "player" SET "name"=?, "score"=? WHERE "id"=?"#,
                    #"UPDATE OR ROLLBACK "player" SET "name"=?, "score"=? WHERE "id"=?"#,
                    #"UPDATE OR ROLLBACK "player" SET "score"=? WHERE "id"=?"#,
                    #"UPDATE OR ROLLBACK "player" SET "score"=? WHERE "id"=?"#,
                    #"UPDATE OR ROLLBACK "player" SET "score"=? WHERE "id"=?"#,
                    #"UPDATE "player" SET "score"=? WHERE "id"=?"#,
                    #"UPDATE OR ROLLBACK "player" SET "score" = "score" + ?"#,
                    #"UPDATE OR ROLLBACK "player" SET "score" = "score" - ? WHERE "score" > ?"#,
                ])
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [100, 1000, 500, 61])
        }
    }

    @Test("Delete records")
    func deleteRecords() throws {
        try loggedWrite(MethodList.database()) { db, log throws in
            let arthur = try Player.find(db, id: 1)
            log.clear()
            #expect(try arthur.delete(db))  // record.delete(db)
            #expect(try Player.deleteOne(db, key: ["name": "Barbara"]))  // Type.deleteOne(db, key:...)
            #expect(try Player.deleteOne(db, id: 3))  // Type.deleteOne(db, id:...)
            #expect(try Player.deleteAll(db, keys: [1, 2]) == 0)  // Type.deleteAll(db, keys:...)
            #expect(try Player.deleteAll(db, ids: [1, 2]) == 0)  // Type.deleteAll(db, ids:...)
            #expect(try Player.filter(Column("score") > 0).deleteAll(db) == 0)  // Type.filter(...).deleteAll(db)
            #expect(try Player.deleteAll(db) == 0)  // Type.deleteAll(db)
            #expect(
                log.statements(.user) == [
                    #"DELETE FROM "player" WHERE "id"=?"#,
                    #"DELETE FROM "player" WHERE "name" = ?"#,
                    #"DELETE FROM "player" WHERE "id" = ?"#,
                    #"DELETE FROM "player" WHERE "id" IN (?, ?)"#,
                    #"DELETE FROM "player" WHERE "id" IN (?, ?)"#,
                    #"DELETE FROM "player" WHERE "score" > ?"#,
                    #"DELETE FROM "player""#,
                ])
        }
    }

    @Test("Check existence, convert to dictionary, count")
    func existsDictionaryCount() throws {
        try loggedRead(MethodList.database()) { db, log throws in
            let arthur = try Player.find(db, id: 1)
            #expect(try arthur.exists(db))  // record.exists(db)
            #expect(
                try arthur.databaseDictionary  // record.databaseDictionary
                    == ["id": 1.databaseValue, "name": "Arthur".databaseValue, "score": 100.databaseValue])
            log.clear()
            #expect(try Player.fetchCount(db) == 3)  // Type.fetchCount(db)
            #expect(try Player.filter(Column("score") >= 500).fetchCount(db) == 2)  // Type.filter(...).fetchCount(db)
            #expect(
                log.statements(.user) == [
                    #"SELECT COUNT(*) FROM "player""#,
                    #"SELECT COUNT(*) FROM "player" WHERE "score" >= ?"#,
                ])
        }
    }

    @Test("Fetch record cursors, arrays, sets, and individual records")
    func fetchMethods() throws {
        let selects = try loggedRead(MethodList.database()) { db, log throws in
            let sql = "SELECT * FROM player ORDER BY id"
            let statement = try db.makeStatement(sql: sql)
            let filtered = Player.filter(Column("score") >= 500)

            // Fetch Record Cursors
            #expect(try Array(Player.fetchCursor(db)).count == 3)
            #expect(try Array(Player.fetchCursor(db, keys: [1, 2])).count == 2)
            #expect(try Array(Player.fetchCursor(db, ids: [1, 2])).count == 2)
            #expect(try Array(Player.fetchCursor(db, sql: sql)).count == 3)
            #expect(try Array(Player.fetchCursor(statement)).count == 3)
            #expect(try Array(filtered.fetchCursor(db)).count == 2)

            // Fetch Record Arrays
            #expect(try Player.fetchAll(db).map(\.name) == ["Arthur", "Barbara", "Craig"])
            #expect(try Player.fetchAll(db, keys: [1, 2]).count == 2)
            #expect(try Player.fetchAll(db, ids: [1, 2]).count == 2)
            #expect(try Player.fetchAll(db, sql: sql).count == 3)
            #expect(try Player.fetchAll(statement).count == 3)
            #expect(try filtered.fetchAll(db).map(\.name) == ["Barbara", "Craig"])

            // Fetch Record Sets
            #expect(try Player.fetchSet(db).count == 3)
            #expect(try Player.fetchSet(db, keys: [1, 2]).count == 2)
            #expect(try Player.fetchSet(db, ids: [1, 2]).count == 2)
            #expect(try Player.fetchSet(db, sql: sql).count == 3)
            #expect(try Player.fetchSet(statement).count == 3)
            #expect(try filtered.fetchSet(db).count == 2)

            // Fetch Individual Records
            #expect(try Player.fetchOne(db)?.name == "Arthur")
            #expect(try Player.fetchOne(db, key: 2)?.name == "Barbara")
            #expect(try Player.fetchOne(db, id: 3)?.name == "Craig")
            #expect(try Player.fetchOne(db, sql: sql)?.name == "Arthur")
            #expect(try Player.fetchOne(statement)?.name == "Arthur")
            #expect(try filtered.fetchOne(db)?.name == "Barbara")
            return Set(log.statements(.user))
        }
        #expect(
            selects == [
                #"SELECT "id", "name", "score" FROM "player""#,
                #"SELECT "id", "name", "score" FROM "player" WHERE "id" IN (?, ?)"#,
                "SELECT * FROM player ORDER BY id",
                #"SELECT "id", "name", "score" FROM "player" WHERE "score" >= ?"#,
                #"SELECT "id", "name", "score" FROM "player" LIMIT 1"#,
                #"SELECT "id", "name", "score" FROM "player" WHERE "id" = ?"#,
                #"SELECT "id", "name", "score" FROM "player" WHERE "score" >= ? LIMIT 1"#,
            ])
    }
}
