// One suite, one file: every persistence method of a record (insert,
// update, save, delete, upsert, and their "...AndFetch" forms), in the order
// of GRDB's documentation, over the same record types declared at the top.
// Split, each part would need its own copy of those types.

import Foundation
import Strata
import StrataTestSupport
import Testing

/// An item with a score, for the requests that return what they change.
private struct ScoredItem: Codable, Hashable, Identifiable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "item"
    var id: Int64
    var score: Int

    enum Columns {
        static let id = Column("id")
        static let score = Column("score")
    }
}

/// A database of `count` items, with ids 1, 2... and scores 10, 20...
private func itemDatabase(count: Int) throws -> DatabaseQueue {
    try inMemoryDatabase { db in
        try db.create(table: "item") { t in
            t.primaryKey("id", .integer)
            t.column("score", .integer)
        }
        for id in 1...count {
            try ScoredItem(id: Int64(id), score: id * 10).insert(db)
        }
    }
}

/// Runs `body` in a write access of a new player database, with Arthur
/// (score 1000) just inserted, id 1.
private func writeWithInsertedArthur(_ body: (Database, inout Player) throws -> Void) throws {
    try makePlayerDatabase().write { db in
        var player = Player(id: nil, name: "Arthur", score: 1000)
        try player.insert(db)
        try body(db, &player)
    }
}

