import Foundation
import Strata
import StrataTestSupport
import Testing

// The Records chapter of the v5.8 README (seed 000, lines 1790-3141), run as
// tests, section by section. Samples are run as written, adapted only so
// that they compile (values for `...`, the tables they need, GRDB 7
// spellings). The SQL is GRDB 7's text, read through the shared `SQLLog`.
//
// This file: "Records", "Records in a Glance" (Inserting, Fetching,
// Updating, Deleting, Counting Records) and "Record Protocols Overview".
// The other sections are in the GRDBReadmeRecords*Tests files.

/// The records of "Records" and "Records in a Glance".
private enum Glance {
    struct Place: Codable, Identifiable, FetchableRecord, PersistableRecord {
        var id: Int64?
        var title: String
        var isFavorite: Bool
    }

    struct Player: Codable, Identifiable, FetchableRecord, PersistableRecord {
        var id: Int64?
        var name: String
        var email: String?
        var score = 0
        var team = "red"

        init(name: String, email: String?) {
            self.name = name
            self.email = email
        }
    }

    struct Country: Codable, Identifiable, FetchableRecord, PersistableRecord {
        var isoCode: String
        var name: String
        var id: String { isoCode }
    }

    /// A database of places, players and countries, with the log of its
    /// statements (cleared once the database is set up).
    static func database() throws -> (DatabaseQueue, SQLLog) {
        try makeLoggedDatabase { db in
            try db.create(table: "place") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.column("isFavorite", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("email", .text).unique()
                t.column("score", .integer).notNull()
                t.column("team", .text).notNull()
            }
            try db.create(table: "country") { t in
                t.primaryKey("isoCode", .text)
                t.column("name", .text).notNull()
            }
            try db.execute(
                sql: """
                    INSERT INTO place (id, title) VALUES (1, 'Paris'), (2, 'Rome');
                    INSERT INTO country VALUES ('ES', 'Spain'), ('FR', 'France'), ('US', 'United States');
                    """)
        }
    }
}

