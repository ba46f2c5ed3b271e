import Foundation
import Strata
import StrataTestSupport
import Testing

/// The record example of the README, verbatim.
private struct Player: Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
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

@Suite("README record example")
struct GRDBReadmeRecordTests {
    @Test func recordExample() throws {
        // The kit's player table, with Arthur (500).
        let dbQueue = try makePlayerDatabase(players: [StrataTestSupport.Player(name: "Arthur", score: 500)])

        try dbQueue.write { db in
            var player = Player(id: nil, name: "Barbara", score: 1000)
            try player.insert(db)  // INSERT INTO "player" ...
            #expect(player.id == 2)
            player.score += 10
            try player.update(db)  // UPDATE "player" SET ... WHERE "id" = ?
        }
        let best = try dbQueue.read { db in
            try Player.order { $0.score.desc }.fetchOne(db)
        }
        #expect(best?.name == "Barbara")
        #expect(best?.score == 1010)
        #expect(best?.id == 2)
    }
}
