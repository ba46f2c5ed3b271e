import Foundation
import Strata

// `swift run strata-demo [path]` opens the database file at `path`
// (demo.sqlite by default, created the first time), creates the `player`
// table if it is missing, inserts two players, and prints how many players
// the file holds and the best five. Each run adds two more players.

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "demo.sqlite"

do {
    let dbQueue = try DatabaseQueue(path: path)

    try dbQueue.write { db in
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS player (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    score INT NOT NULL)
                """)
        try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 100])
        try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Barbara", 1000])
    }

    let (players, count) = try dbQueue.read { db in
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY score DESC, id LIMIT 5")
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        return (rows, count)
    }
    print("\(count) players in \(path). Best ones:")
    for player in players {
        let name: String = player["name"]
        let score: Int = player["score"]
        print("- \(name): \(score)")
    }
} catch {
    print("error: \(error)")
    exit(1)
}
