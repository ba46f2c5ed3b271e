import Foundation
import Strata
import StrataTestSupport
import Testing

private typealias Team = ViewRecordsFixture.Team
private typealias Captain = ViewRecordsFixture.Captain

private func database() throws -> DatabaseQueue {
    try ViewRecordsFixture.databaseWithTriggers()
}

private func players(_ db: Database) throws -> [String] {
    try Row.fetchAll(db, sql: "SELECT id, name, teamId, isCaptain FROM player ORDER BY id").map { row in
        "\(row["id"] as String)|\(row["name"] as String)|\(row["teamId"] as String? ?? "")|\(row["isCaptain"] as Int)"
    }
}

/// Inserts the teams, then their captains (id, team id). Names are the
/// capitalized ids.
private func insert(_ db: Database, teams: [String], captains: [(id: String, teamId: String)]) throws {
    for id in teams {
        try Team(id: id, name: id.capitalized).insert(db)
    }
    for captain in captains {
        try Captain(id: captain.id, name: captain.id.capitalized, teamId: captain.teamId).insert(db)
    }
}

struct PersistableViewTests {
    @Test func updateThroughInsteadOfTrigger() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            // Alice is the Red captain, Bob the Blue one.
            try insert(db, teams: ["red", "blue"], captains: [("alice", "red"), ("bob", "blue")])
            var bob = try Captain.find(db, id: "bob")
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
            try insert(db, teams: ["red", "blue"], captains: [("alice", "red"), ("bob", "blue"), ("carol", "blue")])
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
            try insert(
                db, teams: ["red", "blue", "green"], captains: [("alice", "red"), ("bob", "blue"), ("carol", "green")])
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
        var migrator = ViewRecordsFixture.migrator()
        ViewRecordsFixture.registerTriggers(&migrator)
        try migrator.migrate(dbQueue)
        try dbQueue.write { db in
            try Team(id: "red", name: "Red").insert(db)
            try Captain(id: "alice", name: "Alice", teamId: "red").insert(db)
            let alice = Captain(id: "alice", name: "Alicia", teamId: "red")
            #expect(throws: DatabaseError.self) { try alice.update(db) }
        }
    }
}
