import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// From its second insert on, an `Encodable` record's encoder binds its
/// values straight to the INSERT of the previous record's columns, instead
/// of filling a container (MutablePersistableRecord+EncodedInsert.swift).
/// Each test inserts several records, so that most take that path, and
/// checks what the container path gives: rows, SQL, containers, errors.
@Suite struct EncodableBoundInsertTests {
    struct Player: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
        static let databaseTableName = "player"
        var id: Int64?
        var name: String
        var score: Int?

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    static let playerSchema = "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score INTEGER)"

    /// The persistence facts of a record type on the connection.
    static func info(_ db: Database, _ type: any MutablePersistableRecord.Type) -> RecordPersistenceInfo {
        db.recordPersistenceInfo(type)
    }

    @Test("Inserts after the first bind their values: same rows, same SQL, ids from didInsert")
    func boundInsertsWriteTheRows() throws {
        try inMemoryWrite(Self.playerSchema) { db in
            var players = (1...4).map { Player(id: nil, name: "P\($0)", score: $0 == 3 ? nil : $0 * 10) }
            let sql = try recordSQL(db, .changes) {
                for index in players.indices { try players[index].insert(db) }
            }
            #expect(Set(sql) == [#"INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)"#])
            #expect(sql.count == 4)
            #expect(players.map(\.id) == [1, 2, 3, 4])
            #expect(try Player.fetchAll(db, sql: "SELECT * FROM player ORDER BY id") == players)
            let binding = Self.info(db, Player.self).encodedColumnBinding
            #expect(binding.boundCount == 3 && !binding.isAbandoned)
            #expect(Self.info(db, Player.self).bindsEncodedColumns)
        }
    }

    /// Reads the container of its insertion, and logs what it saw.
    struct Logged: Encodable, MutablePersistableRecord {
        static let databaseTableName = "player"
        var id: Int64?
        var name: String
        var score: Int?
        var seen: [String] = []