@Suite("README Records chapter: Records in a Glance")
struct ReadmeRecordsInAGlanceTests {
    @Test("Records: fetch a place, make it favorite, update it")
    func records() throws {
        let (dbQueue, log) = try Glance.database()
        try dbQueue.write { db in
            if var place = try Glance.Place.fetchOne(db, id: 1) {
                place.isFavorite = true
                try place.update(db)
            }
        }
        #expect(
            log.statements(.user) == [
                #"SELECT * FROM "place" WHERE "id" = ?"#,
                #"UPDATE "place" SET "title"=?, "isFavorite"=? WHERE "id"=?"#,
            ])
        let favorites = try dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT title FROM place WHERE isFavorite")
        }
        #expect(favorites == ["Paris"])
    }

    @Test("Inserting Records")
    func inserting() throws {
        let (dbQueue, log) = try Glance.database()
        try dbQueue.write { db in
            let player = Glance.Player(name: "Arthur", email: "arthur@example.com")
            try player.insert(db)
        }
        #expect(
            log.statements(.user) == [
                #"INSERT INTO "player" ("id", "name", "email", "score", "team") VALUES (?,?,?,?,?)"#
            ]
        )
        let names = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM player") }
        #expect(names == ["Arthur"])
    }

    @Test("Fetching Records")
    func fetching() throws {
        let (dbQueue, log) = try Glance.database()
        try dbQueue.write { db in
            for (index, name) in ["Arthur", "Barbara", "Craig"].enumerated() {
                var player = Glance.Player(name: name, email: nil)
                player.score = (index + 1) * 100
                try player.insert(db)
            }
        }
        log.clear()
        try dbQueue.read { db in
            // The sample reads the `players` table: the table is `player` here.
            let arthur = try Glance.Player.fetchOne(
                db,  // Player?
                sql: "SELECT * FROM player WHERE name = ?",
                arguments: ["Arthur"])

            let bestPlayers = try Glance.Player  // [Player]
                .order(Column("score").desc)
                .limit(10)
                .fetchAll(db)

            let spain = try Glance.Country.fetchOne(db, id: "ES")  // Country?

            #expect(arthur?.name == "Arthur")
            #expect(bestPlayers.map(\.name) == ["Craig", "Barbara", "Arthur"])
            #expect(spain?.name == "Spain")
        }
        #expect(
            log.statements(.user) == [
                "SELECT * FROM player WHERE name = ?",
                #"SELECT * FROM "player" ORDER BY "score" DESC LIMIT 10"#,
                #"SELECT * FROM "country" WHERE "isoCode" = ?"#,
            ])
    }

    @Test("Updating Records: update, updateChanges, batch update")
    func updating() throws {
        let (dbQueue, log) = try Glance.database()
        try dbQueue.write { db in
            var player: Glance.Player = Glance.Player(name: "Arthur", email: "arthur@example.com")
            player.id = 1
            try player.insert(db)
            log.clear()

            player.score = 1000
            try player.update(db)
            #expect(log.last == #"UPDATE "player" SET "name"=?, "email"=?, "score"=?, "team"=? WHERE "id"=?"#)
            log.clear()

            // does not hit the database if score has not changed
            try player.updateChanges(db) {
                $0.score = 1000
            }
            #expect(log.statements(.user).isEmpty)
            try player.updateChanges(db) {
                $0.score = 2000
            }
            #expect(log.statements(.user) == [#"UPDATE "player" SET "score"=? WHERE "id"=?"#])
            log.clear()

            try Glance.Player
                .filter(Column("team") == "red")
                .updateAll(db, Column("score") += 1)
            #expect(log.last == #"UPDATE "player" SET "score" = "score" + ? WHERE "team" = ?"#)
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 2001)
        }
    }

    @Test("Deleting Records: delete, deleteOne, deleteAll, batch delete")
    func deleting() throws {
        let (dbQueue, log) = try Glance.database()
        try dbQueue.write { db in
            var arthur = Glance.Player(name: "Arthur", email: "arthur@example.com")
            arthur.id = 1
            try arthur.insert(db)
            var barbara = Glance.Player(name: "Barbara", email: "barbara@example.com")
            barbara.id = 2
            try barbara.insert(db)
            var craig = Glance.Player(name: "Craig", email: nil)
            craig.id = 3
            try craig.insert(db)
            var david = Glance.Player(name: "David", email: "david@example.com")
            david.id = 4
            try david.insert(db)
            log.clear()

            let player: Glance.Player = david
            try player.delete(db)
            #expect(log.last == #"DELETE FROM "player" WHERE "id"=?"#)
            log.clear()

            try Glance.Player.deleteOne(db, id: 1)
            try Glance.Player.deleteOne(db, key: ["email": "barbara@example.com"])
            try Glance.Country.deleteAll(db, ids: ["FR", "US"])
            try Glance.Player
                .filter(Column("email") == nil)
                .deleteAll(db)
            #expect(
                log.statements(.user) == [
                    #"DELETE FROM "player" WHERE "id" = ?"#,
                    #"DELETE FROM "player" WHERE "email" = ?"#,
                    #"DELETE FROM "country" WHERE "isoCode" IN (?, ?)"#,
                    #"DELETE FROM "player" WHERE "email" IS NULL"#,
                ])
            #expect(try Glance.Player.fetchCount(db) == 0)
            #expect(try Glance.Country.fetchAll(db).map(\.isoCode) == ["ES"])
        }
    }

    @Test("Counting Records")
    func counting() throws {
        let (dbQueue, log) = try Glance.database()
        try dbQueue.write { db in
            try Glance.Player(name: "Arthur", email: "arthur@example.com").insert(db)
            try Glance.Player(name: "Barbara", email: nil).insert(db)
            try Glance.Player(name: "Craig", email: nil).insert(db)
        }
        log.clear()
        try dbQueue.read { db in
            let playerCount: Int = try Glance.Player.fetchCount(db)

            let playerWithEmailCount: Int = try Glance.Player
                .filter(Column("email") == nil)
                .fetchCount(db)

            #expect(playerCount == 3)
            // The sample counts players *without* email, despite its name.
            #expect(playerWithEmailCount == 2)
        }
        #expect(
            log.statements(.user) == [
                #"SELECT COUNT(*) FROM "player""#,
                #"SELECT COUNT(*) FROM "player" WHERE "email" IS NULL"#,
            ])
    }
}

