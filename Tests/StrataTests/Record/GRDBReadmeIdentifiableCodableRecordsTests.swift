import Foundation
import Strata
import StrataTestSupport
import Testing

// The Records chapter of the v5.8 README (seed 000): the "Identifiable
// Records" and "Codable Records" sections, run as written in their GRDB 7
// form (see GRDBReadmeRecordsChapterTests.swift for the conventions).
//
// Already run elsewhere: "Declare a record... and there you go"
// (DecodableRoundTripTests.codableRecordsSample), the JSON coders and the
// date and UUID strategies of GRDB 7 (EncodableRecordTests,
// DecodableStrategyTests), and the userInfo sample
// (DecodableRecordTests.userInfo, EncodableRecordTests.encodingUserInfo).

private enum IdentifiableSample {
    // The sample needs an implementation of the record protocols: Codable.
    struct Player: Codable, Identifiable, FetchableRecord, PersistableRecord, Hashable {
        var id: Int64  // fulfills the Identifiable requirement
        var name: String
        var score: Int
        var email: String
    }

    struct Country: Codable, Identifiable, FetchableRecord, PersistableRecord {
        var isoCode: String
        var name: String
        var population: Int

        // Fulfill the Identifiable requirement
        var id: String { isoCode }
    }

    struct Citizenship: Codable, FetchableRecord, PersistableRecord {
        var citizenId: Int64
        var countryCode: String
    }

    static func database() throws -> (DatabaseQueue, SQLLog) {
        try makeLoggedDatabase { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("email", .text).notNull().unique()
            }
            try db.create(table: "country") { t in
                t.column("isoCode", .text).notNull().primaryKey()
                t.column("name", .text).notNull()
                t.column("population", .integer).notNull()
            }
            try db.create(table: "citizenship") { t in
                t.primaryKey {
                    t.column("citizenId", .integer)
                    t.column("countryCode", .text)
                }
            }
            for id in 1...4 {
                let player = Player(id: Int64(id), name: "P\(id)", score: id * 10, email: "p\(id)@example.com")
                try player.insert(db)
            }
            try Country(isoCode: "FR", name: "France", population: 68_000_000).insert(db)
            try Country(isoCode: "US", name: "United States", population: 333_000_000).insert(db)
            try Citizenship(citizenId: 1, countryCode: "FR").insert(db)
        }
    }
}

/// Expects the SQL of a request of player 1, and of players 1, 2 and 3.
private func expectRequestsOfPlayers(_ db: Database, one: some FetchRequest, three: some FetchRequest) throws {
    #expect(try requestSQL(db, one) == #"SELECT * FROM "player" WHERE "id" = ?"#)
    #expect(try requestSQL(db, three) == #"SELECT * FROM "player" WHERE "id" IN (?, ?, ?)"#)
}

/// Expects the deletion of player 1, then of players 1, 2 and 3, which
/// leaves player 4 alone.
private func expectDeletionsOfPlayers(_ db: Database, _ log: SQLLog) throws {
    #expect(
        log.statements(.user) == [
            #"DELETE FROM "player" WHERE "id" = ?"#,
            #"DELETE FROM "player" WHERE "id" IN (?, ?, ?)"#,
        ])
    #expect(try IdentifiableSample.Player.fetchAll(db).map(\.id) == [4])
}

@Suite("README Records chapter: Identifiable Records")
struct ReadmeIdentifiableRecordsTests {
    fileprivate typealias Player = IdentifiableSample.Player
    fileprivate typealias Country = IdentifiableSample.Country
    fileprivate typealias Citizenship = IdentifiableSample.Citizenship

