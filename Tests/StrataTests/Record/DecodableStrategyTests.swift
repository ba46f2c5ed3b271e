import Foundation
import Strata
import StrataTestSupport
import Testing

private struct SnakePlayer: Decodable, FetchableRecord {
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    var playerId: Int64
    var fullName: String
    var score: Int
    var _private: Int?
    var nickName: String?
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private struct PrefixedPlayer: Decodable, FetchableRecord {
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy {
        .custom { column in AnyKey(stringValue: String(column.dropFirst(2))) }
    }
    var name: String
    var score: Int
}

private struct DatedEvent: Decodable, FetchableRecord {
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        switch column {
        case "referenceDate": return .timeIntervalSinceReferenceDate
        case "unixDate": return .timeIntervalSince1970
        case "millisecondsDate": return .millisecondsSince1970
        case "isoDate": return .iso8601
        case "formattedDate": return .formatted(formatter)
        case "customDate": return .custom { dbValue in Int64.fromDatabaseValue(dbValue).map { _ in .distantPast } }
        default: return .deferredToDate
        }
    }

    static var formatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "dd/MM/yyyy"
        return formatter
    }

    var referenceDate: Date
    var unixDate: Date
    var millisecondsDate: Date
    var isoDate: Date
    var formattedDate: Date
    var customDate: Date
    var defaultDate: Date
    var optionalDate: Date?
}

private struct UnixEvent: Decodable, FetchableRecord {
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSince1970
    }
    var date: Date
}

private struct Document: Decodable, FetchableRecord {
    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
        if column == "base64" {
            return .custom { dbValue in String.fromDatabaseValue(dbValue).flatMap { Data(base64Encoded: $0) } }
        }
        return .deferredToData
    }
    var base64: Data
    var raw: Data
    var optionalBase64: Data?
}

private struct Measure: Codable, Equatable {
    var value: Double
    var date: Date
}

private struct Experiment: Decodable, FetchableRecord {
    static func databaseJSONDecoder(for column: String) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
    var measures: [Measure]
}

private struct DefaultExperiment: Decodable, FetchableRecord {
    var measures: [Measure]
}

/// Column, date, data and JSON decoding strategies.
struct DecodableStrategyTests {
    @Test func convertFromSnakeCase() throws {
        let dbQueue = try DatabaseQueue()
        let player = try dbQueue.read { db in
            try SnakePlayer.fetchOne(
                db, sql: "SELECT 1 AS player_id, 'Arthur' AS full_name, 10 AS score, 3 AS _private")
        }
        #expect(player?.playerId == 1)
        #expect(player?.fullName == "Arthur")
        #expect(player?.score == 10)
        #expect(player?._private == 3)
        #expect(player?.nickName == nil)
    }

    @Test func convertFromSnakeCaseMissingColumn() throws {
        let dbQueue = try DatabaseQueue()
        #expect {
            try dbQueue.read { db in _ = try SnakePlayer.fetchOne(db, sql: "SELECT 1 AS player_id, 10 AS score") }
        } throws: { error in
            error is RowDecodingError && "\(error)".contains(#"column not found: "fullName""#)
        }
    }

    @Test func customColumnStrategy() throws {
        let dbQueue = try DatabaseQueue()
        let player = try dbQueue.read { db in
            try PrefixedPlayer.fetchOne(db, sql: "SELECT 'Arthur' AS p_name, 10 AS p_score")
        }
        #expect(player?.name == "Arthur")
        #expect(player?.score == 10)
    }

