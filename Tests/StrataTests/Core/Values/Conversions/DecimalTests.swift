import Foundation
import Strata
import StrataTestSupport
import Testing

struct DecimalTests {
    @Test func storesDecimalStrings() {
        #expect(Decimal(10).databaseValue == "10".databaseValue)
        #expect(Decimal(string: "10.5")!.databaseValue == "10.5".databaseValue)
        #expect(Decimal(string: "-0.001")!.databaseValue == "-0.001".databaseValue)
        #expect(Decimal(string: "10.0")!.databaseValue == "10".databaseValue)
    }

    @Test func documentationExamples() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE transfer (amount)")
            try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [Decimal(10)])
            try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [Decimal(string: "10.5")!])
            #expect(try String.fetchAll(db, sql: "SELECT amount FROM transfer") == ["10", "10.5"])
            #expect(try String.fetchAll(db, sql: "SELECT typeof(amount) FROM transfer") == ["text", "text"])
            #expect(try Decimal.fetchOne(db, sql: "SELECT -100") == Decimal(-100))
            #expect(try Decimal.fetchOne(db, sql: "SELECT 1.23") == Decimal(string: "1.23"))
            #expect(try Decimal.fetchOne(db, sql: "SELECT '-100'") == Decimal(-100))
        }
    }

    static let decodable: [(DatabaseValue, String)] = [
        (0.databaseValue, "0"),
        (Int64.max.databaseValue, "9223372036854775807"),
        (Int64.min.databaseValue, "-9223372036854775808"),
        (1.23.databaseValue, "1.23"),
        ((-0.1).databaseValue, "-0.1"),
        (1e20.databaseValue, "100000000000000000000"),
        (1e-7.databaseValue, "0.0000001"),
        ("10.5".databaseValue, "10.5"),
        ("-100".databaseValue, "-100"),
        ("+7".databaseValue, "7"),
        (".5".databaseValue, "0.5"),
        ("5.".databaseValue, "5"),
        ("1e3".databaseValue, "1000"),
        ("1.5E-2".databaseValue, "0.015"),
        ("123456789012345678.123456789".databaseValue, "123456789012345678.123456789"),
    ]

    @Test(arguments: decodable)
    func decodes(dbValue: DatabaseValue, expected: String) throws {
        let expected = Decimal(string: expected)!
        #expect(Decimal.fromDatabaseValue(dbValue) == expected)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let decoded = try decodeBothWays(Decimal.self, db, sql: "SELECT ?", arguments: [dbValue])
            #expect(decoded.agree)
            #expect(decoded.fast == expected)
        }
    }

    static let invalid: [DatabaseValue] = [
        .null, "".databaseValue, "abc".databaseValue, "10abc".databaseValue, "1e".databaseValue,
        ".".databaseValue, "-".databaseValue, "1.2.3".databaseValue, " 1".databaseValue, "1 ".databaseValue,
        "NaN".databaseValue, "0x10".databaseValue, "1,5".databaseValue, Data("1".utf8).databaseValue,
    ]

    @Test(arguments: invalid)
    func invalidValuesDoNotDecode(dbValue: DatabaseValue) throws {
        #expect(Decimal.fromDatabaseValue(dbValue) == nil)
        #expect(try decodesInNoWay(Decimal.self, dbValue))
    }

    @Test func roundTripKeepsPrecision() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            for string in ["0.1", "3.133", "-12345678901234567890.0987654321", "0.000000000000000000001"] {
                let decimal = Decimal(string: string)!
                #expect(try Decimal.fetchOne(db, sql: "SELECT ?", arguments: [decimal]) == decimal)
            }
        }
    }

    /// A REAL column decodes to the very decimal `Decimal(_: Double)` builds,
    /// byte for byte (exponent, length, flags and mantissa), whichever way it
    /// is read: Strata builds it without Foundation's slow path on Linux.
    @Test func doublesDecodeToFoundationsDecimalByteForByte() throws {
        func bytes(_ decimal: Decimal?) -> [UInt8]? {
            decimal.map { value in withUnsafeBytes(of: value) { Array($0) } }
        }
        var generator = SeededGenerator(seed: 46)
        var doubles: [Double] = [
            0.5, -0.5, 1e-99, 1e-100, 1e99, 1e100, 1.7976931348623157e308, .leastNonzeroMagnitude, 0.1, 2.675,
        ]
        for cents in 0..<200_000 { doubles.append(Double(cents) / 100 + 0.001) }
        for _ in 0..<200_000 { doubles.append(Double.random(in: -1e7...1e7, using: &generator)) }
        for _ in 0..<100_000 {
            let double = Double(bitPattern: generator.next())
            if double.isFinite { doubles.append(double) }
        }
        for power in -130...130 {
            for _ in 0..<100 {
                doubles.append(Double.random(in: 1..<10, using: &generator) * pow(10, Double(power)))
            }
        }
        var mismatches: [Double] = []
        for double in doubles where Int64(exactly: double) == nil {
            if bytes(Decimal.fromDatabaseValue(double.databaseValue)) != bytes(Decimal(double)) {
                mismatches.append(double)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sample = doubles.prefix(2_000).filter { Int64(exactly: $0) == nil }
            let statement = try db.makeStatement(sql: "SELECT ?")
            for double in sample {
                let decoded = try Decimal.fetchOne(statement, arguments: [double])
                #expect(bytes(decoded) == bytes(Decimal(double)), "\(double)")
            }
        }
    }
}
