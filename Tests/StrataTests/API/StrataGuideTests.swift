import Strata
import Testing

/// The sample of the documentation's front page,
/// `Sources/Strata/Strata.docc/Strata.md` (`ArticleSampleTests` checks that
/// it is here). It opens a file at a path of the reader's, so it is
/// compiled, not run; `GettingStartedGuideTests` runs the same calls on an
/// in-memory database.
struct StrataGuideTests {
    func frontPage() throws -> String? {
        struct Player: Codable, FetchableRecord, PersistableRecord {
            var id: Int64
            var name: String
            var score: Int
        }

        let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite")
        try dbQueue.write { db in
            try db.create(table: "player", ifNotExists: true) { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            try Player(id: 1, name: "Arthur", score: 100).insert(db)
        }
        let best = try dbQueue.read { db in
            try Player.order(Column("score").desc).fetchOne(db)
        }
        return best?.name
    }
}
