import Foundation
import Strata
import StrataTestSupport
import Testing

struct DateTests {
    // 2013-10-07 08:23:19 UTC
    static let sample: TimeInterval = 1_381_134_199

    /// The date of a number of milliseconds since 1970, as dates are read
    /// from the database: the instant nearest to it (C1), which
    /// `Date(timeIntervalSince1970:)` of a fractional value may miss by one
    /// double.
    static func date(millisecondsSince1970 milliseconds: Int64) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(milliseconds - 978_307_200_000) / 1000)
    }

    // MARK: Encoding

    @Test func storesUTCStringWithMilliseconds() {
        #expect(Date(timeIntervalSince1970: 0).databaseValue == "1970-01-01 00:00:00.000".databaseValue)
        #expect(
            Date(timeIntervalSince1970: Self.sample + 0.12).databaseValue
                == "2013-10-07 08:23:19.120".databaseValue)
        #expect(Date(timeIntervalSince1970: -0.001).databaseValue == "1969-12-31 23:59:59.999".databaseValue)
        #expect(Date(timeIntervalSince1970: 951_782_400).databaseValue == "2000-02-29 00:00:00.000".databaseValue)
    }

    @Test func encodingRoundsToTheNearestMillisecond() {
        #expect(Date(timeIntervalSince1970: 0.0004).databaseValue == "1970-01-01 00:00:00.000".databaseValue)
        #expect(Date(timeIntervalSince1970: 0.0006).databaseValue == "1970-01-01 00:00:00.001".databaseValue)
        #expect(Date(timeIntervalSince1970: 59.9996).databaseValue == "1970-01-01 00:01:00.000".databaseValue)
        #expect(Date(timeIntervalSince1970: 1.001).databaseValue == "1970-01-01 00:00:01.001".databaseValue)
    }

    @Test func encodingBoundaries() {
        #expect(
            Date(timeIntervalSince1970: 253_402_300_799.999).databaseValue
                == "9999-12-31 23:59:59.999".databaseValue)
        #expect(Date(timeIntervalSince1970: 253_402_300_800).databaseValue == "10000-01-01 00:00:00.000".databaseValue)
        #expect(Date(timeIntervalSince1970: -62_135_596_800).databaseValue == "0001-01-01 00:00:00.000".databaseValue)
        #expect(Date(timeIntervalSince1970: -62_167_219_200).databaseValue == "0000-01-01 00:00:00.000".databaseValue)
        #expect(Date(timeIntervalSince1970: -62_167_219_201).databaseValue == "-0001-12-31 23:59:59.000".databaseValue)
        // Does not crash
        _ = Date(timeIntervalSinceReferenceDate: .infinity).databaseValue
        _ = Date(timeIntervalSinceReferenceDate: -.infinity).databaseValue
        _ = Date(timeIntervalSinceReferenceDate: .nan).databaseValue
        _ = Date(timeIntervalSinceReferenceDate: .greatestFiniteMagnitude).databaseValue
    }

    @Test func encodingMatchesSQLiteForManyDates() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            var generator = SystemRandomNumberGenerator()
            var seconds: [Int64] = [
                0, -1, 86_399, 86_400, 951_782_400, 4_107_542_400, -62_167_219_200, 253_402_300_799,
            ]
            for _ in 0..<2000 {
                seconds.append(Int64.random(in: -62_167_219_200...253_402_300_799, using: &generator))
            }
            for second in seconds {
                let date = Date(timeIntervalSince1970: TimeInterval(second))
                let expected = try String.fetchOne(
                    db, sql: "SELECT strftime('%Y-%m-%d %H:%M:%f', ?, 'unixepoch')", arguments: [second])!
                #expect(date.databaseValue == expected.databaseValue, "\(second)")
            }
        }
    }

    // MARK: Decoding

    static let acceptedFormats: [(String, TimeInterval)] = [
        ("2013-10-07", 1_381_104_000),
        ("2013-10-07 08:23", 1_381_134_180),
        ("2013-10-07 08:23:19", sample),
        ("2013-10-07 08:23:19.120", sample + 0.12),
        ("2013-10-07T08:23", 1_381_134_180),
        ("2013-10-07T08:23:19", sample),
        ("2013-10-07T08:23:19.120", sample + 0.12),
        ("2013-10-07 08:23:19.1", sample + 0.1),
        ("2013-10-07 08:23:19.12", sample + 0.12),
        ("2013-10-07 08:23:19.123456", sample + 0.123),
        ("2013-10-07 08:23:19.123456789", sample + 0.123),
        ("2013-10-07 08:23:19.1234567890123", sample + 0.123),
        ("2013-10-07 08:23Z", 1_381_134_180),
        ("2013-10-07 08:23:19Z", sample),
        ("2013-10-07 08:23:19.120Z", sample + 0.12),
        ("2013-10-07T08:23:19.120z", sample + 0.12),
        ("2013-10-07 08:23:19+00:00", sample),
        ("2013-10-07 08:23:19-00:00", sample),
        ("2013-10-07 10:23:19+02:00", sample),
        ("2013-10-07 04:23:19.120-04:00", sample + 0.12),
        ("2013-10-07 04:23:19.120 -04:00", sample + 0.12),
        ("2013-10-07T13:53:19+05:30", sample),
        ("2013-10-07 10:23+02:00", 1_381_134_180),
        ("1970-01-01", 0),
        ("1970-01-01 00:00:00.000", 0),
        ("1969-12-31 23:59:59.999", -0.001),
        ("2000-02-29 00:00:00", 951_782_400),
        ("0000-01-01 00:00:00.000", -62_167_219_200),
        ("0001-01-01", -62_135_596_800),
        ("9999-12-31 23:59:59.999", 253_402_300_799.999),
    ]

    @Test(arguments: acceptedFormats)
    func decodesFormat(string: String, expected: TimeInterval) throws {
        let expectedDate = Date(timeIntervalSince1970: expected)
        let date = try #require(Date.fromDatabaseValue(string.databaseValue))
        #expect(abs(date.timeIntervalSince(expectedDate)) < 1e-6, "\(string)")

        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let decoded = try decodeBothWays(Date.self, db, sql: "SELECT ?", arguments: [string])
            #expect(decoded.agree)
            #expect(decoded.fast == date)
        }
    }

    @Test(arguments: acceptedFormats)
    func decodingMatchesSQLiteDateFunctions(string: String, expected: TimeInterval) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let julianDay = try Double.fetchOne(db, sql: "SELECT julianday(?)", arguments: [string])!
            let sqliteDate = try #require(Date(julianDay: julianDay))
            let date = try #require(Date.fromDatabaseValue(string.databaseValue))
            #expect(abs(date.timeIntervalSince(sqliteDate)) <= 0.001, "\(string)")
        }
    }

    @Test func decodesGeneratedStringsLikeSQLite() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<2000 {
                let t = RandomDateTime(maximumDay: 28, using: &generator)
                let ms = Int.random(in: 0...999, using: &generator)
                let string = String(
                    format: "%04d-%02d-%02d %02d:%02d:%02d.%03d", t.year, t.month, t.day, t.hour, t.minute, t.second,
                    ms)
                let unixTime = try Double.fetchOne(
                    db, sql: "SELECT (julianday(?) - 2440587.5) * 86400000.0", arguments: [string])!
                let date = try #require(Date.fromDatabaseValue(string.databaseValue), "\(string)")
                #expect(abs(date.timeIntervalSince1970 * 1000 - unixTime) < 1, "\(string)")
                // Decoding then encoding gives the same string
                #expect(date.databaseValue == string.databaseValue)
            }
        }
    }

    static let invalidStrings: [String] = [
        "", " ", "now", "Mom’s birthday", "🎂", "2013", "2013-10", "2013-10-7", "13-10-07", "2013/10/07",
        "2013-10-07 ", " 2013-10-07", "2013-10-07X08:23", "2013-10-07t08:23", "2013-10-07T", "2013-10-07 08",
        "2013-10-07 08:2",
        "2013-10-07 8:23", "2013-10-07 08:23:1", "2013-10-07 08:23:19.", "2013-10-07 08:23:19.12a",
        "2013-10-07 08:23:19,120", "2013-00-07", "2013-13-07", "2013-10-00", "2013-10-32", "2013-10-07 24:00",
        "2013-10-07 08:60", "2013-10-07 08:23:60", "2013-10-07Z", "2013-10-07 08:23+2:00", "2013-10-07 08:23+02",
        "2013-10-07 08:23+0200", "2013-10-07 08:23+15:00", "2013-10-07 08:23+02:60", "2013-10-07 08:23 Z junk",
        "2013-10-07 08:23:19.120Z ", "08:23", "08:23:19.120", "２０１３-10-07", "+2013-10-07", "-2013-10-07",
        "2013-10-07\u{0}", "2013-10-07 08:23:19.120\u{0}",
    ]

    @Test(arguments: invalidStrings)
    func invalidStringsDoNotDecode(string: String) throws {
        #expect(Date.fromDatabaseValue(string.databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let decoded = try decodeBothWays(Date.self, db, sql: "SELECT ?", arguments: [string])
            #expect(decoded.fast == nil)
            #expect(decoded.fetched == nil)
            #expect(decoded.slow == nil)
        }
    }

    @Test func invalidValueThrowsDecodingError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(throws: RowDecodingError.self) {
                try Date.fetchOne(db, sql: "SELECT 'Mom’s birthday'")
            }
            let row = try Row.fetchOne(db, sql: "SELECT 'foo' AS date")!
            #expect(throws: RowDecodingError.self) { try row.decode(Date.self, forColumn: "date") }
            let dbValue: DatabaseValue = row["date"]
            #expect(Date.fromDatabaseValue(dbValue) == nil)
        }
    }

    @Test func decodesDaysPastTheEndOfTheMonthLikeCalendarOverflow() throws {
        // SQLite accepts days up to 31 in every month; Strata rolls them over.
        let date = try #require(Date.fromDatabaseValue("2021-02-31".databaseValue))
        #expect(date.databaseValue == "2021-03-03 00:00:00.000".databaseValue)
    }

    @Test func numbersAreUnixTimestamps() throws {
        #expect(Date.fromDatabaseValue(0.databaseValue) == Date(timeIntervalSince1970: 0))
        #expect(Date.fromDatabaseValue(1_381_134_199.databaseValue) == Date(timeIntervalSince1970: Self.sample))
        #expect(Date.fromDatabaseValue((-86_400).databaseValue) == Date(timeIntervalSince1970: -86_400))
        #expect(Date.fromDatabaseValue(1.5.databaseValue) == Date(timeIntervalSince1970: 1.5))
        #expect(Date.fromDatabaseValue(Double.infinity.databaseValue) == nil)
        #expect(Date.fromDatabaseValue(Double.nan.databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let infinity = try decodeBothWays(Date.self, db, sql: "SELECT 9e999")
            #expect(infinity.fast == nil && infinity.fetched == nil && infinity.slow == nil)
            for sql in ["SELECT 1381134199", "SELECT 1.5", "SELECT -2.25", "SELECT 0"] {
                let decoded = try decodeBothWays(Date.self, db, sql: sql)
                #expect(decoded.fast != nil)
                #expect(decoded.agree, "\(sql)")
            }
            #expect(try Date.fetchOne(db, sql: "SELECT 1381134199") == Date(timeIntervalSince1970: Self.sample))
        }
    }

    @Test func nullAndBlobsDoNotDecode() throws {
        #expect(Date.fromDatabaseValue(.null) == nil)
        #expect(Date.fromDatabaseValue(Data("2013-10-07".utf8).databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let decoded = try decodeBothWays(Date.self, db, sql: "SELECT CAST('2013-10-07' AS BLOB)")
            #expect(decoded.fast == nil && decoded.slow == nil)
            #expect(try Date.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(try Date?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT '2013-10-07'").count == 2)
        }
    }

    // MARK: Julian days

    @Test func julianDays() throws {
        #expect(Date(julianDay: 2_440_587.5) == Date(timeIntervalSince1970: 0))
        #expect(Date(julianDay: 2_451_910.5) == Date(timeIntervalSinceReferenceDate: 0))
        #expect(Date(julianDay: 2_440_588.0) == Date(timeIntervalSince1970: 43_200))
        #expect(Date(julianDay: 0) != nil)
        #expect(Date(julianDay: 5_373_484.499999) != nil)
        #expect(Date(julianDay: -1) == nil)
        #expect(Date(julianDay: 5_373_485) == nil)
        #expect(Date(julianDay: .nan) == nil)
        #expect(Date(julianDay: .infinity) == nil)

        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let julianDay = try Double.fetchOne(db, sql: "SELECT julianday('2013-10-07 08:23:19.120')")!
            let date = try #require(Date(julianDay: julianDay))
            #expect(date.databaseValue == "2013-10-07 08:23:19.120".databaseValue)
        }
    }

    // MARK: Database round trips

    @Test func roundTripThroughTable() throws {
        let dbQueue = try DatabaseQueue()
        let dates = [
            Date(timeIntervalSince1970: 0),
            Self.date(millisecondsSince1970: 1_381_134_199_120),
            Self.date(millisecondsSince1970: -1_000_000_000_500),
            Self.date(millisecondsSince1970: 253_402_300_799_999),
            Date(timeIntervalSinceReferenceDate: 0),
            Date.distantPast,
            Date.distantFuture,
        ]
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE event (id INTEGER PRIMARY KEY, date DATETIME)")
            for (id, date) in dates.enumerated() {
                try db.execute(sql: "INSERT INTO event (id, date) VALUES (?, ?)", arguments: [id, date])
            }
            let fetched = try Date.fetchAll(db, sql: "SELECT date FROM event ORDER BY id")
            #expect(fetched == dates)

            let rows = try Row.fetchCursor(db, sql: "SELECT id, date FROM event ORDER BY id")
            while let row = try rows.next() {
                let id: Int = row["id"]
                #expect(row["date"] as Date == dates[id])
                #expect(row["date"] as Date? == dates[id])
            }
            for row in try Row.fetchAll(db, sql: "SELECT id, date FROM event ORDER BY id") {
                let id: Int = row["id"]
                #expect(row["date"] as Date == dates[id])
            }
            #expect(try Date.fetchSet(db, sql: "SELECT date FROM event") == Set(dates))
            #expect(try Date.fetchOne(db, sql: "SELECT date FROM event WHERE id = 1") == dates[1])
        }
    }

    @Test func dateWithSubMillisecondsIsStoredAtMillisecondPrecision() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let date = Date(timeIntervalSince1970: Self.sample + 0.123456)
            let fetched = try Date.fetchOne(db, sql: "SELECT ?", arguments: [date])!
            #expect(fetched == Self.date(millisecondsSince1970: 1_381_134_199_123))
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [date]) == "2013-10-07 08:23:19.123")
        }
    }

    @Test func storedDatesSortAndFeedSQLiteFunctions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE event (date DATETIME)")
            let dates = (0..<50).map { Date(timeIntervalSince1970: Double($0 * 7_777_777) - 200_000_000.25) }
            for date in dates.shuffled() {
                try db.execute(sql: "INSERT INTO event VALUES (?)", arguments: [date])
            }
            #expect(try Date.fetchAll(db, sql: "SELECT date FROM event ORDER BY date") == dates)
            #expect(
                try Date.fetchOne(
                    db, sql: "SELECT datetime(?)", arguments: [Date(timeIntervalSince1970: Self.sample + 0.5)])
                    == Date(timeIntervalSince1970: Self.sample))
            #expect(
                try Int.fetchOne(db, sql: "SELECT ? < CURRENT_TIMESTAMP", arguments: [Date(timeIntervalSince1970: 0)])
                    == 1)
            let now = try Date.fetchOne(db, sql: "SELECT CURRENT_TIMESTAMP")!
            #expect(abs(now.timeIntervalSinceNow) < 60)
        }
    }

    @Test func decodesManyDatesThroughTheFastPath() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
                SELECT strftime('%Y-%m-%d %H:%M:%f', 1000000000 + i * 997, 'unixepoch') FROM n
                """
            let dates = try Date.fetchAll(db, sql: sql)
            #expect(dates.count == 100_000)
            #expect(dates.first == Date(timeIntervalSince1970: 1_000_000_000))
            #expect(dates.last == Date(timeIntervalSince1970: 1_000_000_000 + 99_999 * 997))
        }
    }
}
