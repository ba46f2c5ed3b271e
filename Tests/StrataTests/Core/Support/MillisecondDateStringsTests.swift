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
}
