import Foundation
import Strata

/// The player of the tests: a Codable record on the `player` table, whose id
/// the database assigns on insertion. Use it instead of declaring a
/// `struct Player` and a `CREATE TABLE player` in a test file; declare your
/// own only when the test is about a different shape (and then give the type
/// a name that says how it differs).
///
/// ```swift
/// let dbQueue = try makePlayerDatabase()
/// try dbQueue.write { db in
///     var player = Player(name: "Arthur", score: 100)
///     try player.insert(db)
/// }
/// ```
package struct Player: Codable, Hashable, Sendable, Identifiable, FetchableRecord, MutablePersistableRecord {
    package var id: Int64?
    package var name: String
    package var score: Int

    package init(id: Int64? = nil, name: String, score: Int) {
        self.id = id
        self.name = name
        self.score = score
    }

    /// The columns of the `player` table.
    package enum Columns {
        package static let id = Column(CodingKeys.id)
        package static let name = Column(CodingKeys.name)
        package static let score = Column(CodingKeys.score)
    }

    package mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Player {
    /// The SQL of the `player` table.
    package static let createTableSQL = """
        CREATE TABLE player (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, score INTEGER NOT NULL)
        """

    /// Creates the `player` table.
    package static func createTable(_ db: Database) throws {
        try db.execute(sql: createTableSQL)
    }

    /// Three players: Arthur (100), Barbara (1000), Craig (500), with ids 1,
    /// 2 and 3 once inserted in this order in an empty table.
    package static let samples = [
        Player(name: "Arthur", score: 100),
        Player(name: "Barbara", score: 1000),
        Player(name: "Craig", score: 500),
    ]

    /// Inserts `players` in order, and returns them with their ids.
    @discardableResult
    package static func insert(_ players: [Player], _ db: Database) throws -> [Player] {
        try players.map { player in
            var player = player
            try player.insert(db)
            return player
        }
    }
}

/// An in-memory database with the `player` table and `players` in it (none
/// by default; ``Player/samples`` for three).
package func makePlayerDatabase(
    configuration: Configuration = Configuration(), players: [Player] = []
) throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue(configuration: configuration)
    try dbQueue.write { db in
        try Player.createTable(db)
        try Player.insert(players, db)
    }
    return dbQueue
}

extension WriterKind {
    /// Opens a writer of this kind on a file of `directory`, with the
    /// `player` table and `players` in it.
    package func openPlayerDatabase(
        _ directory: TemporaryDirectory, configuration: Configuration = Configuration(), players: [Player] = []
    ) throws -> any DatabaseWriter {
        let writer = try open(directory, configuration: configuration)
        try writer.write { db in
            try Player.createTable(db)
            try Player.insert(players, db)
        }
        return writer
    }
}
