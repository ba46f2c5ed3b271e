import Foundation
import Testing

@testable import Strata
import StrataTestSupport

/// The fixed-position parser of stored dates agrees with the general parser.
struct SQLiteDateParserFastPathTests {
    private func fast(_ string: String) -> TimeInterval? {
        var string = string
        return string.withUTF8 { SQLiteDateParser.storedFormatTimeInterval($0) }
    }

    private func general(_ string: String) -> TimeInterval? {
        var string = string
        return string.withUTF8 { SQLiteDateParser.parsedTimeInterval($0) }
    }

    private func combined(_ string: String) -> TimeInterval? {
        var string = string
        return string.withUTF8 { SQLiteDateParser.timeIntervalSinceReferenceDate($0) }
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    @Test func agreesWithTheGeneralParserOnRandomDates() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50_000 {
            let t = RandomDateTime(maximumDay: 31, using: &generator)
            let separator = Bool.random(using: &generator) ? " " : "T"
            var string =
                "\(Self.pad(t.year, 4))-\(Self.pad(t.month, 2))-\(Self.pad(t.day, 2))\(separator)"
                + "\(Self.pad(t.hour, 2)):\(Self.pad(t.minute, 2)):\(Self.pad(t.second, 2))"
            switch Int.random(in: 0...5, using: &generator) {
            case 0: break
            case 1: string += "." + Self.pad(Int.random(in: 0...9), 1)
            case 2: string += "." + Self.pad(Int.random(in: 0...99), 2)
            case 3, 4: string += "." + Self.pad(Int.random(in: 0...999), 3)
            default: string += "." + Self.pad(Int.random(in: 0...999_999), 6)
            }
            if Int.random(in: 0...5, using: &generator) == 0 {
                string += ["Z", "+02:00", "-05:30", " +14:00", "z"].randomElement(using: &generator)!
            }
            let expected = general(string)
            #expect(expected != nil, "\(string)")
            #expect(combined(string) == expected, "\(string)")
            if let fast = fast(string) {
                #expect(fast == expected, "\(string)")
            }
        }
    }

    @Test func coversTheStoredFormats() {
        // Leap years, years before 1970 and after 2038, the limits.
        for string in [
            "1970-01-01 00:00:00.000", "1969-12-31 23:59:59.999", "2000-02-29 12:34:56.789",
            "1900-02-28 00:00:00.000", "2400-02-29 23:59:59.999", "2038-01-19 03:14:08.000",
            "0000-01-01 00:00:00.000", "9999-12-31 23:59:59.999", "1582-10-04T12:00:00.500",
            "2013-10-07 08:23:19", "2013-10-07T08:23:19", "2023-02-31 10:00:00.000",
        ] {
            #expect(fast(string) != nil, "\(string)")
            #expect(fast(string) == general(string), "\(string)")
        }
        #expect(fast("2013-10-07 08:23:19.120") == 402_826_999.12)
    }

    @Test func leavesOtherStringsToTheGeneralParser() {
        for string in [
            "2013-10-07", "2013-10-07 08:23", "2013-10-07 08:23:19.1", "2013-10-07 08:23:19Z",
            "2013-10-07 08:23:19.12Z", "08:23:19.120000000000", "2013-13-07 08:23:19.120",
            "2013-00-07 08:23:19.120", "2013-10-00 08:23:19.120", "2013-10-32 08:23:19.120",
            "2013-10-07 24:23:19.120", "2013-10-07 08:60:19.120", "2013-10-07 08:23:60.120",
            "2013-10-07x08:23:19.120", "2013-10-07 08:23:19,120", "2013/10/07 08:23:19.120",
            "2013-10-07 08-23-19.120", "2O13-10-07 08:23:19.120", "2013-10-07 08:23:1a.120",
            "2013-10-07 08:23:19.12a", "2013-10-07 08:23:19.1200", "+013-10-07 08:23:19.120",
            "2013-10-07 08:23:19.-12", "2013-10-07 08:23:19:120", "201:-10-07 08:23:19.120",
        ] {
            #expect(fast(string) == nil, "\(string)")
            #expect(combined(string) == general(string), "\(string)")
        }
    }

    @Test func rejectsEveryNonDigitByte() {
        let valid = Array("2013-10-07 08:23:19.120".utf8)
        let digitOffsets = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22]
        for offset in digitOffsets {
            for byte in UInt8(0)...UInt8(255) where !(48...57).contains(byte) {
                var bytes = valid
                bytes[offset] = byte
                let result = bytes.withUnsafeBufferPointer { SQLiteDateParser.storedFormatTimeInterval($0) }
                #expect(result == nil)
            }
        }
    }

    @Test func fetchedDatesAgreeWithDatabaseValues() throws {
        var values: [any DatabaseValueConvertible] = [
            "2013-10-07 08:23:19.120", "2013-10-07T08:23:19", "2013-10-07", "2013-10-07 08:23",
            "2013-10-07 08:23:19.12+02:00", "2013-10-07 08:23:19Z", "1969-12-31 23:59:59.999",
            "0000-02-29 00:00:00.000", "9999-12-31 23:59:59.999", 1_381_134_199, 1.5, -2.25,
        ]
        for _ in 0..<500 {
            values.append(Date(timeIntervalSince1970: Double.random(in: -62_000_000_000...253_000_000_000)))
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, d)")
            for value in values {
                try db.execute(sql: "INSERT INTO t (d) VALUES (?)", arguments: [value])
            }
            let fetched = try Date.fetchAll(db, sql: "SELECT d FROM t ORDER BY id")
            let expected = try DatabaseValue.fetchAll(db, sql: "SELECT d FROM t ORDER BY id").map {
                Date.fromDatabaseValue($0)
            }
            #expect(fetched.count == expected.count)
            for (date, expectedDate) in zip(fetched, expected) {
                #expect(date == expectedDate)
            }
            let optional = try Date?.fetchAll(db, sql: "SELECT d FROM t UNION ALL SELECT NULL")
            #expect(optional.count == values.count + 1)
        }
    }
}
