import Foundation
import Strata

/// An achievement of a player: a value that records store in a JSON column
/// (the "JSON columns" sample of the Codable records).
package struct PlayerAchievement: Codable, Equatable, Sendable {
    /// The colors of an achievement.
    package enum Color: String, Codable, Sendable {
        case bronze, silver, gold
    }

    package var name: String
    package var color: Color

    package init(name: String, color: Color) {
        self.name = name
        self.color = color
    }

    /// The achievement of the samples: "Use Codable Records", gold.
    package static let sample = PlayerAchievement(name: "Use Codable Records", color: .gold)
}

/// A player with achievements in a JSON column, on a `player` table of
/// three columns (name, score, achievements), without a primary key.
package struct AchievingPlayer: Codable, FetchableRecord, PersistableRecord, Sendable {
    /// The `player` table.
    package static let databaseTableName = "player"

    package var name: String
    package var score: Int
    package var achievements: [PlayerAchievement]

    package init(name: String, score: Int, achievements: [PlayerAchievement]) {
        self.name = name
        self.score = score
        self.achievements = achievements
    }

    /// Creates the `player` table of the achieving players.
    package static func createTable(_ db: Database) throws {
        try db.create(table: "player") { t in
            t.column("name", .text)
            t.column("score", .integer)
            t.column("achievements", .text)
        }
    }
}
