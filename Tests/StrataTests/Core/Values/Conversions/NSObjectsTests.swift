import Foundation
import Strata
import StrataTestSupport
import Testing

/// `value`, selected back from a new in-memory database.
private func selectedBack<Value: DatabaseValueConvertible>(_ value: Value) throws -> Value? {
    try DatabaseQueue().read { db in try Value.fetchOne(db, sql: "SELECT ?", arguments: [value]) }
}

struct NSNumberTests {
    @Test func writesIntegersAndDoubles() {
        #expect(NSNumber(value: 10).databaseValue.storage == .int64(10))
        #expect(NSNumber(value: Int8(-3)).databaseValue.storage == .int64(-3))
        #expect(NSNumber(value: Int64.max).databaseValue.storage == .int64(Int64.max))
        #expect(NSNumber(value: UInt32.max).databaseValue.storage == .int64(Int64(UInt32.max)))
        #expect(NSNumber(value: true).databaseValue.storage == .int64(1))
        #expect(NSNumber(value: false).databaseValue.storage == .int64(0))
        #expect(NSNumber(value: 10.0).databaseValue.storage == .double(10))
        #expect(NSNumber(value: Float(1.5)).databaseValue.storage == .double(1.5))
        #expect(NSNumber(value: UInt64.max).databaseValue.storage == .double(Double(UInt64.max)))
    }

    @Test func decimalNumbersWriteIntegersWhenIntegral() {
        #expect(NSDecimalNumber(string: "10.0").databaseValue.storage == .int64(10))
        #expect(NSDecimalNumber(string: "-42").databaseValue.storage == .int64(-42))
        #expect(NSDecimalNumber(string: "10.5").databaseValue.storage == .double(10.5))
        #expect(NSDecimalNumber(string: "1e30").databaseValue.storage == .double(1e30))
        #expect(NSDecimalNumber(string: "9223372036854775807").databaseValue.storage == .int64(Int64.max))
    }

    @Test func documentationExamples() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE transfer (amount)")
            try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [NSNumber(value: 10)])
            try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [NSNumber(value: 10.0)])
            try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [NSDecimalNumber(string: "10.0")])
            try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [NSDecimalNumber(string: "10.5")])
            #expect(
                try String.fetchAll(db, sql: "SELECT typeof(amount) || ':' || amount FROM transfer")
                    == ["integer:10", "real:10.0", "integer:10", "real:10.5"])

            let ten = try #require(try NSNumber.fetchOne(db, sql: "SELECT 10"))
            #expect(ten.int64Value == 10)
            #expect(!(ten is NSDecimalNumber))
            let double = try #require(try NSNumber.fetchOne(db, sql: "SELECT 1.5"))
            #expect(double.doubleValue == 1.5)

            let decimal = try #require(try NSDecimalNumber.fetchOne(db, sql: "SELECT 1.23"))
            #expect(decimal == NSDecimalNumber(string: "1.23"))
            let decimalInt = try #require(try NSDecimalNumber.fetchOne(db, sql: "SELECT 10"))
            #expect(decimalInt == NSDecimalNumber(string: "10"))

            // Strings decode as NSDecimalNumber, even for NSNumber (sic).
            let fromString = try #require(try NSNumber.fetchOne(db, sql: "SELECT '10'"))
            #expect(fromString is NSDecimalNumber)
            #expect(fromString.int64Value == 10)
            #expect(try NSDecimalNumber.fetchOne(db, sql: "SELECT '1.23'") == NSDecimalNumber(string: "1.23"))

            #expect(throws: RowDecodingError.self) { try NSNumber.fetchOne(db, sql: "SELECT 'ten'") }
            #expect(throws: RowDecodingError.self) { try NSNumber.fetchOne(db, sql: "SELECT x'00'") }
            #expect(try NSNumber.fetchOne(db, sql: "SELECT NULL") == nil)
        }
    }
}

struct NSStringTests {
    @Test func behavesLikeString() throws {
        #expect(NSString(string: "foo").databaseValue == "foo".databaseValue)
        #expect(NSString.fromDatabaseValue("foo".databaseValue) == NSString(string: "foo"))
        #expect(NSString.fromDatabaseValue(1.databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try NSString.fetchOne(db, sql: "SELECT ?", arguments: [NSString(string: "héllo")]) == "héllo")
            let mutable = try #require(try NSMutableString.fetchOne(db, sql: "SELECT 'abc'"))
            mutable.append("d")
            #expect(mutable == "abcd")
        }
    }
}

struct NSDataTests {
    @Test func behavesLikeData() throws {
        let bytes = Data([0, 1, 2, 255])
        #expect(NSData(data: bytes).databaseValue == bytes.databaseValue)
        #expect(NSData.fromDatabaseValue(bytes.databaseValue) == NSData(data: bytes))
        #expect(NSData.fromDatabaseValue("ab".databaseValue) == NSData(data: Data("ab".utf8)))
        #expect(NSData.fromDatabaseValue(1.databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try NSData.fetchOne(db, sql: "SELECT ?", arguments: [NSData(data: bytes)]) == NSData(data: bytes))
            let mutable = try #require(try NSMutableData.fetchOne(db, sql: "SELECT x'0102'"))
            #expect(mutable.length == 2)
        }
    }
}

struct NSDateTests {
    @Test func behavesLikeDate() throws {
        // 2013-10-07 08:23:19.120 UTC, the nearest instant (as dates are read).
        let date = NSDate(timeIntervalSinceReferenceDate: 402_826_999.12)
        #expect(date.databaseValue == "2013-10-07 08:23:19.120".databaseValue)
        #expect(NSDate.fromDatabaseValue("2013-10-07 08:23:19.120".databaseValue) == date)
        #expect(NSDate.fromDatabaseValue(0.databaseValue) == NSDate(timeIntervalSince1970: 0))
        #expect(NSDate.fromDatabaseValue("yesterday".databaseValue) == nil)
        #expect(try selectedBack(date) == date)
    }
}

struct NSURLTests {
    @Test func behavesLikeURL() throws {
        let url = NSURL(string: "https://example.com/a?b=c")!
        #expect(url.databaseValue == "https://example.com/a?b=c".databaseValue)
        #expect(
            NSURL.fromDatabaseValue("https://example.com/a?b=c".databaseValue)?.absoluteString == url.absoluteString)
        #expect(NSURL.fromDatabaseValue("".databaseValue) == nil)
        #expect(NSURL.fromDatabaseValue(1.databaseValue) == nil)
        #expect(try selectedBack(url)?.absoluteString == url.absoluteString)
    }
}

struct NSUUIDTests {
    @Test func behavesLikeUUID() throws {
        let uuid = NSUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        #expect(uuid.databaseValue == (uuid as UUID).databaseValue)
        #expect(NSUUID.fromDatabaseValue("E621E1F8-C36C-495A-93FC-0C247A3E6E5F".databaseValue) == uuid)
        #expect(NSUUID.fromDatabaseValue((uuid as UUID).databaseValue) == uuid)
        #expect(NSUUID.fromDatabaseValue("nope".databaseValue) == nil)
        #expect(try selectedBack(uuid) == uuid)
    }
}

struct NSNullTests {
    @Test func behavesLikeNULL() throws {
        #expect(NSNull().databaseValue == .null)
        #expect(NSNull.fromDatabaseValue(.null) == nil)
        #expect(NSNull.fromDatabaseValue(0.databaseValue) == nil)
        #expect(DatabaseValue(value: NSNull()) == .null)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT ? IS NULL", arguments: [NSNull()]) == 1)
        }
    }
}
