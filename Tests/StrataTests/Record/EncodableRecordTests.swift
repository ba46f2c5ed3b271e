import Foundation
import Strata
import StrataTestSupport
import Testing

struct EncodableRecordTests {
    // MARK: - Hand-written encode(to:)

    private struct Place: MutablePersistableRecord {
        var id: Int64?
        var title: String
        var latitude: Double
        var longitude: Double

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["title"] = title
            container["latitude"] = latitude
            container["longitude"] = longitude
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    private struct ColumnPlace: PersistableRecord {
        static let databaseTableName = "place"
        enum Columns: String, ColumnExpression {
            case id, title, latitude, longitude
        }
        var id: Int64
        var title: String

        func encode(to container: inout PersistenceContainer) {
            container[Columns.id] = id
            container[Columns.title] = title
            container[Columns.latitude] = 48.8534100
            container[Columns.longitude] = 2.3488000
        }
    }

    private func placeDatabase() throws -> DatabaseQueue {
        try inMemoryDatabase { db in
            try db.create(table: "place") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
                t.column("latitude", .double)
                t.column("longitude", .double)
            }
        }
    }

    @Test func handWrittenEncoding() throws {
        let dbQueue = try placeDatabase()
        try dbQueue.write { db in
            var paris = Place(id: nil, title: "Paris", latitude: 48.8534100, longitude: 2.3488000)
            try paris.insert(db)
            #expect(paris.id == 1)
            try ColumnPlace(id: 2, title: "Paris again").insert(db)
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM place ORDER BY id")
            #expect(rows[1] == ["id": 2, "title": "Paris again", "latitude": 48.8534100, "longitude": 2.3488000])
        }
    }

    @Test func persistenceContainer() throws {
        var container = PersistenceContainer.make {
            $0["id"] = 1
            $0["name"] = "Arthur"
            $0["score"] = nil as Int?
        }
        #expect(container.count == 3)
        #expect(container.map(\.0) == ["id", "name", "score"])
        #expect(container[1].0 == "name")
        #expect(container[1].1 == "Arthur".databaseValue)
        #expect(container[2].1 == .null)
        // Lookups are case-insensitive
        #expect(container["NAME"]?.databaseValue == "Arthur".databaseValue)
        #expect(container[Column("Id")]?.databaseValue == 1.databaseValue)
        #expect(container["missing"] == nil)
        container["Name"] = "Barbara"
        #expect(container.count == 3)
        #expect(container.map(\.0) == ["id", "name", "score"])
        #expect(container["name"]?.databaseValue == "Barbara".databaseValue)
        container[Column("bonus")] = 10
        #expect(container.map(\.0) == ["id", "name", "score", "bonus"])
        #expect(container.startIndex == 0 && container.endIndex == 4)
    }

    // MARK: - Encodable records

    private struct Player: Codable, PersistableRecord {
        var name: String
        var score: Int
    }