    @Test("Identifiable unlocks type-safe record and request methods")
    func typeSafeMethods() throws {
        let (dbQueue, log) = try IdentifiableSample.database()
        try dbQueue.write { db in
            let player = try Player.fetchOne(db, id: 1)
            let players = try Player.fetchAll(db, ids: [1, 2, 3])
            let playerSet = try Player.fetchSet(db, ids: [1, 2, 3])
            #expect(player?.name == "P1")
            #expect(players.map(\.id).sorted() == [1, 2, 3])
            #expect(playerSet.count == 3)
            #expect(
                log.statements(.user) == [
                    #"SELECT * FROM "player" WHERE "id" = ?"#,
                    #"SELECT * FROM "player" WHERE "id" IN (?, ?, ?)"#,
                    #"SELECT * FROM "player" WHERE "id" IN (?, ?, ?)"#,
                ])

            let request = Player.filter(id: 1)
            let requests = Player.filter(ids: [1, 2, 3])
            try expectRequestsOfPlayers(db, one: request, three: requests)
            #expect(try request.fetchCount(db) == 1)
            #expect(try requests.fetchCount(db) == 3)
            log.clear()

            try Player.deleteOne(db, id: 1)
            try Player.deleteAll(db, ids: [1, 2, 3])
            try expectDeletionsOfPlayers(db, log)
        }
    }

    @Test("Key methods are not type-checked")
    func keyMethods() throws {
        let (dbQueue, log) = try IdentifiableSample.database()
        try dbQueue.write { db in
            // Those methods are not type-checked
            let p1 = try Player.fetchOne(db, key: 1)
            let p2 = try Player.fetchOne(db, key: ["email": "p2@example.com"])
            let countries = try Country.fetchAll(db, keys: ["FR", "US"])
            let citizenship = try Citizenship.fetchOne(db, key: ["citizenId": 1, "countryCode": "FR"])
            #expect(p1?.name == "P1")
            #expect(p2?.name == "P2")
            #expect(countries.map(\.name).sorted() == ["France", "United States"])
            #expect(citizenship?.countryCode == "FR")
            #expect(
                log.statements(.user) == [
                    #"SELECT * FROM "player" WHERE "id" = ?"#,
                    #"SELECT * FROM "player" WHERE "email" = ?"#,
                    #"SELECT * FROM "country" WHERE "isoCode" IN (?, ?)"#,
                    #"SELECT * FROM "citizenship" WHERE ("citizenId" = ?) AND ("countryCode" = ?)"#,
                ])

            let request = Player.filter(key: 1)
            let requests = Player.filter(keys: [1, 2, 3])
            try expectRequestsOfPlayers(db, one: request, three: requests)
            log.clear()

            try Player.deleteOne(db, key: 1)
            try Player.deleteAll(db, keys: [1, 2, 3])
            try expectDeletionsOfPlayers(db, log)
        }
    }

    @Test("A single-column primary key which is not called id")
    func primaryKeyNotCalledID() throws {
        let (dbQueue, log) = try makeLoggedDatabase()
        try dbQueue.write { db in
            try db.create(table: "country") { t in
                t.column("isoCode", .text).notNull().primaryKey()
                t.column("name", .text).notNull()
                t.column("population", .integer).notNull()
            }
            #expect(
                log.last
                    == #"CREATE TABLE "country" ("isoCode" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, "#
                    + #""population" INTEGER NOT NULL)"#)
            try Country(isoCode: "FR", name: "France", population: 68_000_000).insert(db)
        }
        log.clear()
        let france = try dbQueue.read { db in
            try Country.fetchOne(db, id: "FR")
        }
        #expect(france?.name == "France")
        #expect(log.statements(.user) == [#"SELECT * FROM "country" WHERE "isoCode" = ?"#])
    }
}

// MARK: - Codable Records

private enum JSONSample {
    enum AchievementColor: String, Codable {
        case bronze, silver, gold
    }

    struct Achievement: Codable, Equatable {
        var name: String
        var color: AchievementColor
    }

    struct Player: Codable, FetchableRecord, PersistableRecord {
        var name: String
        var score: Int
        var achievements: [Achievement]  // stored in a JSON column
    }
}

private enum UUIDSample {
    struct Player: Codable, Identifiable, FetchableRecord, PersistableRecord {
        // UUIDs are stored as strings
        // (GRDB 7: a per-column method; v5's `.string` is `.uppercaseString`.)
        static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
            .uppercaseString
        }
        var uuid: UUID
        var name: String
        var id: UUID { uuid }
    }
}

extension DerivableRequest where RowDecoder == UUIDSample.Player {
    fileprivate func filter(uuid: UUID) -> Self {
        filter(Column("uuid") == uuid.uuidString)
    }
}

private enum CodingKeysSample {
    struct Player: Codable {
        var id: Int64
        var name: String
        var score: Int
    }
}

extension CodingKeysSample.Player: FetchableRecord, PersistableRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }
}

@Suite("README Records chapter: Codable Records")
struct ReadmeCodableRecordsTests {
    /// The player table of the UUID samples, empty.
    private func uuidPlayerDatabase() throws -> DatabaseQueue {
        try inMemoryDatabase { db in
            try db.create(table: "player") { t in
                t.column("uuid", .text).primaryKey()
                t.column("name", .text).notNull()
            }
        }
    }

