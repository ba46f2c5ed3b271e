import Foundation
import Strata
import StrataTestSupport
import Testing

// The SQL of record persistence, as users read it in traces and compare it
// in their tests: GRDB 7's text, checked with the shared SQL log.

private struct Player: Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var email: String
    var score: Int

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

private struct Citizenship: Codable, FetchableRecord, PersistableRecord {
    var citizenId: Int64
    var countryCode: String
    var since: Int
}

/// A record whose updates are ignored on conflict.
private struct IgnoringPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .abort, update: .ignore)
    var id: Int64
    var name: String
    var email: String
    var score: Int
}

/// Runs `body` in a database of players and citizenships, with the log of
/// its statements.
private func withPlayerDatabase(_ body: (Database, SQLLog) throws -> Void) throws {
    let (dbQueue, log) = try makeLoggedDatabase { db in
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("email", .text).notNull().unique()
            t.column("score", .integer).notNull()
        }
        try db.create(table: "citizenship") { t in
            t.column("citizenId", .integer).notNull()
            t.column("countryCode", .text).notNull()
            t.column("since", .integer).notNull()
            t.primaryKey(["citizenId", "countryCode"])
        }
    }
    try dbQueue.write { db in try body(db, log) }
}

struct PersistenceSQLTests {
    @Test func persistenceMethodsWriteGRDBSQL() throws {
        try withPlayerDatabase { db, log in
            var player = Player(id: nil, name: "Arthur", email: "arthur@example.com", score: 100)
            try player.insert(db)
            #expect(log.last == #"INSERT INTO "player" ("id", "name", "email", "score") VALUES (?,?,?,?)"#)
            try player.update(db)
            #expect(log.last == #"UPDATE "player" SET "name"=?, "email"=?, "score"=? WHERE "id"=?"#)
            try player.update(db, columns: ["score"])
            #expect(log.last == #"UPDATE "player" SET "score"=? WHERE "id"=?"#)
            try player.save(db)
            #expect(log.last == #"UPDATE "player" SET "name"=?, "email"=?, "score"=? WHERE "id"=?"#)
            _ = try player.updateAndFetch(db)
            #expect(
                log.last
                    == #"UPDATE "player" SET "name"=?, "email"=?, "score"=? WHERE "id"=? RETURNING *"#)
            var barbara = Player(id: nil, name: "Barbara", email: "barbara@example.com", score: 0)
            barbara = try barbara.insertAndFetch(db)
            #expect(log.last == #"INSERT INTO "player" ("id", "name", "email", "score") VALUES (?,?,?,?) RETURNING *"#)
            try player.delete(db)
            #expect(log.last == #"DELETE FROM "player" WHERE "id"=?"#)

            let citizenship = Citizenship(citizenId: 1, countryCode: "FR", since: 2000)
            try citizenship.insert(db)
            try citizenship.update(db)
            #expect(log.last == #"UPDATE "citizenship" SET "since"=? WHERE "citizenId"=? AND "countryCode"=?"#)
            try citizenship.delete(db)
            #expect(log.last == #"DELETE FROM "citizenship" WHERE "citizenId"=? AND "countryCode"=?"#)
        }
    }

    @Test func theFirstInsertReadsTheSchemaBeforeItsInsert() throws {
        try withPlayerDatabase { db, log in
            var player = Player(id: nil, name: "Arthur", email: "arthur@example.com", score: 100)
            try player.insert(db)
            #expect(log.statements().count > 1)  // schema reads came first
            #expect(log.last == #"INSERT INTO "player" ("id", "name", "email", "score") VALUES (?,?,?,?)"#)
            let citizenship = Citizenship(citizenId: 1, countryCode: "FR", since: 2000)
            try citizenship.insert(db)
            #expect(log.last == #"INSERT INTO "citizenship" ("citizenId", "countryCode", "since") VALUES (?,?,?)"#)
        }
    }

