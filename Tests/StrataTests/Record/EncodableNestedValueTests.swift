import Foundation
import Strata
import StrataTestSupport
import Testing

// Encodable records whose values are not plain database values: a record
// that delegates its encoding to a model, properties that encode a single
// value, keyed or unkeyed properties stored as JSON, and nested containers
// that can not be stored.

private let userInfoKey = CodingUserInfoKey(rawValue: "test")!

private struct PlayerModel: Codable {
    var id: Int64
    var name: String
}

/// A record that encodes as its model: the model's columns are its own.
private struct PlayerRecord: Encodable, PersistableRecord {
    static let databaseTableName = "player"
    var model: PlayerModel

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(model)
    }
}

/// A property that encodes a single value, and checks its encoder.
private struct Score: Codable {
    var value: Int

    func encode(to encoder: any Encoder) throws {
        guard encoder.codingPath.map(\.stringValue) == ["score"] else {
            throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: "path"))
        }
        let bonus = encoder.userInfo[userInfoKey] as? Int ?? 0
        var container = encoder.singleValueContainer()
        try container.encode(value + bonus)
    }

    init(value: Int) { self.value = value }
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Int.self) }
}

/// A keyed value whose encoding reads the user info.
private struct Info: Codable {
    var tag: String

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tag + (encoder.userInfo[userInfoKey].map { "\($0)" } ?? ""), forKey: .tag)
    }
}

private struct Player: Encodable, PersistableRecord {
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [userInfoKey: 1] }
    var id: Int64
    var score: Score
    var info: Info
    var tags: [String]
}

/// A record that opens a nested container for one of its columns.
private struct NestedPlayer: Encodable, PersistableRecord {
    static let databaseTableName = "player"
    var id: Int64

    enum CodingKeys: String, CodingKey { case id, info }
    enum InfoKeys: String, CodingKey { case tag }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        var nested = container.nestedContainer(keyedBy: InfoKeys.self, forKey: .info)
        try nested.encode("x", forKey: .tag)
    }
}

private struct DecodedPlayer: Decodable, FetchableRecord {
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [userInfoKey: "decoded"] }
    var info: DecodedInfo

    struct DecodedInfo: Decodable {
        var seen: String?
        init(from decoder: any Decoder) throws {
            seen = decoder.userInfo[userInfoKey] as? String
        }
    }
}

struct EncodableNestedValueTests {
    @Test func recordDelegatingToASingleValueStoresTheModelColumns() throws {
        try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try PlayerRecord(model: PlayerModel(id: 1, name: "Arthur")).insert(db)
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM player") == ["id": 1, "name": "Arthur"])
        }
    }

    @Test func singleValuePropertiesAreStoredAsTheirValue() throws {
        try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, score INTEGER, info TEXT, tags TEXT)")
            try Player(id: 1, score: Score(value: 10), info: Info(tag: "a"), tags: ["x", "y"]).insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player"))
            #expect(row["score"] as DatabaseValue == 11.databaseValue)  // with the user info bonus
            #expect(row["info"] as String == #"{"tag":"a1"}"#)  // the JSON encoder has the user info
            #expect(row["tags"] as String == #"["x","y"]"#)
        }
    }

    @Test func jsonCodersCarryTheRecordUserInfo() throws {
        #expect(Player.databaseJSONEncoder(for: "info").userInfo[userInfoKey] as? Int == 1)
        #expect(DecodedPlayer.databaseJSONDecoder(for: "info").userInfo[userInfoKey] as? String == "decoded")
        let dbQueue = try DatabaseQueue()
        let player = try dbQueue.read { db in
            try DecodedPlayer.fetchOne(db, sql: #"SELECT '{}' AS info"#)
        }
        #expect(player?.info.seen == "decoded")
    }

    @Test func nestedContainersThrowAnEncodingErrorNamingTheColumn() throws {
        try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, info TEXT)")
            #expect {
                try NestedPlayer(id: 1).insert(db)
            } throws: { error in
                guard case EncodingError.invalidValue(_, let context) = error else { return false }
                return context.debugDescription.contains("column info")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
        }
    }
}
