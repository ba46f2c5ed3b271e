import Foundation
import Strata
import StrataTestSupport
import Testing

/// Runs the samples of `Sources/Strata/Strata.docc/GettingStarted.md`, in
/// the article's order: each ```swift block is a piece of this file
/// (`ArticleSampleTests` checks it). The first one, the package manifest,
/// is not Swift a test can hold.
struct GettingStartedGuideTests {
    /// The article's opening lines open a file at a path of the reader's:
    /// compiled here, not run.
    func openingADatabase() throws {
        let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite")
        let memory = try DatabaseQueue()
        _ = (dbQueue, memory)
    }

    /// The synchronous samples, in order, and the observation's loop, in a
    /// task that runs until it is cancelled.
    func synchronousSamples() throws -> (DatabaseQueue, Task<Void, any Error>) {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (
                      id INTEGER PRIMARY KEY AUTOINCREMENT,
                      name TEXT NOT NULL,
                      score INTEGER NOT NULL)
                    """)
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 100])
        }

        let names = try dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY score DESC")
        }
        #expect(names == ["Arthur"])

        struct Player: Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
            var id: Int64?
            var name: String
            var score: Int

            // Keeps the id that SQLite gave to the inserted row.
            mutating func didInsert(_ inserted: InsertionSuccess) {
                id = inserted.rowID
            }
        }

        try dbQueue.write { db in
            var player = Player(id: nil, name: "Barbara", score: 1000)
            try player.insert(db)
            player.score += 10
            try player.update(db)
        }

        let best = try dbQueue.read { db in
            // SELECT * FROM "player" WHERE "score" > ? ORDER BY "score" DESC LIMIT 10 (argument: 500)
            try Player.filter(Column("score") > 500).order(Column("score").desc).limit(10).fetchAll(db)
        }
        #expect(best.map(\.name) == ["Barbara"])
        #expect(best.map(\.score) == [1010])

        // The observation's loop runs until its task is cancelled.
        let printing = Task {
            let observation = ValueObservation.tracking { db in try Player.fetchCount(db) }
            for try await count in observation.values(in: dbQueue) {
                print("\(count) players")
            }
        }
        return (dbQueue, printing)
    }

    @Test func theArticleInOrder() async throws {
        let (dbQueue, printing) = try synchronousSamples()
        let count = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
        #expect(count == 2)
        printing.cancel()
        _ = await printing.result
    }

    @Test func migrations() throws {
        // A new database (the article's has its table from the first samples).
        let dbQueue = try DatabaseQueue(configuration: Configuration())
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try db.columns(in: "player").map(\.name) == ["id", "name", "score"])
        }
    }
}
