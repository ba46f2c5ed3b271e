import Foundation
import Strata
import StrataTestSupport
import Testing

private class Player: Record {
    var id: Int64?
    var name: String
    var score: Int

    init(id: Int64? = nil, name: String, score: Int) {
        (self.id, self.name, self.score) = (id, name, score)
        super.init()
    }

    override class var databaseTableName: String { "player" }

    enum Columns: String, ColumnExpression {
        case id, name, score
    }

    required init(row: Row) throws {
        id = row[Columns.id]
        name = row[Columns.name]
        score = row[Columns.score]
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        container[Columns.name] = name
        container[Columns.score] = score
    }

    override func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        id = inserted.rowID
    }
}

/// A subclass that customizes insertion with a callback.
private final class UUIDPlayer: Player {
    var uuid: UUID?

    override func willInsert(_ db: Database) throws {
        try super.willInsert(db)
        if uuid == nil {
            uuid = UUID()
        }
    }

    override func encode(to container: inout PersistenceContainer) throws {
        try super.encode(to: &container)
        container["uuid"] = uuid
    }
}

/// The kit's player table, with the `uuid` column of `UUIDPlayer`.
private func database() throws -> DatabaseQueue {
    let dbQueue = try makePlayerDatabase()
    try dbQueue.write { db in
        try db.alter(table: "player") { t in t.add(column: "uuid", .blob) }
    }
    return dbQueue
}

struct RecordClassTests {
    @Test func persistenceMethods() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            let player = Player(name: "Arthur", score: 100)
            try player.insert(db)
            #expect(player.id == 1)
            player.score = 200
            try player.update(db)
            try player.save(db)
            #expect(try player.exists(db))
            let fetched = try #require(try Player.fetchOne(db, sql: "SELECT * FROM player"))
            #expect(fetched.score == 200)
            #expect(try player.delete(db))
            #expect(throws: RecordError.self) { try player.update(db) }
        }
    }

    @Test func hasDatabaseChanges() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            let player = Player(name: "Barbara", score: 750)
            #expect(player.hasDatabaseChanges)
            #expect(try player.databaseChanges.count == 3)
            #expect(try player.databaseChanges["score"] == .some(nil))

            try player.insert(db)
            #expect(!player.hasDatabaseChanges)

            player.name = "Barbara"
            #expect(!player.hasDatabaseChanges)

            player.score = 1000
            #expect(player.hasDatabaseChanges)
            #expect(try player.databaseChanges == ["score": 750.databaseValue])

            try player.save(db)
            #expect(!player.hasDatabaseChanges)
        }
    }

    @Test func fetchedRecordsHaveNoChanges() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            try Player(name: "Arthur", score: 100).insert(db)
            let player = try #require(try Player.fetchOne(db, sql: "SELECT * FROM player"))
            #expect(!player.hasDatabaseChanges)
            player.score = 100
            #expect(!player.hasDatabaseChanges)
        }
    }

    @Test func recordsBuiltFromRowLiteralsHaveAllColumnsChanged() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            let literal = try Player(row: ["id": 1, "name": "Arthur", "score": 100])
            #expect(literal.hasDatabaseChanges)
            #expect(try literal.databaseChanges == ["id": nil, "name": nil, "score": nil])
            try literal.insert(db)
            #expect(!literal.hasDatabaseChanges)

            // Rows fetched from the database, and their copies, reset the tracking.
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player"))
            #expect(try !Player(row: row).hasDatabaseChanges)
            #expect(try !Player(row: row.copy()).hasDatabaseChanges)
            // A cursor row is valid while its cursor lives (a dropped cursor resets its statement).
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM player")
            try withExtendedLifetime(cursor) {
                let cursorRow = try #require(try cursor.next())
                #expect(try !Player(row: cursorRow).hasDatabaseChanges)
            }
            #expect(try !Player.fetchAll(db)[0].hasDatabaseChanges)
            // A copy of a literal row is still a literal.
            #expect(try Player(row: Row(["id": 1, "name": "Arthur", "score": 100]).copy()).hasDatabaseChanges)
        }
    }

    @Test func updateChanges() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            let player = Player(name: "Arthur", score: 100)
            try player.insert(db)
            var sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { () throws in
                #expect(try !player.updateChanges(db))
            }
            #expect(sql.isEmpty)
            player.score = 1000
            sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { () throws in
                #expect(try player.updateChanges(db))
            }
            #expect(sql == [#"UPDATE "player" SET "score"=1000 WHERE "id"=1"#])
            #expect(!player.hasDatabaseChanges)
            // Partial updates only forget the changes of the updated columns.
            player.name = "Art"
            player.score = 0
            try player.update(db, columns: ["score"])
            #expect(try player.databaseChanges == ["name": "Arthur".databaseValue])
        }
    }

    @Test func deletedRecordsHaveChanges() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            let player = Player(name: "Arthur", score: 100)
            try player.insert(db)
            try player.delete(db)
            #expect(player.hasDatabaseChanges)
        }
    }

    @Test func copy() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            let player = Player(name: "Arthur", score: 100)
            try player.insert(db)
            player.score = 1
            let copy = player.copy()
            #expect(copy !== player)
            #expect(copy.id == 1 && copy.name == "Arthur" && copy.score == 1)
            #expect(try copy.databaseChanges == ["score": 100.databaseValue])
        }
    }

    @Test func subclassCallbacks() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            let player = UUIDPlayer(name: "Arthur", score: 100)
            try player.insert(db)
            #expect(player.uuid != nil)
            #expect(player.id == 1)
            #expect(try UUID.fetchOne(db, sql: "SELECT uuid FROM player") == player.uuid)
            #expect(UUIDPlayer.databaseTableName == "player")
        }
    }

    @Test func defaultTableName() {
        final class PostalAddress: Record {}
        #expect(PostalAddress.databaseTableName == "postalAddress")
        #expect(PostalAddress.persistenceConflictPolicy.conflictResolutionForInsert == .abort)
    }
}