    @Test func dateStrategies() throws {
        let dbQueue = try DatabaseQueue()
        let event = try dbQueue.read { db in
            try DatedEvent.fetchOne(
                db,
                sql: """
                    SELECT 86400 AS referenceDate, 1700000000 AS unixDate, 1700000000500 AS millisecondsDate,
                    '2024-05-31T12:34:56Z' AS isoDate, '31/05/2024' AS formattedDate, 0 AS customDate,
                    '2024-05-31 12:34:56' AS defaultDate, NULL AS optionalDate
                    """)
        }
        let e = try #require(event)
        #expect(e.referenceDate == Date(timeIntervalSinceReferenceDate: 86400))
        #expect(e.unixDate == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(e.millisecondsDate == Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(e.isoDate == Date(timeIntervalSince1970: 1_717_158_896))
        #expect(e.formattedDate == Date(timeIntervalSince1970: 1_717_113_600))
        #expect(e.customDate == .distantPast)
        #expect(e.defaultDate == Date(timeIntervalSince1970: 1_717_158_896))
        #expect(e.optionalDate == nil)
    }

    @Test func dateStrategyMismatch() throws {
        let dbQueue = try DatabaseQueue()
        #expect {
            try dbQueue.read { db in _ = try UnixEvent.fetchOne(db, sql: "SELECT '2024-05-31' AS date") }
        } throws: { error in
            error is RowDecodingError && "\(error)".contains(#"could not decode Date from database value "2024-05-31""#)
        }
        #expect {
            try dbQueue.read { db in _ = try UnixEvent.fetchOne(db, sql: "SELECT NULL AS date") }
        } throws: { error in
            "\(error)".contains("could not decode Date from database value NULL")
        }
    }

    @Test func customDateStrategyMismatch() throws {
        let dbQueue = try DatabaseQueue()
        let base =
            "86400 AS referenceDate, 1 AS unixDate, 1 AS millisecondsDate, '2024-05-31T12:34:56Z' AS isoDate, "
            + "'31/05/2024' AS formattedDate, '2024-05-31' AS defaultDate"
        #expect {
            try dbQueue.read { db in _ = try DatedEvent.fetchOne(db, sql: "SELECT \(base), 'x' AS customDate") }
        } throws: { error in
            "\(error)".contains(#"column: "customDate""#)
        }
        // The leftmost isoDate column is valid: the extra column is ignored.
        let event = try dbQueue.read { db in
            try DatedEvent.fetchOne(db, sql: "SELECT \(base), 1 AS customDate, 'bad' AS isoDate")
        }
        #expect(event?.isoDate == Date(timeIntervalSince1970: 1_717_158_896))
    }

    @Test func dataStrategies() throws {
        let dbQueue = try DatabaseQueue()
        let document = try dbQueue.read { db in
            try Document.fetchOne(db, sql: "SELECT 'AQI=' AS base64, X'0304' AS raw, NULL AS optionalBase64")
        }
        #expect(document?.base64 == Data([1, 2]))
        #expect(document?.raw == Data([3, 4]))
        #expect(document?.optionalBase64 == nil)
        #expect {
            try dbQueue.read { db in _ = try Document.fetchOne(db, sql: "SELECT '!!' AS base64, X'00' AS raw") }
        } throws: { error in
            error is RowDecodingError && "\(error)".contains(#"could not decode Data from database value "!!""#)
        }
    }

    @Test func jsonDecoderPerColumn() throws {
        let dbQueue = try DatabaseQueue()
        let experiment = try dbQueue.read { db in
            try Experiment.fetchOne(db, sql: #"SELECT '[{"date":10,"value":"nan"}]' AS measures"#)
        }
        #expect(experiment?.measures.first?.date == Date(timeIntervalSince1970: 10))
        #expect(experiment?.measures.first?.value.isNaN == true)

        // The default decoder reads dates in milliseconds, and rejects non-conforming floats.
        let defaultExperiment = try dbQueue.read { db in
            try DefaultExperiment.fetchOne(db, sql: #"SELECT '[{"date":10000,"value":1.5}]' AS measures"#)
        }
        #expect(defaultExperiment?.measures == [Measure(value: 1.5, date: Date(timeIntervalSince1970: 10))])
        #expect(throws: RowDecodingError.self) {
            try dbQueue.read { db in
                _ = try DefaultExperiment.fetchOne(db, sql: #"SELECT '[{"date":10,"value":"nan"}]' AS measures"#)
            }
        }
    }
}