// MARK: - Record Protocols Overview

/// `struct Place: FetchableRecord { ... }`
private enum FetchableOverview {
    struct Place: FetchableRecord {
        var title: String
        init(row: Row) { title = row["title"] }
    }
}

/// `struct Place: TableRecord { ... }`
private enum TableOverview {
    struct Place: TableRecord {}
}

/// `struct Place: TableRecord, FetchableRecord { ... }`, Identifiable for
/// `fetchOne(_:id:)`.
private enum TableFetchableOverview {
    struct Place: TableRecord, FetchableRecord, Identifiable {
        var id: Int64
        var title: String
        init(row: Row) {
            id = row["id"]
            title = row["title"]
        }
    }
}

/// `struct Place : PersistableRecord { ... }`, Identifiable for
/// `deleteOne(_:id:)`.
private enum PersistableOverview {
    struct Place: PersistableRecord, Identifiable {
        var id: Int64?
        var title: String
        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["title"] = title
        }
    }
}

@Suite("README Records chapter: Record Protocols Overview")
struct ReadmeRecordProtocolsOverviewTests {
    private func database() throws -> (DatabaseQueue, SQLLog) {
        try makeLoggedDatabase { db in
            try db.create(table: "place") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
            }
            try db.execute(sql: "INSERT INTO place (id, title) VALUES (1, 'Rome'), (2, 'Paris')")
        }
    }

    @Test("FetchableRecord decodes database rows")
    func fetchableRecord() throws {
        let (dbQueue, _) = try database()
        let places = try dbQueue.read { db in
            try FetchableOverview.Place.fetchAll(db, sql: "SELECT * FROM place")
        }
        #expect(places.map(\.title) == ["Rome", "Paris"])
    }

    @Test("TableRecord generates SQL queries")
    func tableRecord() throws {
        let (dbQueue, log) = try database()
        let placeCount = try dbQueue.read { db in
            // Generates and runs `SELECT COUNT(*) FROM place`
            try TableOverview.Place.fetchCount(db)
        }
        #expect(placeCount == 2)
        #expect(log.statements(.user) == [#"SELECT COUNT(*) FROM "place""#])
    }

    @Test("TableRecord and FetchableRecord load from requests")
    func tableAndFetchableRecord() throws {
        let (dbQueue, log) = try database()
        try dbQueue.read { db in
            let places = try TableFetchableOverview.Place.order(Column("title")).fetchAll(db)
            // The sample forgets the `db` argument.
            let paris = try TableFetchableOverview.Place.fetchOne(db, id: 2)
            #expect(places.map(\.title) == ["Paris", "Rome"])
            #expect(paris?.title == "Paris")
        }
        #expect(
            log.statements(.user) == [
                #"SELECT * FROM "place" ORDER BY "title""#,
                #"SELECT * FROM "place" WHERE "id" = ?"#,
            ])
    }

    @Test("PersistableRecord creates, updates, and deletes rows")
    func persistableRecord() throws {
        let (dbQueue, log) = try database()
        try dbQueue.write { db in
            // The sample's `Place.delete(db, id: 1)` is `deleteOne(_:id:)`.
            try PersistableOverview.Place.deleteOne(db, id: 1)
            try PersistableOverview.Place(id: nil, title: "Berlin").insert(db)
        }
        #expect(
            log.statements(.user) == [
                #"DELETE FROM "place" WHERE "id" = ?"#,
                #"INSERT INTO "place" ("id", "title") VALUES (?,?)"#,
            ])
        let titles = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT title FROM place ORDER BY id") }
        #expect(titles == ["Paris", "Berlin"])
    }
}