    @Test func updateAllUsesTheUpdateConflictPolicy() throws {
        try withPlayerDatabase { db, log in
            try IgnoringPlayer(id: 1, name: "Arthur", email: "arthur@example.com", score: 0).insert(db)
            try IgnoringPlayer(id: 2, name: "Barbara", email: "barbara@example.com", score: 0).insert(db)
            log.clear()
            // Both rows would get the same email: the second one is ignored.
            #expect(try IgnoringPlayer.updateAll(db, Column("email").set(to: "same@example.com")) == 1)
            #expect(log.last == #"UPDATE OR IGNORE "player" SET "email" = ?"#)
            try IgnoringPlayer.filter(Column("id") == 1).updateAll(db, Column("score").set(to: 1))
            #expect(log.last == #"UPDATE OR IGNORE "player" SET "score" = ? WHERE "id" = ?"#)
            try Table<IgnoringPlayer>("player").updateAll(db, Column("score").set(to: 2))
            #expect(log.last == #"UPDATE OR IGNORE "player" SET "score" = ?"#)
            try IgnoringPlayer.updateAll(db, onConflict: .replace, Column("score").set(to: 3))
            #expect(log.last == #"UPDATE OR REPLACE "player" SET "score" = ?"#)
            // A record type without policy: plain UPDATE.
            try Player.updateAll(db, Column("score").set(to: 4))
            #expect(log.last == #"UPDATE "player" SET "score" = ?"#)
        }
    }

    @Test func upsertAssignments() throws {
        try withPlayerDatabase { db, log in
            var arthur = Player(id: nil, name: "Arthur", email: "arthur@example.com", score: 100)
            try arthur.insert(db)
            log.clear()

            // Same email, other id: the row is updated, its id is kept.
            var other = Player(id: 42, name: "Arthur Dent", email: "arthur@example.com", score: 200)
            try other.upsert(db)
            #expect(
                log.last == #"INSERT INTO "player" ("id", "name", "email", "score") VALUES (?,?,?,?) "#
                    + #"ON CONFLICT DO UPDATE SET "name" = "excluded"."name", "email" = "excluded"."email", "#
                    + #""score" = "excluded"."score" RETURNING "rowid""#)

            var candidate = Player(id: 42, name: "Arthur", email: "arthur@example.com", score: 10)
            var upserted = try candidate.upsertAndFetch(db, onConflict: ["email"])
            #expect(upserted.id == 1)
            #expect(
                log.last == #"INSERT INTO "player" ("id", "name", "email", "score") VALUES (?,?,?,?) "#
                    + #"ON CONFLICT("email") DO UPDATE SET "name" = "excluded"."name", "#
                    + #""score" = "excluded"."score" RETURNING *, "rowid""#)

            // Explicit assignments first, noOverwrite left out.
            candidate = Player(id: 42, name: "Arthur Dent", email: "arthur@example.com", score: 5)
            upserted = try candidate.upsertAndFetch(db, onConflict: ["email"]) { excluded in
                [Column("score") += excluded[Column("score")], Column("name").noOverwrite]
            }
            #expect(upserted == Player(id: 1, name: "Arthur", email: "arthur@example.com", score: 15))
            #expect(
                log.last == #"INSERT INTO "player" ("id", "name", "email", "score") VALUES (?,?,?,?) "#
                    + #"ON CONFLICT("email") DO UPDATE SET "score" = "score" + "excluded"."score" "#
                    + #"RETURNING *, "rowid""#)

            // Nothing left to update: the primary key is assigned to itself.
            candidate = Player(id: 42, name: "Arthur Dent", email: "arthur@example.com", score: 5)
            upserted = try candidate.upsertAndFetch(db, onConflict: ["email"]) { _ in
                [Column("name").noOverwrite, Column("score").noOverwrite]
            }
            #expect(upserted == Player(id: 1, name: "Arthur", email: "arthur@example.com", score: 15))
            #expect(log.last?.contains(#"DO UPDATE SET "id" = "id" RETURNING"#) == true)
        }
    }

    @Test func recordNotFoundDescription() {
        let error = RecordError.recordNotFound(databaseTableName: "player", key: ["id": 1.databaseValue])
        #expect("\(error)" == "Key not found in table player: [id:1]")
        let nilKey = RecordError.recordNotFound(databaseTableName: "player", key: ["id": .null])
        #expect("\(nilKey)" == "Key not found in table player: [id:NULL]")
        let composite = Citizenship.recordNotFound(key: ["countryCode": "FR", "citizenId": 1])
        #expect("\(composite)" == #"Key not found in table citizenship: [citizenId:1 countryCode:"FR"]"#)
    }
}

extension Player: Equatable {}
