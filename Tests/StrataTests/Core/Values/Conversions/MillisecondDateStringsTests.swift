import Foundation
import Strata
import StrataTestSupport
import Testing

// Dates read from strings with more than three fraction digits keep the
// milliseconds only: `.00456` is 4 ms, `.999123` is 999 ms.

struct MillisecondDateStringsTests {
    /// Strings with long fractions, and the same strings cut to milliseconds.
    private let cases: [(long: String, milliseconds: String)] = [
        ("2020-03-04 05:06:07.00456", "2020-03-04 05:06:07.004"),
        ("2020-03-04T05:06:07.999123", "2020-03-04T05:06:07.999"),
        ("2020-03-04 05:06:07.999999999Z", "2020-03-04 05:06:07.999Z"),
        ("2020-03-04T05:06:07.0045+02:00", "2020-03-04T05:06:07.004+02:00"),
        ("2020-03-04 05:06:07.1", "2020-03-04 05:06:07.100"),
    ]

    @Test("B20: DatabaseDateComponents keep the milliseconds of long fractions")
    func componentsKeepMilliseconds() throws {
        let expected: [(String, Int)] = [
            ("2020-03-04 05:06:07.00456", 4_000_000),
            ("2020-03-04T05:06:07.999123", 999_000_000),
            ("2020-03-04 05:06:07.999123Z", 999_000_000),
            ("2020-03-04 05:06:07.00456-04:30", 4_000_000),
            ("05:06:07.999123", 999_000_000),
            ("05:06:07.00456+01:00", 4_000_000),
            ("05:06:07.5", 500_000_000),
        ]
        let dbQueue = try DatabaseQueue()
        for (string, nanosecond) in expected {
            let components = try #require(DatabaseDateComponents.fromDatabaseValue(string.databaseValue))
            #expect(components.dateComponents.nanosecond == nanosecond, "\(string)")
            let fetched = try dbQueue.read { db in
                try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: [string])
            }
            #expect(fetched?.dateComponents.nanosecond == nanosecond, "\(string)")
            let decoded = try JSONDecoder().decode(DatabaseDateComponents.self, from: JSONEncoder().encode(string))
            #expect(decoded.dateComponents.nanosecond == nanosecond, "\(string)")
        }
    }

    @Test("B20: Date and NSDate keep the milliseconds of long fractions")
    func datesKeepMilliseconds() throws {
        let dbQueue = try DatabaseQueue()
        for (long, milliseconds) in cases {
            let expected = try #require(Date.fromDatabaseValue(milliseconds.databaseValue))
            #expect(Date.fromDatabaseValue(long.databaseValue) == expected, "\(long)")
            #expect(NSDate.fromDatabaseValue(long.databaseValue) == expected as NSDate, "\(long)")
            let fetched = try dbQueue.read { db in try Date.fetchOne(db, sql: "SELECT ?", arguments: [long]) }
            #expect(fetched == expected, "\(long)")
        }
        let date = try #require(Date.fromDatabaseValue("2020-03-04 05:06:07.00456".databaseValue))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let nanosecond = calendar.component(.nanosecond, from: date)
        #expect((3_999_000...4_001_000).contains(nanosecond), "\(nanosecond)")
    }

    // MARK: - C1: the nearest instant

    /// A calendar in UTC, whose components are those of the database strings.
    private static var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }

    /// The double nearest to `milliseconds / 1000`, computed by the
    /// correctly rounded parser of Swift's `Double(String)` from the exact
    /// decimal text, not by the library's arithmetic.
    private static func nearestInterval(milliseconds: Int64) -> Double {
        let magnitude = milliseconds.magnitude
        let fraction = String(magnitude % 1000)
        let text =
            (milliseconds < 0 ? "-" : "") + "\(magnitude / 1000)."
            + String(repeating: "0", count: 3 - fraction.count) + fraction
        return Double(text)!
    }

    /// The milliseconds since 2001-01-01 UTC of a date and a millisecond.
    private static func milliseconds(_ components: DateComponents, millisecond: Int64) throws -> Int64 {
        let date = try #require(utcCalendar.date(from: components))
        // Whole seconds: exact in a double.
        return Int64(date.timeIntervalSinceReferenceDate) * 1000 + millisecond
    }

    /// Reads a string as a Date in each way the library reads dates: from a
    /// database value, from a statement column, and as an NSDate.
    private static func readDates(_ string: String, _ dbQueue: DatabaseQueue) throws -> [Date] {
        let value = try #require(Date.fromDatabaseValue(string.databaseValue))
        let fetched = try #require(
            try dbQueue.read { db in try Date.fetchOne(db, sql: "SELECT ?", arguments: [string]) })
        let nsDate = try #require(NSDate.fromDatabaseValue(string.databaseValue))
        return [value, fetched, nsDate as Date]
    }

    @Test("C1: a date with a fractional second is the instant nearest to it, in every string form")
    func datesAreTheNearestInstant() throws {
        let dbQueue = try DatabaseQueue()
        let components = DateComponents(year: 2015, month: 7, day: 22, hour: 1, minute: 2, second: 3)
        let expected = try Date(
            timeIntervalSinceReferenceDate: Self.nearestInterval(
                milliseconds: Self.milliseconds(components, millisecond: 4)))
        for string in [
            "2015-07-22 01:02:03.004", "2015-07-22 01:02:03.00456", "2015-07-22 01:02:03.004Z",
            "2015-07-22T01:02:03.004", "2015-07-22T01:02:03.004Z", "2015-07-22T01:02:03.00456Z",
            "2015-07-22T03:02:03.004+02:00",
        ] {
            for date in try Self.readDates(string, dbQueue) {
                // Within 10 ns of 4 ms: the nearest double (one step of a
                // double, about 60 ns here, would give 3,999,948).
                #expect(Self.utcCalendar.component(.nanosecond, from: date) == 4_000_008, "\(string)")
                #expect(date == expected, "\(string)")
            }
        }
    }

    @Test("C1: rounding is to the nearest double, before 2001 and before 1970 too")
    func roundingIsNearest() throws {
        let dbQueue = try DatabaseQueue()
        // Each string, and its fields: year, month, day, hour, minute,
        // second, millisecond.
        let cases: [(String, [Int])] = [
            ("2015-07-22 01:02:03.999", [2015, 7, 22, 1, 2, 3, 999]),
            ("2015-07-22 01:02:03.001", [2015, 7, 22, 1, 2, 3, 1]),
            ("2000-12-31 23:59:59.999", [2000, 12, 31, 23, 59, 59, 999]),
            ("2001-01-01 00:00:00.001", [2001, 1, 1, 0, 0, 0, 1]),
            ("1999-03-04 05:06:07.004", [1999, 3, 4, 5, 6, 7, 4]),
            ("1969-07-20 20:17:40.123", [1969, 7, 20, 20, 17, 40, 123]),
            ("1969-12-31T23:59:59.999Z", [1969, 12, 31, 23, 59, 59, 999]),
            ("1900-01-01 00:00:00.001", [1900, 1, 1, 0, 0, 0, 1]),
            ("2262-04-11 23:47:16.854", [2262, 4, 11, 23, 47, 16, 854]),
        ]
        for (string, fields) in cases {
            let components = DateComponents(
                year: fields[0], month: fields[1], day: fields[2], hour: fields[3], minute: fields[4],
                second: fields[5])
            let interval = try Self.nearestInterval(
                milliseconds: Self.milliseconds(components, millisecond: Int64(fields[6])))
            for date in try Self.readDates(string, dbQueue) {
                #expect(date.timeIntervalSinceReferenceDate == interval, "\(string)")
            }
        }

        // Stored dates of random milliseconds, years 0 to 9999: each reads
        // back as the double nearest to its exact value.
        var generator = SeededGenerator(seed: 20_150_722)
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: -63_113_904_000_000...252_423_993_599_999, using: &generator)
            let interval = Self.nearestInterval(milliseconds: milliseconds)
            let stored = Date(timeIntervalSinceReferenceDate: interval).databaseValue
            let date = try #require(Date.fromDatabaseValue(stored), "\(stored)")
            #expect(date.timeIntervalSinceReferenceDate == interval, "\(stored)")
        }
    }
}
