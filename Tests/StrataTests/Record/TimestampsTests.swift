import Foundation
import Strata
import StrataTestSupport
import Testing

/// The TimestampedRecord sample protocol of the RecordTimestamps article.
protocol TimestampedRecord: MutablePersistableRecord {
    var creationDate: Date? { get set }
    var modificationDate: Date? { get set }
}

extension TimestampedRecord {
    mutating func willInsert(_ db: Database) throws {
        try initializeTimestamps(db)
    }

    mutating func initializeTimestamps(_ db: Database) throws {
        if creationDate == nil {
            creationDate = try db.transactionDate
        }
        if modificationDate == nil {
            modificationDate = try db.transactionDate
        }
    }

    mutating func updateWithTimestamp(_ db: Database, modificationDate: Date? = nil) throws {
        self.modificationDate = try modificationDate ?? db.transactionDate
        try update(db)
    }

    @discardableResult
    mutating func updateChangesWithTimestamp(
        _ db: Database,
        modificationDate: Date? = nil,
        modify: (inout Self) -> Void
    ) throws -> Bool {
        // Grab the changes performed by `modify`
        let initialChanges = try databaseChanges(modify: modify)
        if initialChanges.isEmpty {
            return false
        }

        // Update modification date and grab its column name
        let dateChanges = try databaseChanges(modify: {
            $0.modificationDate = try modificationDate ?? db.transactionDate
        })

        // Update the modified columns
        let modifiedColumns = Set(initialChanges.keys).union(dateChanges.keys)
        try update(db, columns: modifiedColumns)
        return true
    }

    mutating func touch(_ db: Database, modificationDate: Date? = nil) throws {
        try updateChanges(db) {
            $0.modificationDate = try modificationDate ?? db.transactionDate
        }
    }
}

private struct Player {
    var id: Int64?
    var creationDate: Date?
    var modificationDate: Date?
    var name: String
    var score: Int
}

extension Player: Codable, TimestampedRecord, FetchableRecord {
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Player {
    mutating func saveWithTimestamp(_ db: Database) throws {
        if id == nil {
            try insert(db)
        } else {
            do {
                try updateWithTimestamp(db)
            } catch RecordError.recordNotFound {
                try insert(db)
            }
        }
    }
}

/// The plain Player of the article, with its own willInsert.
private struct PlainPlayer: Encodable, MutablePersistableRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var creationDate: Date?
    var modificationDate: Date?
    var name: String
    var score: Int

