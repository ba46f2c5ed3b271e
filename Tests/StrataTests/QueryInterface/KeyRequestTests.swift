import Foundation
import Strata
import StrataTestSupport
import Testing

private struct Player: Codable, Identifiable, FetchableRecord, PersistableRecord {
    var id: Int64?
    var email: String
    var teamId: Int64?
}

private struct Citizenship: Codable, FetchableRecord, PersistableRecord {
    var personName: String
    var countryName: String
}

private struct Pet: Codable, Identifiable, FetchableRecord, PersistableRecord {
    var id: String?
    var name: String
}

/// Requests by key, and statements through joins (issue 17, items 3 to 6).
struct KeyRequestTests {
    private func makeDatabase(_ log: SQLLog) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: log.configuration())
        try dbQueue.write { db throws in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).notNull().unique()
                t.belongsTo("team")
            }
            try db.create(table: "citizenship") { t in
                t.column("personName", .text)
                t.column("countryName", .text)
                t.primaryKey(["personName", "countryName"])
            }
            // A rowid table whose primary key is not an INTEGER: NULL keys are allowed.
            try db.execute(sql: "CREATE TABLE pet (id TEXT PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute(sql: "CREATE TABLE tag (name TEXT PRIMARY KEY, score INTEGER) WITHOUT ROWID")
            try db.execute(sql: "CREATE TABLE note (body TEXT)")
            try db.execute(sql: "CREATE VIEW playerView AS SELECT * FROM player")
        }
        return dbQueue
    }

    @Test func uniqueKeysFetchOneWithoutLimit() throws {
        let log = SQLLog()
        try makeDatabase(log).write { db throws in
            try Player(id: 1, email: "a@x", teamId: nil).insert(db)
            log.clear()
            _ = try Player.fetchOne(db, key: 1)
            _ = try Player.fetchOne(db, id: 1)
            _ = try Player.find(db, id: 1)
            _ = try Player.filter(key: 1).fetchOne(db)
            _ = try Player.filter(id: 1).fetchOne(db)
            _ = try Player.fetchOne(db, key: ["email": "a@x"])
            _ = try Player.filter(Column("rowid") == 1).fetchOne(db)
            _ = try Player.select(count(Column("id"))).asRequest(of: Int.self).fetchOne(db)
            // Other requests keep LIMIT 1.
            _ = try Player.filter(Column("teamId") == 1).fetchOne(db)
            _ = try Player.filter(key: 1).joining(optional: Player.belongsTo(Team.self)).fetchOne(db)
            _ = try Table("playerView").filter(Column("id") == 1).fetchOne(db)
            _ = try Player.select(count(Column("id"))).group(Column("teamId")).asRequest(of: Int.self).fetchOne(db)
        }
        #expect(
            log.statements(.user) == [
                #"SELECT * FROM "player" WHERE "id" = ?"#,
                #"SELECT * FROM "player" WHERE "id" = ?"#,
                #"SELECT * FROM "player" WHERE "id" = ?"#,
                #"SELECT * FROM "player" WHERE "id" = ?"#,
                #"SELECT * FROM "player" WHERE "id" = ?"#,
                #"SELECT * FROM "player" WHERE "email" = ?"#,
                #"SELECT * FROM "player" WHERE "rowid" = ?"#,
                #"SELECT COUNT("id") FROM "player""#,
                #"SELECT * FROM "player" WHERE "teamId" = ? LIMIT 1"#,
                #"SELECT "player".* FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId" WHERE "player"."id" = ? LIMIT 1"#,
                #"SELECT * FROM "playerView" WHERE "id" = ? LIMIT 1"#,
                #"SELECT COUNT("id") FROM "player" GROUP BY "teamId" LIMIT 1"#,
            ])
    }

    @Test func nilKeysMatchNoRow() throws {
        let log = SQLLog()
        try makeDatabase(log).write { db throws in
            try db.execute(sql: "INSERT INTO pet (id, name) VALUES (NULL, 'stray')")
            #expect(try requestSQL(db, Pet.filter(id: nil)) == #"SELECT * FROM "pet" WHERE 0"#)
            #expect(try requestSQL(db, Pet.filter(key: nil as String?)) == #"SELECT * FROM "pet" WHERE 0"#)
            #expect(try requestSQL(db, Pet.filter(key: nil)) == #"SELECT * FROM "pet" WHERE 0"#)
            #expect(
                try requestSQL(db, Citizenship.filter(key: ["personName": "A", "countryName": nil]))
                    == #"SELECT * FROM "citizenship" WHERE 0"#)
            #expect(try Pet.filter(id: nil).fetchAll(db).isEmpty)
            log.clear()
            #expect(try Pet.deleteOne(db, id: nil) == false)
            #expect(try Pet.exists(db, id: nil) == false)
            #expect(try Pet.deleteOne(db, key: nil as String?) == false)
            #expect(log.statements(.user).isEmpty)
            #expect(try Pet.fetchCount(db) == 1)
        }
    }

    @Test func nilForeignKeyRequestsNoRow() throws {
        let log = SQLLog()
        try makeDatabase(log).write { db throws in
            let player = Player(id: 1, email: "a@x", teamId: nil)
            let request = player.request(for: Player.belongsTo(Team.self))
            #expect(try requestSQL(db, request) == #"SELECT * FROM "team" WHERE 0"#)
        }
    }

    @Test func keyDictionariesFollowIndexOrder() throws {
        let log = SQLLog()
        try makeDatabase(log).write { db throws in
            log.clear()
            _ = try Citizenship.fetchOne(db, key: ["countryName": "France", "personName": "Arthur"])
            _ = try Citizenship.deleteOne(db, key: ["countryName": "France", "personName": "Arthur"])
        }
        #expect(
            log.statements(.user) == [
                #"SELECT * FROM "citizenship" WHERE ("personName" = ?) AND ("countryName" = ?)"#,
                #"DELETE FROM "citizenship" WHERE ("personName" = ?) AND ("countryName" = ?)"#,
            ])
    }

    @Test func joinedStatementsUseFastPrimaryKey() throws {
        let log = SQLLog()
        try makeDatabase(log).write { db throws in
            try db.execute(sql: "INSERT INTO tag (name, score) VALUES ('a', 1), ('b', 2)")
            try db.execute(sql: "INSERT INTO note (body) VALUES ('x')")
            log.clear()
            try Player.joining(required: Player.belongsTo(Team.self)).deleteAll(db)
            try Table("tag").all().group(Column("name")).updateAll(db, Column("score").set(to: 0))
            try Table("note").all().group(Column("body")).deleteAll(db)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM tag") == [0, 0])
        }
        #expect(
            Array(log.statements(.user).prefix(3)) == [
                """
                DELETE FROM "player" WHERE "id" IN (SELECT "player"."id" FROM "player" \
                JOIN "team" ON "team"."id" = "player"."teamId")
                """,
                #"UPDATE "tag" SET "score" = ? WHERE "name" IN (SELECT "name" FROM "tag" GROUP BY "name")"#,
                #"DELETE FROM "note" WHERE "rowid" IN (SELECT "rowid" FROM "note" GROUP BY "body")"#,
            ])
    }
}

private struct Team: TableRecord {}
