import Strata
import StrataTestSupport
import Testing

/// Runs the Swift samples of `README.md` but its demo (which is
/// `Sources/strata-demo/main.swift`, checked by `ReadmeDemoTests`):
/// `ArticleSampleTests` checks that each one is here. (GRDB's README has
/// its own tests, the `GRDBReadme*Tests` files.)
struct ReadmeGuideTests {
    @Test func aRecordSavedAndFetched() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }

        struct Player: Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
            var id: Int64?
            var name: String
            var score: Int

            enum Columns {
                static let name = Column(CodingKeys.name)
                static let score = Column(CodingKeys.score)
            }

            mutating func didInsert(_ inserted: InsertionSuccess) {
                id = inserted.rowID
            }
        }

        try dbQueue.write { db in
            var player = Player(id: nil, name: "Barbara", score: 1000)
            try player.insert(db)  // INSERT INTO "player" ...
            player.score += 10
            try player.update(db)  // UPDATE "player" SET ... WHERE "id" = ?
        }
        let best = try dbQueue.read { db in
            try Player.order { $0.score.desc }.fetchOne(db)
        }

        #expect(best?.id == 1)
        #expect(best?.score == 1010)
    }
}