struct PersistableRecordTests {
    @Test func insertSetsTheAutoIncrementedID() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var player = Player(id: nil, name: "Arthur", score: 1000)
            let sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { try player.insert(db) }
            #expect(sql == [#"INSERT INTO "player" ("id", "name", "score") VALUES (NULL,'Arthur',1000)"#])
            #expect(player.id == 1)
            var other = Player(id: nil, name: "Barbara", score: 750)
            try other.insert(db)
            #expect(other.id == 2)
            #expect(try Player.fetchAll(db) == [player, other])
        }
    }

    @Test func duplicatePrimaryKeyIsAConstraintError() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var player = Player(id: 1, name: "Arthur", score: 1000)
            try player.insert(db)
            var duplicate = Player(id: 1, name: "Barbara", score: 750)
            do {
                try duplicate.insert(db)
                Issue.record("Expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
                #expect(error.sql == #"INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)"#)
            }
            #expect(try Player.fetchCount(db) == 1)
        }
    }

    @Test func insertedReturnsTheInsertedCopy() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            let player = Player(id: nil, name: "Arthur", score: 1000)
            let inserted = try player.inserted(db)
            #expect(player.id == nil)
            #expect(inserted.id == 1)
        }
    }

    @Test func updateAllColumnsAndSomeColumns() throws {
        try writeWithInsertedArthur { db, player throws in
            player.score = 1001
            var sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { try player.update(db) }
            #expect(sql == [#"UPDATE "player" SET "name"='Arthur', "score"=1001 WHERE "id"=1"#])
            player.name = "Art"
            player.score = 0
            sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { try player.update(db, columns: ["SCORE"]) }
            #expect(sql == [#"UPDATE "player" SET "score"=0 WHERE "id"=1"#])
            sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) {
                try player.update(db, columns: [Column("name")])
            }
            #expect(sql == [#"UPDATE "player" SET "name"='Art' WHERE "id"=1"#])
            #expect(try Player.fetchOne(db) == player)
        }
    }

    @Test func updatingADeletedRecordThrowsRecordNotFound() throws {
        try writeWithInsertedArthur { db, player throws in
            #expect(try player.delete(db))
            #expect(try !player.delete(db))
            do {
                try player.update(db)
                Issue.record("Expected an error")
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                #expect(table == "player")
                #expect(key == ["id": 1.databaseValue])
            }
            #expect(throws: RecordError.self) { try player.update(db, columns: ["score"]) }
            let error = player.recordNotFound(db)
            #expect("\(error)".contains("player"))
            #expect("\(error)".contains("[id:1]"))
        }
    }

    @Test func updatingARecordWithoutIDThrowsRecordNotFound() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.read { db throws in
            let player = Player(id: nil, name: "Arthur", score: 1000)
            #expect(throws: RecordError.self) { try player.update(db) }
            #expect(try !player.exists(db))
            #expect(try !player.delete(db))
        }
    }

    @Test func saveInsertsOrUpdates() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var player = Player(id: nil, name: "Arthur", score: 1000)
            var sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { try player.save(db) }
            #expect(sql.count == 1 && sql[0].hasPrefix("INSERT"))
            player.score = 1
            sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { try player.save(db) }
            #expect(sql == [#"UPDATE "player" SET "name"='Arthur', "score"=1 WHERE "id"=1"#])
            // Primary key is set, but no row matches: update, then insert.
            var missing = Player(id: 42, name: "Barbara", score: 750)
            sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { try missing.save(db) }
            #expect(sql.count == 2 && sql[0].hasPrefix("UPDATE") && sql[1].hasPrefix("INSERT"))
            #expect(try missing.exists(db))
            let saved = try Player(id: nil, name: "Craig", score: 1).saved(db)
            #expect(saved.id == 43)
            #expect(try Player.fetchCount(db) == 3)
        }
    }

    @Test func existsAndDelete() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var player = Player(id: nil, name: "Arthur", score: 1000)
            #expect(try !player.exists(db))
            try player.insert(db)
            #expect(try player.exists(db))
            let sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { _ = try player.delete(db) }
            #expect(sql == [#"DELETE FROM "player" WHERE "id"=1"#])
            #expect(try !player.exists(db))
        }
    }

    @Test func updateChangesFromAnotherRecord() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var oldPlayer = Player(id: nil, name: "Arthur", score: 100)
            try oldPlayer.insert(db)
            var newPlayer = oldPlayer
            var modified = true
            var sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) {
                modified = try newPlayer.updateChanges(db, from: oldPlayer)
            }
            #expect(!modified)
            #expect(sql.isEmpty)
            newPlayer.score = 1000
            sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) {
                modified = try newPlayer.updateChanges(db, from: oldPlayer)
            }
            #expect(modified)
            #expect(sql == [#"UPDATE "player" SET "score"=1000 WHERE "id"=1"#])
        }
    }

    @Test func updateChangesWithModify() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            var sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) {
                let modified = try player.updateChanges(db) { $0.score = 100 }
                #expect(!modified)
            }
            #expect(sql.isEmpty)
            sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) {
                let modified = try player.updateChanges(db) { $0.score = 1000 }
                #expect(modified)
            }
            #expect(sql == [#"UPDATE "player" SET "score"=1000 WHERE "id"=1"#])
            #expect(player.score == 1000)
        }
    }

    @Test func databaseComparison() throws {
        let oldPlayer = Player(id: 1, name: "Arthur", score: 100)
        var newPlayer = Player(id: 1, name: "Arthur", score: 1000)
        #expect(try newPlayer.databaseChanges(from: oldPlayer) == ["score": 100.databaseValue])
        #expect(!newPlayer.databaseEquals(oldPlayer))
        #expect(newPlayer.databaseEquals(newPlayer))
        let changes = try newPlayer.databaseChanges { $0.name = "Barbara" }
        #expect(changes == ["name": "Arthur".databaseValue])
        #expect(newPlayer.name == "Barbara")
        #expect(
            try oldPlayer.databaseDictionary == [
                "id": 1.databaseValue, "name": "Arthur".databaseValue, "score": 100.databaseValue,
            ])
    }

    @Test func conflictResolutions() throws {
        struct ReplacingPlayer: Encodable, MutablePersistableRecord {
            static let databaseTableName = "player"
            static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .replace)
            var id: Int64?
            var name: String
            var score: Int
        }
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var player = ReplacingPlayer(id: 1, name: "Arthur", score: 1000)
            var sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { try player.insert(db) }
            #expect(sql[0].hasPrefix(#"INSERT OR REPLACE INTO "player""#))
            player.name = "Barbara"
            try player.insert(db)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player") == ["Barbara"])
            sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { try player.update(db) }
            #expect(sql[0].hasPrefix(#"UPDATE OR REPLACE "player""#))
        }
        // Explicit conflict resolutions override the policy.
        try dbQueue.write { db in
            var player = Player(id: 1, name: "Craig", score: 0)
            let sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) {
                try player.insert(db, onConflict: .ignore)
            }
            #expect(sql[0].hasPrefix(#"INSERT OR IGNORE INTO "player""#))
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player") == ["Barbara"])
        }
    }

    @Test func compositePrimaryKey() throws {
        struct Citizenship: Codable, FetchableRecord, PersistableRecord, Equatable {
            var citizenId: Int64
            var countryCode: String
            var since: Int
        }
        try DatabaseQueue().write { db in
            try db.create(table: "citizenship") { t in
                t.primaryKey {
                    t.column("citizenId", .integer)
                    t.column("countryCode", .text)
                }
                t.column("since", .integer)
            }
            var citizenship = Citizenship(citizenId: 1, countryCode: "FR", since: 2000)
            try citizenship.insert(db)
            citizenship.since = 2001
            let sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { try citizenship.update(db) }
            #expect(sql == [#"UPDATE "citizenship" SET "since"=2001 WHERE "citizenId"=1 AND "countryCode"='FR'"#])
            #expect(try citizenship.exists(db))
            #expect(try Citizenship(citizenId: 1, countryCode: "US", since: 0).exists(db) == false)
            #expect(throws: RecordError.self) { try Citizenship(citizenId: 1, countryCode: "US", since: 0).update(db) }
            try Citizenship(citizenId: 1, countryCode: "US", since: 0).save(db)
            #expect(try Citizenship.fetchCount(db) == 2)
            #expect(try citizenship.delete(db))
            #expect(try Citizenship.fetchAll(db) == [Citizenship(citizenId: 1, countryCode: "US", since: 0)])
        }
    }

    @Test func hiddenRowIDExposedByTheRecord() throws {
        struct Event: FetchableRecord, MutablePersistableRecord {
            static var databaseSelection: [any SQLSelectable] { [AllColumns(), Column.rowID] }
            var id: Int64?
            var message: String

            init(id: Int64? = nil, message: String) {
                self.id = id
                self.message = message
            }

            init(row: Row) {
                id = row[Column.rowID]
                message = row["message"]
            }

            func encode(to container: inout PersistenceContainer) {
                container[Column.rowID] = id
                container["message"] = message
            }

            mutating func didInsert(_ inserted: InsertionSuccess) {
                id = inserted.rowID
            }
        }
        try DatabaseQueue().write { db in
            try db.create(table: "event") { t in
                t.column("message", .text)
            }
            var event = Event(message: "foo")
            try event.insert(db)
            #expect(event.id == 1)
            event.message = "bar"
            let sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { try event.update(db) }
            #expect(sql == [#"UPDATE "event" SET "message"='bar' WHERE "rowid"=1"#])
            #expect(try event.exists(db))
            let fetched = try #require(try Event.fetchOne(db))
            #expect(fetched.id == 1 && fetched.message == "bar")
        }
    }

    @Test func tableWithoutPrimaryKeyAskedToUpdate() throws {
        struct Event: Encodable, PersistableRecord {
            var message: String
        }
        try DatabaseQueue().write { db in
            try db.create(table: "event") { t in
                t.column("message", .text)
            }
            let event = Event(message: "foo")
            try event.insert(db)
            do {
                try event.update(db)
                Issue.record("Expected an error")
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                #expect(table == "event")
                #expect(key == ["rowid": .null])
            }
            #expect(try !event.exists(db))
            try event.save(db)  // inserts
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event") == 2)
        }
    }

    @Test func upsert() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var player = Player(id: 1, name: "Arthur", score: 1000)
            var sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { try player.upsert(db) }
            #expect(
                sql == [
                    #"INSERT INTO "player" ("id", "name", "score") VALUES (1,'Arthur',1000) "#
                        + #"ON CONFLICT DO UPDATE SET "name" = "excluded"."name", "score" = "excluded"."score" "#
                        + #"RETURNING "rowid""#
                ])
            player.score = 10
            try player.upsert(db)
            #expect(try Player.fetchAll(db) == [player])
            var newPlayer = Player(id: nil, name: "Barbara", score: 750)
            try newPlayer.upsert(db)
            #expect(newPlayer.id == 2)

            // ON CONFLICT("id") DO UPDATE SET name = excluded.name, score = score + excluded.score
            let upserted = try player.upsertAndFetch(db, onConflict: ["id"]) { excluded in
                [Column("score") += excluded[Column("score")]]
            }
            #expect(upserted == Player(id: 1, name: "Arthur", score: 20))
            sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) {
                _ = try player.upsertAndFetch(db, updating: .noColumnUnlessSpecified)
            }
            #expect(sql[0].contains(#"DO UPDATE SET "id" = "id" RETURNING *, "rowid""#))
            #expect(try Player.fetchOne(db, key: 1)?.score == 20)
        }
    }

    @Test func insertAndFetch() throws {
        struct PartialPlayer: Encodable, MutablePersistableRecord {
            static let databaseTableName = "player"
            var id: Int64?
            var name: String
            mutating func didInsert(_ inserted: InsertionSuccess) {
                id = inserted.rowID
            }
        }
        struct FullPlayer: Decodable, FetchableRecord, TableRecord, Equatable {
            static let databaseTableName = "player"
            var id: Int64
            var name: String
            var score: Int
        }
        try DatabaseQueue().write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull().defaults(to: 42)
            }
            var partial = PartialPlayer(id: nil, name: "Arthur")
            let full = try partial.insertAndFetch(db, as: FullPlayer.self)
            #expect(full == FullPlayer(id: 1, name: "Arthur", score: 42))
            #expect(partial.id == 1)

            var other = PartialPlayer(id: nil, name: "Barbara")
            let score = try other.insertAndFetch(db, selection: [Column("score")]) { statement in
                try Int.fetchOne(statement)!
            }
            #expect(score == 42)
            #expect(other.id == 2)

            let player = Player(id: nil, name: "Craig", score: 7)
            let fetched = try player.insertAndFetch(db)
            #expect(fetched == Player(id: 3, name: "Craig", score: 7))
            #expect(player.id == nil)

            var last = Player(id: nil, name: "Diane", score: 1)
            let name = try last.insertAndFetch(
                db, fetch: { try String.fetchOne($0) }, select: { _ in [Column("name")] })
            #expect(name == "Diane")
        }
    }

    @Test func updateAndFetchAndSaveAndFetch() throws {
        try writeWithInsertedArthur { db, player throws in
            player.score = 2000
            #expect(try player.updateAndFetch(db) == player)
            let score = try player.updateAndFetch(db, columns: ["score"], selection: [Column("score") * 2]) {
                try Int.fetchOne($0)!
            }
            #expect(score == 4000)
            #expect(try player.updateChangesAndFetch(db) { $0.score = 2000 } == nil)
            let updated = try player.updateChangesAndFetch(db) { $0.score = 3000 }
            #expect(updated?.score == 3000)

            let saved = try Player(id: nil, name: "Barbara", score: 10).saveAndFetch(db)
            #expect(saved.id == 2)
            var deleted = player
            try deleted.delete(db)
            #expect(throws: RecordError.self) { try deleted.updateAndFetch(db) }
            let resaved = try deleted.saveAndFetch(db, as: Player.self)
            #expect(resaved == deleted)
        }
    }

    @Test func requestDeleteAndFetch() throws {
        typealias Item = ScoredItem
        let dbQueue = try itemDatabase(count: 6)
        try dbQueue.write { db in
            let deleted = try Item.filter(Column("score") <= 20).deleteAndFetchAll(db)
            #expect(deleted.map(\.id) == [1, 2])
            #expect(try Item.filter(Column("id") == 3).deleteAndFetchSet(db) == [Item(id: 3, score: 30)])
            #expect(try Item.filter(Column("id") == 4).deleteAndFetchIds(db) == [4])
            let statement = try Item.all().deleteAndFetchStatement(db, selection: [Column("score")])
            #expect(statement.sql == #"DELETE FROM "item" RETURNING "score""#)
            #expect(try Set(Int.fetchAll(statement)) == [50, 60])
            #expect(try Item.fetchCount(db) == 0)
        }
    }

    @Test func requestUpdateAndFetch() throws {
        typealias Item = ScoredItem
        let dbQueue = try itemDatabase(count: 3)
        try dbQueue.write { db in
            let items = try Item.filter(Column("id") <= 2).order(Column("id")).updateAndFetchAll(
                db, [Column("score") += 1])
            #expect(Set(items) == [Item(id: 1, score: 11), Item(id: 2, score: 21)])
            let set = try Item.filter { $0.id == 3 }.updateAndFetchSet(db) { [$0.score.set(to: 0)] }
            #expect(set == [Item(id: 3, score: 0)])
            let cursor = try Item.all().updateAndFetchCursor(db, [Column("score").set(to: 5)])
            #expect(try cursor.map(\.score).reduce([]) { $0 + [$1] } == [5, 5, 5])
            let statement = try Item.all().updateAndFetchStatement(
                db, assignments: { [$0.score *= 2] }, select: { [$0.score] })
            #expect(statement.sql == #"UPDATE "item" SET "score" = "score" * ? RETURNING "score""#)
            #expect(try Int.fetchAll(statement) == [10, 10, 10])
        }
    }
}
