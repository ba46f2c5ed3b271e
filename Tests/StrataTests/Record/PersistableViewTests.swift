import Foundation
import Strata
import Testing

private struct Team: Codable, Identifiable, FetchableRecord, PersistableRecord {
    var id: String
    var name: String
}

private struct Player: Codable, Identifiable, FetchableRecord, PersistableRecord {
    var id: String
    var name: String
    var teamId: String?
    var isCaptain: Bool
}

private struct Captain: Codable, Identifiable, FetchableRecord, PersistableRecord {
    var id: String
    var name: String
    var teamId: String
}

private struct GameSchemaSource: DatabaseSchemaSource {
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        ["id"]
    }
}

private func migrator() -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("Teams and players") { db in
        try db.create(table: "team") { t in
            t.primaryKey("id", .text)
            t.column("name", .text).notNull()
        }
        try db.create(table: "player") { t in
            t.primaryKey("id", .text)
            t.column("name", .text).notNull()
            // As in the ViewRecords article: the index of belongsTo
            // (player_on_teamId) and the unique index below coexist.
            t.belongsTo("team", onDelete: .setNull)
            t.column("isCaptain", .boolean).notNull()
        }
        try db.create(
            indexOn: "player", columns: ["teamId"],
            options: .unique,
            condition: Column("isCaptain"))
    }
    migrator.registerMigration("Read-only captains") { db in
        try db.execute(
            sql: """
                CREATE VIEW captain AS
                SELECT id, name, teamId
                FROM player
                WHERE isCaptain AND teamId IS NOT NULL;
                """)
    }
    migrator.registerMigration("Captain insert") { db in
        try db.execute(
            sql: """
                CREATE TRIGGER captain_insert
                INSTEAD OF INSERT ON captain
                BEGIN
                    UPDATE player SET isCaptain = 0
                    WHERE teamId = NEW.teamId AND isCaptain;
                    INSERT INTO player(id, name, teamId, isCaptain)
                    VALUES (NEW.id, NEW.name, NEW.teamId, 1);
                END;
                """)
    }
    migrator.registerMigration("Captain update") { db in
        try db.execute(
            sql: """
                CREATE TRIGGER captain_update
                INSTEAD OF UPDATE ON captain
                BEGIN
                    UPDATE player SET isCaptain = 0
                    WHERE teamId = NEW.teamId AND isCaptain AND id <> NEW.id;
                    UPDATE player SET name = NEW.name, teamId = NEW.teamId, isCaptain = 1
                    WHERE id = NEW.id;
                END;
                """)
    }
    migrator.registerMigration("Captain delete") { db in
        try db.execute(
            sql: """
                CREATE TRIGGER captain_delete
                INSTEAD OF DELETE ON captain
                BEGIN
                    DELETE FROM player WHERE id = OLD.id;
                END;
                """)
    }
    return migrator
}

private func database() throws -> DatabaseQueue {
    var config = Configuration()
    config.schemaSource = GameSchemaSource()
    let dbQueue = try DatabaseQueue(configuration: config)
    try migrator().migrate(dbQueue)
    return dbQueue
}

private func players(_ db: Database) throws -> [String] {
    try Row.fetchAll(db, sql: "SELECT id, name, teamId, isCaptain FROM player ORDER BY id").map { row in
        "\(row["id"] as String)|\(row["name"] as String)|\(row["teamId"] as String? ?? "")|\(row["isCaptain"] as Int)"
    }
}

struct PersistableViewTests {
    @Test func insertThroughInsteadOfTrigger() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            try Team(id: "green", name: "Green").insert(db)
            // Diane is the captain
            try Captain(id: "diane", name: "Diane", teamId: "green").insert(db)
            // Well, no: Eugene is the captain
            try Captain(id: "eugene", name: "Eugene", teamId: "green").insert(db)
            #expect(try players(db) == ["diane|Diane|green|0", "eugene|Eugene|green|1"])
            #expect(try Captain.fetchAll(db).map(\.id) == ["eugene"])
        }
    }

    @Test func updateThroughInsteadOfTrigger() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            try Team(id: "red", name: "Red").insert(db)
            try Team(id: "blue", name: "Blue").insert(db)
            try Captain(id: "alice", name: "Alice", teamId: "red").insert(db)
            // Bob is the Blue captain.
            var bob = Captain(id: "bob", name: "Bob", teamId: "blue")
            try bob.insert(db)
            // Bob is now Bobby, the Red captain.
            // Alice is no longer the Red captain.
            try bob.updateChanges(db) {
                $0.name = "Bobby"
                $0.teamId = "red"
            }
            #expect(try players(db) == ["alice|Alice|red|0", "bob|Bobby|red|1"])
            #expect(try Captain.fetchAll(db).map(\.name) == ["Bobby"])
            try bob.update(db)
            #expect(try bob.exists(db))
            // A captain that is not in the view can not be updated.
            let ghost = Captain(id: "ghost", name: "Ghost", teamId: "red")
            #expect(throws: RecordError.self) { try ghost.update(db) }
        }
    }

    @Test func deleteThroughInsteadOfTrigger() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            try Team(id: "red", name: "Red").insert(db)
            try Team(id: "blue", name: "Blue").insert(db)
            try Captain(id: "alice", name: "Alice", teamId: "red").insert(db)
            try Captain(id: "bob", name: "Bob", teamId: "blue").insert(db)
            try Captain(id: "carol", name: "Carol", teamId: "blue").insert(db)
            // Delete Alice
            try Captain.deleteOne(db, id: "alice")
            // Delete Carol
            let carol = try Captain.find(db, id: "carol")
            #expect(try carol.delete(db))
            #expect(try !carol.delete(db))
            #expect(try players(db) == ["bob|Bob|blue|0"])
            // Delete all captains
            try Captain.deleteAll(db)
            #expect(try Captain.fetchCount(db) == 0)
        }
    }

    @Test func changesThroughTheViewAreCounted() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            try Team(id: "red", name: "Red").insert(db)
            try Team(id: "blue", name: "Blue").insert(db)
            try Team(id: "green", name: "Green").insert(db)
            try Captain(id: "alice", name: "Alice", teamId: "red").insert(db)
            try Captain(id: "bob", name: "Bob", teamId: "blue").insert(db)
            try Captain(id: "carol", name: "Carol", teamId: "green").insert(db)
            // The UPDATE trigger changes one player row per captain (the
            // previous captain of the team is the captain itself).
            #expect(try Captain.filter(Column("teamId") == "red").updateAll(db, Column("name").set(to: "Alicia")) == 1)
            #expect(try Captain.updateAll(db, Column("name").set(to: "Captain")) == 3)
            #expect(try Captain.filter(Column("id") == "nobody").updateAll(db, Column("name").set(to: "X")) == 0)
            #expect(try Captain.deleteOne(db, id: "alice"))
            #expect(try !Captain.deleteOne(db, id: "alice"))
            #expect(try Captain.deleteAll(db, ids: ["bob", "nobody"]) == 1)
            #expect(try Captain.deleteAll(db) == 1)
            #expect(try Captain.deleteAll(db) == 0)
        }
    }

    @Test func viewWithoutSchemaSourceHasNoPrimaryKey() throws {
        let dbQueue = try DatabaseQueue()
        try migrator().migrate(dbQueue)
        try dbQueue.write { db in
            try Team(id: "red", name: "Red").insert(db)
            try Captain(id: "alice", name: "Alice", teamId: "red").insert(db)
            let alice = Captain(id: "alice", name: "Alicia", teamId: "red")
            #expect(throws: DatabaseError.self) { try alice.update(db) }
        }
    }
}