    @Test("JSON columns: complex properties are stored as JSON")
    func jsonColumns() throws {
        let (dbQueue, log) = try makeLoggedDatabase { db in
            try db.create(table: "player") { t in
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("achievements", .jsonText).notNull()
            }
        }
        try dbQueue.write { db in
            // INSERT INTO player (name, score, achievements)
            // VALUES (
            //   'Arthur',
            //   100,
            //   '[{"color":"gold","name":"Use Codable Records"}]')
            let achievement = JSONSample.Achievement(name: "Use Codable Records", color: .gold)
            let player = JSONSample.Player(name: "Arthur", score: 100, achievements: [achievement])
            try player.insert(db)
        }
        #expect(log.statements(.user) == [#"INSERT INTO "player" ("name", "score", "achievements") VALUES (?,?,?)"#])
        try dbQueue.read { db in
            // The default JSON encoder sorts keys: "color" before "name".
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player"))
            #expect(
                row == [
                    "name": "Arthur", "score": 100, "achievements": #"[{"color":"gold","name":"Use Codable Records"}]"#,
                ])
            let player = try JSONSample.Player.fetchOne(db)
            #expect(player?.achievements == [JSONSample.Achievement(name: "Use Codable Records", color: .gold)])
        }
    }

    @Test("The default JSON coders: base64 data, millisecond dates, throwing floats, sorted keys")
    func defaultJSONCoders() throws {
        let encoder = JSONSample.Player.databaseJSONEncoder(for: "achievements")
        #expect(encoder.outputFormatting.contains(.sortedKeys))
        if case .base64 = encoder.dataEncodingStrategy {} else { Issue.record("Expected .base64") }
        if case .millisecondsSince1970 = encoder.dateEncodingStrategy {} else { Issue.record("Expected ms") }
        if case .throw = encoder.nonConformingFloatEncodingStrategy {} else { Issue.record("Expected .throw") }
        let decoder = JSONSample.Player.databaseJSONDecoder(for: "achievements")
        if case .base64 = decoder.dataDecodingStrategy {} else { Issue.record("Expected .base64") }
        if case .millisecondsSince1970 = decoder.dateDecodingStrategy {} else { Issue.record("Expected ms") }
    }

    @Test("UUID strategies do not apply to requests")
    func uuidsInRequests() throws {
        let dbQueue = try uuidPlayerDatabase()
        try dbQueue.write { db in
            let uuid = UUID()
            let player = UUIDSample.Player(uuid: uuid, name: "Arthur")

            // Inserts a player in the database, with a string uuid
            try player.insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT uuid FROM player") == uuid.uuidString)

            // BAD: performs a blob-based query, fails to find the inserted player
            #expect(try UUIDSample.Player.filter(Column("uuid") == uuid).fetchOne(db) == nil)
            #expect(try UUIDSample.Player.filter(id: uuid).fetchOne(db) == nil)

            // GOOD: performs a string-based query, finds the inserted player
            #expect(try UUIDSample.Player.filter(Column("uuid") == uuid.uuidString).fetchOne(db)?.name == "Arthur")
            // `filter(id:)` takes a UUID: the string goes through `filter(key:)`.
            #expect(try UUIDSample.Player.filter(key: uuid.uuidString).fetchOne(db)?.name == "Arthur")
        }
    }

    @Test("A request method filters by uuid string")
    func uuidRequestMethod() throws {
        let dbQueue = try uuidPlayerDatabase()
        try dbQueue.write { db in
            let uuid = UUID()
            let player = UUIDSample.Player(uuid: uuid, name: "Arthur")

            // Inserts a player in the database, with a string uuid
            try player.insert(db)

            // GOOD: performs a string-based query, finds the inserted player
            let fetched = try UUIDSample.Player.all().filter(uuid: uuid).fetchOne(db)
            #expect(fetched?.uuid == uuid)
            #expect(try UUIDSample.Player.all().filter(uuid: UUID()).fetchOne(db) == nil)
        }
    }

    @Test("Columns derived from coding keys")
    func columnsFromCodingKeys() throws {
        typealias Player = CodingKeysSample.Player
        // The kit's players 1 (Arthur, 100) and 2 (Barbara, 1000).
        let dbQueue = try makePlayerDatabase(players: Array(StrataTestSupport.Player.samples.prefix(2)))
        try dbQueue.write { db throws in
            let request = Player.filter(Player.Columns.score > 500).order(Player.Columns.name)
            #expect(try requestSQL(db, request) == #"SELECT * FROM "player" WHERE "score" > ? ORDER BY "name""#)
            #expect(try request.fetchAll(db).map(\.id) == [2])
            #expect(
                [Player.Columns.id, Player.Columns.name, Player.Columns.score].map(\.name) == ["id", "name", "score"])
        }
    }
}