        enum CodingKeys: String, CodingKey { case id, name, score }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            let values = inserted.persistenceContainer.map { "\($0.0)=\($0.1)" }
            seen.append("\(inserted.rowID) \(inserted.rowIDColumn ?? "-") \(values)")
        }
    }

    @Test("The container of a bound insert holds the record's values and the rowid, as the container path's")
    func containerOfBoundInsert() throws {
        try inMemoryWrite(Self.playerSchema) { db in
            // The first insert tells the columns, the second the keys that
            // write them: the third binds.
            var records = [
                Logged(id: nil, name: "A", score: 1), Logged(id: nil, name: "B", score: nil),
                Logged(id: nil, name: "C", score: 3),
            ]
            for index in records.indices { try records[index].insert(db) }
            #expect(Self.info(db, Logged.self).encodedColumnBinding.boundCount == 3)
            #expect(
                records.map(\.seen) == [
                    [#"1 id ["id=1", "name=\"A\"", "score=1"]"#],
                    [#"2 id ["id=2", "name=\"B\"", "score=NULL"]"#],
                    [#"3 id ["id=3", "name=\"C\"", "score=3"]"#],
                ])
        }
    }

    /// Counts its encodings, and reads its container twice in didInsert.
    struct Counted: Encodable, MutablePersistableRecord {
        final class Counter { var encodings = 0 }
        static let databaseTableName = "player"
        var id: Int64?
        var name: String
        let counter: Counter
        var names: [String] = []

        enum CodingKeys: String, CodingKey { case id, name }

        func encode(to encoder: any Encoder) throws {
            counter.encodings += 1
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            for _ in 0..<2 {
                names.append(inserted.persistenceContainer["name"].map { "\($0)" } ?? "-")
            }
        }
    }

    @Test("A callback that reads the container of a bound insert twice encodes the record once more")
    func deferredContainerIsEncodedOnce() throws {
        try inMemoryWrite(Self.playerSchema) { db in
            let counter = Counted.Counter()
            var records = (1...3).map { Counted(id: nil, name: "N\($0)", counter: counter) }
            for index in records.indices { try records[index].insert(db) }
            #expect(Self.info(db, Counted.self).encodedColumnBinding.boundCount == 2)
            // 1: the container; 2: bound, given up (the keys were not known
            // yet), then the container; 3: bound, then once for didInsert.
            #expect(counter.encodings == 5)
            #expect(records.map(\.names) == [["\"N1\"", "\"N1\""], ["\"N2\"", "\"N2\""], ["\"N3\"", "\"N3\""]])
        }
    }

    @Test("A constraint violation in a bound insert throws the container path's error, with its arguments")
    func errorsOfBoundInserts() throws {
        var configuration = Configuration()
        configuration.publicStatementArguments = true
        let dbQueue = try inMemoryDatabase(Self.playerSchema, configuration: configuration)
        try dbQueue.write { db in
            var first = Player(id: nil, name: "A", score: 1)
            var second = Player(id: nil, name: "B", score: 2)
            try first.insert(db)
            try second.insert(db)
            var duplicate = Player(id: nil, name: "A", score: 3)
            let error = #expect(throws: DatabaseError.self) { try duplicate.insert(db) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.sql == #"INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)"#)
            #expect(error?.arguments == [nil, "A", 3])
            // The statement still serves the next insert.
            var third = Player(id: nil, name: "C", score: nil)
            try third.insert(db)
            #expect(try Player.fetchCount(db) == 3)
        }
    }

    /// Fills its container itself, with the encoding of another record
    /// type for some columns.
    struct HandWritten: MutablePersistableRecord {
        static let databaseTableName = "player"
        var player: Player

        func encode(to container: inout PersistenceContainer) throws {
            try player.encode(to: &container)
            container["score"] = (player.score ?? 0) + 1
        }
    }

    @Test("A record whose own encode(to:) fills the container, even with another type's encoding, never binds")
    func handWrittenEncodingNeverBinds() throws {
        try inMemoryWrite(Self.playerSchema) { db in
            for index in 1...4 {
                var record = HandWritten(player: Player(id: nil, name: "P\(index)", score: index))
                try record.insert(db)
            }
            let rows = try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id")
            #expect(rows.map { "\($0["name"] as String) \($0["score"] as Int)" } == ["P1 2", "P2 3", "P3 4", "P4 5"])
            #expect(!Self.info(db, HandWritten.self).bindsEncodedColumns)
            // The other type's encoder did not take the binding.
            #expect(!Self.info(db, HandWritten.self).encodedColumnBinding.isTaken)
        }
    }

    /// Values that the encoder converts: dates, UUIDs, data, enums, nested
    /// values stored as JSON.
    struct Converted: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "converted"
        enum Kind: String, Codable { case small, large }
        var date: Date
        var uuid: UUID
        var data: Data
        var kind: Kind
        var tags: [String]
    }

    @Test("Values that the encoder converts are bound as the container path stores them")
    func convertedValuesBind() throws {
        try inMemoryWrite("CREATE TABLE converted (date, uuid, data, kind, tags)") { db in
            let records = (0..<4).map { index in
                Converted(
                    date: Date(timeIntervalSince1970: Double(index) * 86_400.5), uuid: UUID(),
                    data: Data([UInt8(index), 255]), kind: index.isMultiple(of: 2) ? .small : .large,
                    tags: Array(repeating: "t\(index)", count: index))
            }
            for record in records { try record.insert(db) }
            #expect(Self.info(db, Converted.self).encodedColumnBinding.boundCount == 5)
            #expect(try Converted.fetchAll(db, sql: "SELECT * FROM converted ORDER BY rowid") == records)
            // The same storage as the first insert, through the container.
            let storage = try Row.fetchAll(db, sql: "SELECT typeof(date), typeof(uuid), typeof(tags) FROM converted")
            #expect(
                Set(storage.map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" }) == ["text blob text"])
        }
    }

    /// Columns named by a strategy, not by the keys.
    struct Snake: Encodable, PersistableRecord {
        static let databaseTableName = "snake"
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
        var firstName: String
        var lastName: String
    }

    @Test("Records whose keys change from one record to the next, or are not the columns, stop trying to bind")
    func unpredictableKeysStopBinding() throws {
        try inMemoryWrite("CREATE TABLE snake (first_name, last_name)") { db in
            for index in 1...4 {
                try Snake(firstName: "F\(index)", lastName: "L\(index)").insert(db)
            }
            let rows = try String.fetchAll(db, sql: "SELECT first_name || last_name FROM snake ORDER BY rowid")
            #expect(rows == ["F1L1", "F2L2", "F3L3", "F4L4"])
            #expect(!Self.info(db, Snake.self).bindsEncodedColumns)
        }
        // Optional keys skipped when nil: the columns change at each record.
        let dbQueue = try ItemTable.makeDatabase()
        try dbQueue.write { db in
            for index in 1...6 {
                let item = EncodableEncoderReuseTests.Item(a: index, b: index.isMultiple(of: 2) ? nil : "x", c: -index)
                try item.insert(db)
            }
            #expect(!Self.info(db, EncodableEncoderReuseTests.Item.self).bindsEncodedColumns)
        }
        #expect(
            try ItemTable.rows(dbQueue) == [
                "1 x -1", "2 default -2", "3 x -3", "4 default -4", "5 x -5", "6 default -6",
            ])
    }

    @Test("Conflict resolutions and save() take the bound path with their own statements")
    func conflictResolutionsAndSave() throws {
        try inMemoryWrite(Self.playerSchema) { db in
            var players = (1...3).map { (index: Int) in Player(id: nil, name: "P\(index)", score: index) }
            for index in players.indices { try players[index].save(db) }
            var replacing = Player(id: 2, name: "Q2", score: 20)
            let sql = try recordSQL(db, .changes) {
                try replacing.insert(db, onConflict: .replace)
                var other = Player(id: 3, name: "Q3", score: 30)
                try other.insert(db, onConflict: .replace)
                var fourth = Player(id: nil, name: "P4", score: 4)
                try fourth.insert(db)
            }
            #expect(
                sql == [
                    #"INSERT OR REPLACE INTO "player" ("id", "name", "score") VALUES (?,?,?)"#,
                    #"INSERT OR REPLACE INTO "player" ("id", "name", "score") VALUES (?,?,?)"#,
                    #"INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)"#,
                ])
            let rows = try Row.fetchAll(db, sql: "SELECT id, name, score FROM player ORDER BY id")
            #expect(
                rows.map { "\($0[0] as Int) \($0[1] as String) \($0[2] as Int)" } == [
                    "1 P1 1", "2 Q2 20", "3 Q3 30", "4 P4 4",
                ])
        }
    }
}