    @Test func encodableRecord() throws {
        try DatabaseQueue().write { db in
            try db.create(table: "player") { t in
                t.column("name", .text)
                t.column("score", .integer)
            }
            try Player(name: "Arthur", score: 100).insert(db)
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM player") == ["name": "Arthur", "score": 100])
            #expect(
                try Player(name: "A", score: 1).databaseDictionary == [
                    "name": "A".databaseValue, "score": 1.databaseValue,
                ])
        }
    }

    @Test func jsonColumns() throws {
        try DatabaseQueue().write { db in
            // The kit's achieving player.
            try AchievingPlayer.createTable(db)
            let player = AchievingPlayer(name: "Arthur", score: 100, achievements: [.sample])
            try player.insert(db)
            #expect(
                try String.fetchOne(db, sql: "SELECT achievements FROM player")
                    == #"[{"color":"gold","name":"Use Codable Records"}]"#)
        }
    }

    private struct Values: Encodable, EncodableRecord {
        enum Kind: String, Encodable { case novel }
        enum Level: Int, Codable, DatabaseValueConvertible { case high = 3 }
        struct Wrapper: Encodable {
            var value: String
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(value)
            }
        }
        var optional: String?
        var optionalInt: Int?
        var kind: Kind
        var level: Level
        var wrapper: Wrapper
        var dictionary: [String: Int]
        var bool: Bool
        var double: Double
        var uint8: UInt8
    }

    @Test func encodedValues() throws {
        let values = Values(
            optional: nil, optionalInt: nil, kind: .novel, level: .high, wrapper: .init(value: "wrapped"),
            dictionary: ["b": 2, "a": 1], bool: true, double: 1.5, uint8: 8)
        let dictionary = try values.databaseDictionary
        // Nil optionals are stored as NULL: the column is present.
        #expect(dictionary["optional"] == .null)
        #expect(dictionary["optionalInt"] == .null)
        #expect(dictionary["kind"] == "novel".databaseValue)
        #expect(dictionary["level"] == 3.databaseValue)
        #expect(dictionary["wrapper"] == "wrapped".databaseValue)
        #expect(dictionary["dictionary"] == #"{"a":1,"b":2}"#.databaseValue)
        #expect(dictionary["bool"] == 1.databaseValue)
        #expect(dictionary["double"] == 1.5.databaseValue)
        #expect(dictionary["uint8"] == 8.databaseValue)
    }

    // MARK: - Strategies

    private struct Dated: Encodable, EncodableRecord {
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
            switch column {
            case "reference": return .timeIntervalSinceReferenceDate
            case "interval": return .timeIntervalSince1970
            case "milliseconds": return .millisecondsSince1970
            case "seconds": return .secondsSince1970
            case "iso": return .iso8601
            case "custom": return .custom { _ in "custom" }
            case "null": return .custom { _ in nil }
            default: return .deferredToDate
            }
        }
        var deferred: Date
        var reference: Date
        var interval: Date
        var milliseconds: Date
        var seconds: Date
        var iso: Date
        var custom: Date
        var null: Date
        var optional: Date?
    }

    @Test func dateStrategies() throws {
        let date = Date(timeIntervalSince1970: 1_000_000_000.5)
        let values = try Dated(
            deferred: date, reference: date, interval: date, milliseconds: date, seconds: date, iso: date,
            custom: date, null: date, optional: date
        ).databaseDictionary
        #expect(values["deferred"] == "2001-09-09 01:46:40.500".databaseValue)
        #expect(values["reference"] == date.timeIntervalSinceReferenceDate.databaseValue)
        #expect(values["interval"] == 1_000_000_000.5.databaseValue)
        #expect(values["milliseconds"] == 1_000_000_000_500.databaseValue)
        #expect(values["seconds"] == 1_000_000_000.databaseValue)
        #expect(values["iso"] == "2001-09-09T01:46:40Z".databaseValue)
        #expect(values["custom"] == "custom".databaseValue)
        #expect(values["null"] == .null)
        #expect(values["optional"] == "2001-09-09 01:46:40.500".databaseValue)
    }

    @Test func formattedDateStrategy() throws {
        struct Formatted: Encodable, EncodableRecord {
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateFormat = "yyyy/MM/dd"
                return .formatted(formatter)
            }
            var date: Date
        }
        let values = try Formatted(date: Date(timeIntervalSince1970: 0)).databaseDictionary
        #expect(values["date"] == "1970/01/01".databaseValue)
    }

    private struct Identified: Codable, PersistableRecord {
        static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
            switch column {
            case "upper": return .uppercaseString
            case "lower": return .lowercaseString
            default: return .deferredToUUID
            }
        }
        var uuid: UUID
        var upper: UUID
        var lower: UUID
    }

    @Test func uuidStrategies() throws {
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let values = try Identified(uuid: uuid, upper: uuid, lower: uuid).databaseDictionary
        #expect(values["uuid"] == uuid.databaseValue)
        if case .blob(let data) = values["uuid"]?.storage {
            #expect(data.count == 16)
        } else {
            Issue.record("Expected a blob")
        }
        #expect(values["upper"] == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F".databaseValue)
        #expect(values["lower"] == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f".databaseValue)
    }

    @Test func uuidStrategiesDoNotApplyToRequests() throws {
        struct Player: Codable, FetchableRecord, PersistableRecord {
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
                .uppercaseString
            }
            var uuid: UUID
        }
        try DatabaseQueue().write { db in
            try db.create(table: "player") { t in t.column("uuid", .text) }
            let uuid = UUID()
            try Player(uuid: uuid).insert(db)
            // BAD: performs a blob-based query, fails to find the inserted player
            #expect(try Player.filter(Column("uuid") == uuid).fetchOne(db) == nil)
            // GOOD: performs a string-based query, finds the inserted player
            #expect(try Player.filter(Column("uuid") == uuid.uuidString).fetchOne(db)?.uuid == uuid)
        }
    }

    @Test func dataStrategies() throws {
        struct Blobs: Encodable, EncodableRecord {
            static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
                switch column {
                case "text": return .text
                case "custom": return .custom { $0.base64EncodedString() }
                default: return .deferredToData
                }
            }
            var blob: Data
            var text: Data
            var custom: Data
        }
        let data = Data("foo".utf8)
        let values = try Blobs(blob: data, text: data, custom: data).databaseDictionary
        #expect(values["blob"] == data.databaseValue)
        #expect(values["text"] == "foo".databaseValue)
        #expect(values["custom"] == "Zm9v".databaseValue)
    }

    @Test func columnStrategies() throws {
        struct Snake: Encodable, EncodableRecord {
            static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
            var playerName: String
            var myURLProperty: String
            var score: Int
        }
        #expect(
            try Set(Snake(playerName: "a", myURLProperty: "b", score: 1).databaseDictionary.keys)
                == ["player_name", "my_url_property", "score"])

        struct Custom: Encodable, EncodableRecord {
            static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.custom {
                "x_" + $0.stringValue
            }
            var name: String
        }
        #expect(try Custom(name: "a").databaseDictionary == ["x_name": "a".databaseValue])
    }

    @Test func jsonEncoderPerColumn() throws {
        struct Nested: Encodable, EncodableRecord {
            static func databaseJSONEncoder(for column: String) -> JSONEncoder {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
                return encoder
            }
            var values: [String: Int]
        }
        let value = try Nested(values: ["a": 1]).databaseDictionary["values"]
        #expect(value == "{\n  \"a\" : 1\n}".databaseValue)
    }

    @Test func nonConformingFloatsThrow() throws {
        struct Nested: Encodable, EncodableRecord {
            var values: [Double]
        }
        #expect(throws: EncodingError.self) { try Nested(values: [.nan]).databaseDictionary }
    }

    @Test func encodingUserInfo() throws {
        struct Player: EncodableRecord, Encodable {
            static let key = CodingUserInfoKey(rawValue: "encoderName")!
            static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [key: "database row"] }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: AnyKey.self)
                try container.encode(encoder.userInfo[Self.key] as? String, forKey: AnyKey(stringValue: "name"))
            }
        }
        #expect(try Player().databaseDictionary == ["name": "database row".databaseValue])
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension PersistenceContainer {
    fileprivate static func make(_ fill: @escaping (inout PersistenceContainer) -> Void) -> PersistenceContainer {
        struct Filler: EncodableRecord {
            var fill: (inout PersistenceContainer) -> Void
            func encode(to container: inout PersistenceContainer) { fill(&container) }
        }
        var result: PersistenceContainer?
        let filler = Filler { container in
            fill(&container)
            result = container
        }
        _ = try? filler.databaseDictionary
        return result!
    }
}