    mutating func willInsert(_ db: Database) throws {
        if creationDate == nil {
            creationDate = try db.transactionDate
        }
        if modificationDate == nil {
            modificationDate = try db.transactionDate
        }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

private struct PersistedPlayer: Identifiable {
    let id: Int64
    let creationDate: Date
    var modificationDate: Date
    var name: String
    var score: Int
}

extension PersistedPlayer: Codable, FetchableRecord, PersistableRecord {
    static var databaseTableName: String { "player" }
}

/// A database of timestamped players, whose transaction clock ticks one
/// second at each transaction.
private func database() throws -> DatabaseQueue {
    let clock = LockedBox(Date(timeIntervalSince1970: 1_000_000_000))
    var config = Configuration()
    config.transactionClock = .custom { _ in
        clock.withLock { date in
            date += 1
            return date
        }
    }
    return try inMemoryDatabase(configuration: config) { db in
        try db.execute(
            sql: """
                CREATE TABLE player (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  creationDate DATETIME NOT NULL, modificationDate DATETIME NOT NULL,
                  name TEXT NOT NULL, score INTEGER NOT NULL)
                """)
    }
}

/// The two ways of the article to set the timestamps of a new record: its
/// own `willInsert`, or the `TimestampedRecord` protocol.
private enum TimestampedInsertion: String, CaseIterable, Sendable, CustomStringConvertible {
    case plainRecord, timestampedRecord

    var description: String { rawValue }

    /// Inserts Arthur (score 1000), and returns his id and timestamps.
    func insertArthur(_ db: Database) throws -> (id: Int64?, creationDate: Date?, modificationDate: Date?) {
        switch self {
        case .plainRecord:
            var player = PlainPlayer(name: "Arthur", score: 1000)
            try player.insert(db)
            return (player.id, player.creationDate, player.modificationDate)
        case .timestampedRecord:
            var player = Player(name: "Arthur", score: 1000)
            try player.insert(db)
            return (player.id, player.creationDate, player.modificationDate)
        }
    }
}

struct TimestampsTests {
    @Test(arguments: TimestampedInsertion.allCases)
    fileprivate func insertionTimestamps(_ insertion: TimestampedInsertion) throws {
        try database().write { db in
            let arthur = try insertion.insertArthur(db)
            #expect(arthur.id == 1)
            #expect(arthur.creationDate != nil)
            #expect(arthur.modificationDate == arthur.creationDate)
            #expect(arthur.creationDate == (try db.transactionDate))
        }
    }

    @Test func allPlayersOfATransactionHaveTheSameTimestamp() throws {
        let dbQueue = try database()
        let players = (0..<3).map { PlainPlayer(name: "Player \($0)", score: $0) }
        try dbQueue.write { db in
            for var player in players {
                try player.insert(db)
            }
        }
        try dbQueue.write { db in
            var player = PlainPlayer(name: "Later", score: 0)
            try player.insert(db)
        }
        let dates = try dbQueue.read { db in
            try Date.fetchAll(db, sql: "SELECT creationDate FROM player ORDER BY id")
        }
        #expect(Set(dates.prefix(3)).count == 1)
        #expect(dates[3] > dates[0])
    }

    @Test func modificationTimestamp() throws {
        let dbQueue = try database()
        var player = try dbQueue.write { db in
            try PlainPlayer(name: "Arthur", score: 1000).inserted(db)
        }
        let creationDate = player.creationDate
        try dbQueue.write { db in
            // Update all columns
            player.score += 1
            player.modificationDate = try db.transactionDate
            try player.update(db)
        }
        #expect(player.modificationDate! > creationDate!)
        try dbQueue.write { db in
            // Alternatively, update only the modified columns
            let sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) {
                try player.updateChanges(db) {
                    $0.score += 1
                    $0.modificationDate = try db.transactionDate
                }
            }
            #expect(sql.count == 1)
            #expect(sql[0].contains(#""score"=1002"#))
        }
    }

    @Test func timestampedRecordSample() throws {
        let dbQueue = try database()
        // Timestamps on insertion: see insertionTimestamps.
        try dbQueue.write { db in _ = try TimestampedInsertion.timestampedRecord.insertArthur(db) }
        var player = try dbQueue.read { db in try #require(try Player.fetchOne(db)) }
        let insertionDate = try #require(player.modificationDate)

        try dbQueue.write { db in
            player.score += 1
            try player.updateWithTimestamp(db)
        }
        let updateDate = try #require(player.modificationDate)
        #expect(updateDate > insertionDate)

        try dbQueue.write { db in
            // Not modified: no update, same modification date.
            let sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) { () throws in
                #expect(try !player.updateChangesWithTimestamp(db) { $0.score = 1001 })
            }
            #expect(sql.isEmpty)
            #expect(player.modificationDate == updateDate)
            #expect(try player.updateChangesWithTimestamp(db) { $0.score = 1000 })
            #expect(player.modificationDate! > updateDate)
        }

        let touchDate = Date(timeIntervalSince1970: 2_000_000_000)
        try dbQueue.write { db in
            let sql = try recordSQL(db, .withoutSchemaQueries, expanded: true) {
                try player.touch(db, modificationDate: touchDate)
            }
            #expect(sql == [#"UPDATE "player" SET "modificationDate"='2033-05-18 03:33:20.000' WHERE "id"=1"#])
        }
        try dbQueue.read { db in
            let fetched = try #require(try Player.fetchOne(db))
            #expect(fetched.modificationDate == touchDate)
            #expect(fetched.score == 1000)
            #expect(fetched.creationDate == insertionDate)
        }
    }

    @Test func saveWithTimestamp() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            var player = Player(name: "Arthur", score: 1000)
            try player.saveWithTimestamp(db)  // insert
            player.score = 1
            try player.saveWithTimestamp(db)  // update
            var missing = Player(id: 42, name: "Barbara", score: 0)
            try missing.saveWithTimestamp(db)  // insert after recordNotFound
            #expect(try Player.fetchCount(db) == 2)
            #expect(try Player.fetchOne(db, key: 1)?.score == 1)
        }
    }

    @Test func optionalTimestampsAndPersistedRecords() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            var player = PlainPlayer(id: nil, name: "Arthur", score: 1000)
            #expect(player.id == nil)
            #expect(player.creationDate == nil)
            let persistedPlayer = try player.insertAndFetch(db, as: PersistedPlayer.self)
            #expect(persistedPlayer.id == 1)
            #expect(persistedPlayer.creationDate == (try db.transactionDate))
            #expect(persistedPlayer.modificationDate == persistedPlayer.creationDate)
            #expect(player.id == 1)
        }
        try dbQueue.read { db in
            let persistedPlayer = try PersistedPlayer.find(db, id: 1)
            #expect(persistedPlayer.name == "Arthur")
        }
    }
}
