import Foundation
import Strata
import StrataTestSupport
import Testing

// Items 3 to 7, 9 and 10: conversions that behave like GRDB's.

struct ValueConversionTests {
    // MARK: 3. Strings and URLs from UTF-8 blobs

    @Test func stringsAndURLsDecodeFromUTF8Blobs() throws {
        let blob = Data("https://example.com/é".utf8).databaseValue
        #expect(String.fromDatabaseValue(blob) == "https://example.com/é")
        #expect(NSString.fromDatabaseValue(blob) == "https://example.com/é")
        #expect(
            URL.fromDatabaseValue(Data("https://example.com".utf8).databaseValue) == URL(string: "https://example.com"))
        #expect(
            NSURL.fromDatabaseValue(Data("https://example.com".utf8).databaseValue)
                == NSURL(string: "https://example.com"))
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT CAST('abc' AS BLOB)"
            let row = try #require(try Row.fetchOne(db, sql: sql))
            // The fast path (live statement) and the copied row agree.
            #expect(try String.fetchOne(db, sql: sql) == "abc")
            #expect(row[0] as String == "abc")
            #expect(row.copy()[0] as String == "abc")
            #expect(try URL.fetchOne(db, sql: "SELECT CAST('https://a.b' AS BLOB)") == URL(string: "https://a.b"))
        }
    }

    // MARK: 4. Dates are precise to the millisecond

    @Test func datesParsedFromTextKeepMilliseconds() throws {
        let base = try #require(Date.fromDatabaseValue("2020-01-02 03:04:05".databaseValue))
        let a = try #require(Date.fromDatabaseValue("2020-01-02 03:04:05.00456".databaseValue))
        let b = try #require(Date.fromDatabaseValue("2020-01-02 03:04:05.999123".databaseValue))
        // The nearest instants (C1): the whole seconds of `base` plus the
        // milliseconds, rounded once.
        #expect(a == Date(timeIntervalSinceReferenceDate: base.timeIntervalSinceReferenceDate + 0.004))
        #expect(b == Date(timeIntervalSinceReferenceDate: base.timeIntervalSinceReferenceDate + 0.999))
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Date.fetchOne(db, sql: "SELECT '2020-01-02 03:04:05.00456'") == a)
            #expect(try Date.fetchOne(db, sql: "SELECT '2020-01-02 03:04:05.999123'") == b)
        }
    }

    // MARK: 5. Decimals read from REAL are built from the double

    @Test func decimalsFromRealRoundTripLikeDoubles() throws {
        let number = NSDecimalNumber(value: 10_000_000.01)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [number]) == "real")
            #expect(try NSDecimalNumber.fetchOne(db, sql: "SELECT ?", arguments: [number]) == number)
            #expect(try Decimal.fetchOne(db, sql: "SELECT ?", arguments: [number]) == number.decimalValue)
            #expect(try Decimal.fetchOne(db, sql: "SELECT 10000000.01") == Decimal(10_000_000.01))
        }
        #expect(Decimal.fromDatabaseValue(10_000_000.01.databaseValue) == Decimal(10_000_000.01))
    }

    // MARK: 6. NSNull and date components

    @Test func nsNullNeverDecodes() throws {
        #expect(NSNull.fromDatabaseValue(.null) == nil)
        #expect(NSNull.fromDatabaseValue(1.databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Optional<NSNull>.fetchOne(db, sql: "SELECT NULL") == .some(nil))
        }
    }

    @Test func dateComponentsFillMissingOnesWithStartOfYearZero() {
        #expect(
            DatabaseDateComponents(DateComponents(), format: .YMD_HMSS).databaseValue
                == "0000-01-01 00:00:00.000".databaseValue)
        var components = DateComponents()
        components.year = 1973
        #expect(DatabaseDateComponents(components, format: .YMD_HM).databaseValue == "1973-01-01 00:00".databaseValue)
        #expect(DatabaseDateComponents.Format(rawValue: DatabaseDateComponents.Format.YMD.rawValue) == .YMD)
    }

    // MARK: 7. withUnsafeData

    @Test func withUnsafeDataHandsNilForMissingColumnAndNULL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT x'0102' AS a, NULL AS b"))
            #expect(try row.withUnsafeData(named: "a") { $0 } == Data([1, 2]))
            #expect(try row.withUnsafeData(named: "b") { $0 } == nil)
            #expect(try row.withUnsafeData(named: "missing") { $0 } == nil)
            #expect(try row.withUnsafeData(at: Column("missing")) { $0 } == nil)
            #expect(try row.withUnsafeData(at: Column("b")) { $0 } == nil)
            #expect(try row.withUnsafeData(atIndex: 1) { $0 } == nil)
        }
    }

    // MARK: 9. Unsigned integers above Int64.max

    @Test func unsignedIntegersAboveInt64MaxAreStoredAsReal() throws {
        let exact: UInt64 = 1 << 63
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [exact, UInt64.max])
            #expect(try String.fetchOne(db, sql: "SELECT typeof(a) FROM t") == "real")
            // Exact: read back exactly, through the fast path and a copied row.
            #expect(try UInt64.fetchOne(db, sql: "SELECT a FROM t") == exact)
            #expect(try UInt.fetchOne(db, sql: "SELECT a FROM t") == UInt(exact))
            let row = try #require(try Row.fetchOne(db, sql: "SELECT a, b FROM t"))
            #expect(row["a"] as UInt64 == exact)
            #expect(row.copy()["a"] as UInt64 == exact)
            // Not exact (2^64 does not fit): a decoding error, not Int64.max.
            #expect(throws: RowDecodingError.self) { try UInt64.fetchOne(db, sql: "SELECT b FROM t") }
            #expect(throws: RowDecodingError.self) { try UInt.fetchOne(db, sql: "SELECT b FROM t") }
            #expect(throws: RowDecodingError.self) { try row.decode(UInt64.self, forColumn: "b") }
            #expect(throws: RowDecodingError.self) { try row.copy().decode(UInt64.self, forColumn: "b") }
            // A true Int64.max integer is still read.
            #expect(try UInt64.fetchOne(db, sql: "SELECT 9223372036854775807") == UInt64(Int64.max))
        }
    }

    @Test func unsignedRecordsDoNotSaturate() throws {
        struct Record: Decodable, FetchableRecord {
            var b: UInt64
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(throws: (any Error).self) { try Record.fetchOne(db, sql: "SELECT 1.8446744073709552e19 AS b") }
            #expect(try Record.fetchOne(db, sql: "SELECT 9.223372036854775808e18 AS b")?.b == 1 << 63)
        }
    }

    // MARK: 10. Descriptions

    @Test func blobsAreDescribedByTheirSize() throws {
        let data = Data("abcdef".utf8)
        #expect(data.databaseValue.description == "Data(6 bytes)")
        let row: Row = ["a": data, "b": 1]
        #expect(row.description == "[a:Data(6 bytes) b:1]")
    }
}
