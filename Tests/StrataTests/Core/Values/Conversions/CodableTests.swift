import Foundation
import Strata
import StrataTestSupport
import Testing

private struct Color: Codable, Equatable, DatabaseValueConvertible {
    var red: Double
    var green: Double
    var blue: Double
}

private struct Attachment: Codable, Equatable, DatabaseValueConvertible {
    var payload: Data
    var date: Date
}

private struct Tags: Codable, Equatable, DatabaseValueConvertible {
    var values: [String]

    init(_ values: [String]) { self.values = values }

    init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([String].self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }
}

private struct SnakeCase: Codable, Equatable, DatabaseValueConvertible {
    var firstName: String
    var birthDate: Date

    static func databaseJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    static func databaseJSONDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}

struct CodableTests {
    @Test func storesJSONTextWithSortedKeys() throws {
        let color = Color(red: 1, green: 0.5, blue: 0)
        #expect(color.databaseValue == #"{"blue":0,"green":0.5,"red":1}"#.databaseValue)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [color]) == "text")
            #expect(try Double.fetchOne(db, sql: "SELECT json_extract(?, '$.green')", arguments: [color]) == 0.5)
        }
    }

    @Test func roundTrip() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (color TEXT, tags TEXT)")
            let color = Color(red: 0.25, green: 0.5, blue: 0.75)
            let tags = Tags(["a", "b"])
            try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [color, tags])
            #expect(try String.fetchOne(db, sql: "SELECT tags FROM t") == #"["a","b"]"#)
            let row = try Row.fetchOne(db, sql: "SELECT * FROM t")!
            #expect(row["color"] as Color == color)
            #expect(row["tags"] as Tags == tags)
            #expect(try Color.fetchOne(db, sql: "SELECT color FROM t") == color)
            #expect(try Tags.fetchAll(db, sql: "SELECT tags FROM t") == [tags])
        }
    }

    @Test func defaultStrategies() throws {
        let attachment = Attachment(payload: Data([1, 2, 3]), date: Date(timeIntervalSince1970: 1.5))
        #expect(attachment.databaseValue == #"{"date":1500,"payload":"AQID"}"#.databaseValue)
        #expect(Attachment.fromDatabaseValue(#"{"date":1500,"payload":"AQID"}"#.databaseValue) == attachment)

        let encoder = Color.databaseJSONEncoder()
        #expect(encoder.outputFormatting.contains(.sortedKeys))
        #expect(throws: EncodingError.self) { try encoder.encode(Color(red: .nan, green: 0, blue: 0)) }
        #expect(throws: EncodingError.self) { try encoder.encode(Color(red: .infinity, green: 0, blue: 0)) }
    }

    @Test func customCoders() throws {
        let value = SnakeCase(firstName: "Arthur", birthDate: Date(timeIntervalSince1970: 10))
        #expect(value.databaseValue == #"{"birth_date":10,"first_name":"Arthur"}"#.databaseValue)
        #expect(SnakeCase.fromDatabaseValue(#"{"birth_date":10,"first_name":"Arthur"}"#.databaseValue) == value)
        #expect(SnakeCase.fromDatabaseValue(#"{"birth_date":10000,"first_name":"Arthur"}"#.databaseValue) != value)
        #expect(Color.fromDatabaseValue(#"{"blue":0,"green":0.5,"red":1}"#.databaseValue) != nil)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try SnakeCase.fetchOne(db, sql: "SELECT ?", arguments: [value]) == value)
        }
    }

    @Test func decodesJSONBlobs() {
        let json = Data(#"{"blue":0,"green":0.5,"red":1}"#.utf8)
        #expect(Color.fromDatabaseValue(json.databaseValue) == Color(red: 1, green: 0.5, blue: 0))
    }

    @Test func invalidValuesDoNotDecode() throws {
        #expect(Color.fromDatabaseValue(.null) == nil)
        #expect(Color.fromDatabaseValue(1.databaseValue) == nil)
        #expect(Color.fromDatabaseValue("".databaseValue) == nil)
        #expect(Color.fromDatabaseValue("not json".databaseValue) == nil)
        #expect(Color.fromDatabaseValue(#"{"red":1}"#.databaseValue) == nil)
        #expect(Color.fromDatabaseValue(#"{"red":1,"green":2,"blue":NaN}"#.databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(throws: RowDecodingError.self) { try Color.fetchOne(db, sql: "SELECT '[]'") }
            #expect(try Color?.fetchOne(db, sql: "SELECT NULL") == .some(nil))
        }
    }

    #if os(Linux) || os(macOS) || os(Windows)
        @Test func encodingNonConformingFloatsIsAFatalError() async {
            await #expect(processExitsWith: .failure) {
                _ = Color(red: .nan, green: 0, blue: 0).databaseValue
            }
        }
    #endif
}
