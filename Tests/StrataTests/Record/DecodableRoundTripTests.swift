import Foundation
import Strata
import StrataTestSupport
import Testing

// Seed samples that write with persistable records, then decode: the
// RecordRecommendedPractices article (seed 004) and the Records chapter of
// the v5.8 README (seed 000), in their GRDB 7 form. The article's records
// are the kit's `PracticeAuthor` and `PracticeBook`.

private typealias Author = PracticeAuthor
private typealias Book = PracticeBook

/// "Declare a record... and there you go".
private struct Player: Codable, FetchableRecord, PersistableRecord {
    var name: String
    var score: Int
}

private struct IdentifiedPlayer: Identifiable, Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "player"
    var id: Int64  // fulfills the Identifiable requirement
    var name: String
    var score: Int
}

private struct Country: Identifiable, Codable, FetchableRecord, PersistableRecord {
    var isoCode: String
    var name: String
    var population: Int

    // Fulfill the Identifiable requirement
    var id: String { isoCode }
}

private struct UUIDPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    // UUIDs are stored as strings
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
    var uuid: UUID
    var name: String
}

/// Write with persistable records, read with Decodable records.
struct DecodableRoundTripTests {
    @Test func recommendedPracticesSample() throws {
        let dbQueue = try inMemoryDatabase { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()  // Can't be NULL
                t.column("countryCode", .text)  // Can be NULL
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author").notNull()
                t.column("title", .text).notNull()
                t.column("kind", .text).notNull()
            }
        }
        try dbQueue.write { db in
            // Insert and set author's id
            var author = Author(name: "Herman Melville", countryCode: "US")
            try author.insert(db)

            // Insert and set book's id
            var book = Book(authorId: author.id!, title: "Moby-Dick", kind: .novel)
            try book.insert(db)
        }
        let books = try dbQueue.read { db in
            try Book.fetchAll(db)
        }
        #expect(books.map(\.title) == ["Moby-Dick"])
        #expect(books.first?.id == 1)
        #expect(books.first?.authorId == 1)
        let authors = try dbQueue.read { db in try Author.fetchAll(db) }
        #expect(authors.first?.countryCode == "US")
    }

    @Test func codableRecordsSample() throws {
        let dbQueue = try DatabaseQueue()
        let players = try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("name", .text)
                t.column("score", .integer)
            }
            try Player(name: "Arthur", score: 100).insert(db)
            return try Player.fetchAll(db)
        }
        #expect(players.map(\.name) == ["Arthur"])
        #expect(players.map(\.score) == [100])
    }

    @Test func jsonColumnsRoundTrip() throws {
        // The kit's achieving player: achievements are stored in a JSON column.
        let dbQueue = try inMemoryDatabase { db in
            try AchievingPlayer.createTable(db)
            try AchievingPlayer(name: "Arthur", score: 100, achievements: [.sample]).insert(db)
        }
        let player = try dbQueue.read { db in try AchievingPlayer.fetchOne(db) }
        #expect(player?.achievements == [PlayerAchievement(name: "Use Codable Records", color: .gold)])
    }

    @Test func identifiableRecordsSample() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            for id in 1...4 {
                try IdentifiedPlayer(id: Int64(id), name: "P\(id)", score: id * 10).insert(db)
            }
        }
        try dbQueue.write { db throws in
            #expect(try IdentifiedPlayer.fetchOne(db, id: 1)?.name == "P1")
            #expect(try IdentifiedPlayer.fetchAll(db, ids: [1, 2, 3]).count == 3)
            #expect(try IdentifiedPlayer.fetchSet(db, ids: [1, 2, 3]).count == 3)
            #expect(try IdentifiedPlayer.filter(id: 1).fetchCount(db) == 1)
            #expect(try IdentifiedPlayer.filter(ids: [1, 2, 3]).fetchCount(db) == 3)
            #expect(try IdentifiedPlayer.deleteOne(db, id: 1))
            #expect(try IdentifiedPlayer.deleteAll(db, ids: [1, 2, 3]) == 2)
            #expect(try IdentifiedPlayer.fetchAll(db).map(\.id) == [4])
            // Those methods are not type-checked
            #expect(try IdentifiedPlayer.fetchOne(db, key: 4)?.name == "P4")
            #expect(try IdentifiedPlayer.find(db, id: 4).score == 40)
        }
    }

    @Test func nonIDPrimaryKeySample() throws {
        let dbQueue = try inMemoryDatabase { db in
            try db.create(table: "country") { t in
                t.column("isoCode", .text).notNull().primaryKey()
                t.column("name", .text).notNull()
                t.column("population", .integer).notNull()
            }
            try Country(isoCode: "FR", name: "France", population: 68_000_000).insert(db)
        }
        let france = try dbQueue.read { db in
            try Country.fetchOne(db, id: "FR")
        }
        #expect(france?.name == "France")
        #expect(try dbQueue.read { db in try Country.find(db, key: "FR").population } == 68_000_000)
    }

    @Test func uuidsStoredAsStrings() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE player (uuid TEXT, name TEXT)")
            let uuid = UUID()
            try UUIDPlayer(uuid: uuid, name: "Arthur").insert(db)
            // UUID decoding needs no strategy: strings decode.
            #expect(try UUIDPlayer.fetchOne(db)?.uuid == uuid)
            // BAD: performs a blob-based query, fails to find the inserted player
            #expect(try UUIDPlayer.filter(Column("uuid") == uuid).fetchOne(db) == nil)
            // GOOD: performs a string-based query, finds the inserted player
            #expect(try UUIDPlayer.filter(Column("uuid") == uuid.uuidString).fetchOne(db)?.name == "Arthur")
        }
    }
}
