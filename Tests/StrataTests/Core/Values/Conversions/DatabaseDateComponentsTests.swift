import Foundation
import Strata
import StrataTestSupport
import Testing

struct DatabaseDateComponentsTests {
    static var fullComponents: DateComponents {
        var components = DateComponents()
        components.year = 1973
        components.month = 9
        components.day = 18
        components.hour = 12
        components.minute = 34
        components.second = 56
        components.nanosecond = 789_000_000
        return components
    }

    static let formats: [(DatabaseDateComponents.Format, String)] = [
        (.YMD, "1973-09-18"),
        (.YMD_HM, "1973-09-18 12:34"),
        (.YMD_HMS, "1973-09-18 12:34:56"),
        (.YMD_HMSS, "1973-09-18 12:34:56.789"),
        (.HM, "12:34"),
        (.HMS, "12:34:56"),
        (.HMSS, "12:34:56.789"),
    ]

    @Test(arguments: formats)
    func writesFormat(format: DatabaseDateComponents.Format, string: String) {
        let dbComponents = DatabaseDateComponents(Self.fullComponents, format: format)
        #expect(dbComponents.format == format)
        #expect(dbComponents.dateComponents == Self.fullComponents)
        #expect(dbComponents.databaseValue == string.databaseValue)
    }

    @Test(arguments: formats)
    func roundTripsFormat(format: DatabaseDateComponents.Format, string: String) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (c TEXT)")
            let dbComponents = DatabaseDateComponents(Self.fullComponents, format: format)
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [dbComponents])
            #expect(try String.fetchOne(db, sql: "SELECT c FROM t") == string)

            let decoded = try decodeBothWays(DatabaseDateComponents.self, db, sql: "SELECT c FROM t")
            for read in [decoded.fast, decoded.fetched, decoded.slow] {
                let read = try #require(read)
                #expect(read.format == format)
                let c = read.dateComponents
                let full = Self.fullComponents
                switch format {
                case .YMD, .YMD_HM, .YMD_HMS, .YMD_HMSS:
                    #expect(c.year == full.year && c.month == full.month && c.day == full.day)
                case .HM, .HMS, .HMSS:
                    #expect(c.year == nil && c.month == nil && c.day == nil)
                }
                switch format {
                case .YMD:
                    #expect(c.hour == nil && c.minute == nil && c.second == nil)
                case .YMD_HM, .HM:
                    #expect(c.hour == 12 && c.minute == 34 && c.second == nil && c.nanosecond == nil)
                case .YMD_HMS, .HMS:
                    #expect(c.hour == 12 && c.minute == 34 && c.second == 56 && c.nanosecond == nil)
                case .YMD_HMSS, .HMSS:
                    #expect(c.hour == 12 && c.minute == 34 && c.second == 56 && c.nanosecond == 789_000_000)
                }
                #expect(c.timeZone == nil)
            }

            let row = try Row.fetchOne(db, sql: "SELECT c FROM t")!
            let fromRow: DatabaseDateComponents = row["c"]
            #expect(fromRow.format == format)
        }
    }

    @Test func documentationExample() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (birthDate TEXT)")
            var components = DateComponents()
            components.year = 1973
            components.month = 9
            components.day = 18
            let dbComponents = DatabaseDateComponents(components, format: .YMD)
            try db.execute(sql: "INSERT INTO player (birthDate) VALUES (?)", arguments: [dbComponents])
            #expect(try String.fetchOne(db, sql: "SELECT birthDate FROM player") == "1973-09-18")

            let row = try Row.fetchOne(db, sql: "SELECT birthDate FROM player")!
            let read: DatabaseDateComponents = row["birthDate"]
            #expect(read.format == .YMD)
            #expect(read.dateComponents == components)
        }
    }

    @Test func readsTSeparatorTimeZonesAndLongFractions() throws {
        let t = try #require(DatabaseDateComponents.fromDatabaseValue("2013-10-07T08:23:19.120".databaseValue))
        #expect(t.format == .YMD_HMSS)
        #expect(t.dateComponents.hour == 8 && t.dateComponents.nanosecond == 120_000_000)

        let z = try #require(DatabaseDateComponents.fromDatabaseValue("2013-10-07 08:23Z".databaseValue))
        #expect(z.format == .YMD_HM)
        #expect(z.dateComponents.timeZone == TimeZone(secondsFromGMT: 0))

        let offset = try #require(DatabaseDateComponents.fromDatabaseValue("08:23:19-04:30".databaseValue))
        #expect(offset.format == .HMS)
        #expect(offset.dateComponents.timeZone == TimeZone(secondsFromGMT: -(4 * 3600 + 30 * 60)))

        let long = try #require(DatabaseDateComponents.fromDatabaseValue("08:23:19.123456789123".databaseValue))
        #expect(long.format == .HMSS)
        // Milliseconds only, as GRDB.
        #expect(long.dateComponents.nanosecond == 123_000_000)
    }

    @Test func missingComponentsAreTheStartOfYearZero() {
        var components = DateComponents()
        components.hour = 7
        #expect(DatabaseDateComponents(components, format: .HMSS).databaseValue == "07:00:00.000".databaseValue)
        #expect(DatabaseDateComponents(DateComponents(), format: .YMD).databaseValue == "0000-01-01".databaseValue)
        #expect(
            DatabaseDateComponents(DateComponents(), format: .YMD_HMSS).databaseValue
                == "0000-01-01 00:00:00.000".databaseValue)
        components = DateComponents()
        components.year = 2024
        components.month = 0
        components.day = 0
        #expect(DatabaseDateComponents(components, format: .YMD).databaseValue == "2024-01-01".databaseValue)
    }

    @Test func timeZoneIsNotWritten() {
        var components = Self.fullComponents
        components.timeZone = TimeZone(secondsFromGMT: 3600)
        #expect(
            DatabaseDateComponents(components, format: .YMD_HM).databaseValue == "1973-09-18 12:34".databaseValue)
    }

    static let invalidValues: [DatabaseValue] = [
        .null, 0.databaseValue, 1.5.databaseValue, Data("12:00".utf8).databaseValue, "".databaseValue,
        "now".databaseValue, "12".databaseValue, "12:0".databaseValue, "25:00".databaseValue,
        "12:00:00.".databaseValue, "2013-10-07 ".databaseValue, "1973-9-18".databaseValue,
        "1973-09-18Z".databaseValue, "12:00 +1".databaseValue,
    ]

    @Test(arguments: invalidValues)
    func invalidValuesDoNotDecode(dbValue: DatabaseValue) throws {
        #expect(DatabaseDateComponents.fromDatabaseValue(dbValue) == nil)
        #expect(try decodesInNoWay(DatabaseDateComponents.self, dbValue))
    }

    struct Person: Codable {
        var birthDate: DatabaseDateComponents
    }

    @Test func codableAsAString() throws {
        let person = Person(birthDate: DatabaseDateComponents(Self.fullComponents, format: .YMD_HMS))
        let json = try JSONEncoder().encode(person)
        #expect(String(decoding: json, as: UTF8.self) == #"{"birthDate":"1973-09-18 12:34:56"}"#)

        let decoded = try JSONDecoder().decode(Person.self, from: json)
        #expect(decoded.birthDate.format == .YMD_HMS)
        #expect(decoded.birthDate.dateComponents.second == 56)

        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Person.self, from: Data(#"{"birthDate":"nope"}"#.utf8))
        }
    }
}
