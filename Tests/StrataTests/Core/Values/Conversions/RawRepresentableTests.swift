import Foundation
import Strata
import StrataTestSupport
import Testing

private enum Color: Int {
    case red, white, rose
}

private enum Grape: String {
    case chardonnay, merlot, riesling
}

private enum Fast: Int64 {
    case one = 1, two = 2
}

private enum CodableGrape: String, Codable {
    case chardonnay, merlot
}

private struct Name: RawRepresentable, Hashable {
    var rawValue: String
}

extension Color: DatabaseValueConvertible {}
extension Grape: DatabaseValueConvertible {}
extension Fast: DatabaseValueConvertible, StatementColumnConvertible {}
extension CodableGrape: DatabaseValueConvertible {}
extension Name: DatabaseValueConvertible {}

struct RawRepresentableTests {
    @Test func storesRawValues() {
        #expect(Color.rose.databaseValue == 2.databaseValue)
        #expect(Grape.merlot.databaseValue == "merlot".databaseValue)
        #expect(Name(rawValue: "Arthur").databaseValue == "Arthur".databaseValue)
    }

    @Test func decodesRawValues() {
        #expect(Color.fromDatabaseValue(1.databaseValue) == .white)
        #expect(Color.fromDatabaseValue(1.0.databaseValue) == .white)
        #expect(Grape.fromDatabaseValue("riesling".databaseValue) == .riesling)
        #expect(Name.fromDatabaseValue("Arthur".databaseValue) == Name(rawValue: "Arthur"))
    }

    @Test func unknownRawValuesDoNotDecode() {
        #expect(Color.fromDatabaseValue(3.databaseValue) == nil)
        #expect(Color.fromDatabaseValue("red".databaseValue) == nil)
        #expect(Grape.fromDatabaseValue("syrah".databaseValue) == nil)
        #expect(Grape.fromDatabaseValue(.null) == nil)
        #expect(Fast.fromDatabaseValue(3.databaseValue) == nil)
    }

    @Test func documentationExample() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE wine (grape TEXT, color INTEGER)")
            try db.execute(
                sql: "INSERT INTO wine (grape, color) VALUES (?, ?)", arguments: [Grape.merlot, Color.red])
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM wine")
            while let row = try rows.next() {
                let grape: Grape = row["grape"]
                let color: Color = row["color"]
                #expect(grape == .merlot)
                #expect(color == .red)
            }
            #expect(try Grape.fetchAll(db, sql: "SELECT grape FROM wine") == [.merlot])

            let row = try Row.fetchOne(db, sql: "SELECT 'syrah'")!
            #expect(row[0] as String == "syrah")
            #expect(throws: RowDecodingError.self) { try row.decode(Grape.self, atIndex: 0) }
            #expect(throws: RowDecodingError.self) { try row.decode(Grape?.self, atIndex: 0) }
            let dbValue: DatabaseValue = row[0]
            #expect(!dbValue.isNull)
            #expect(Grape.fromDatabaseValue(dbValue) == nil)
            #expect(throws: RowDecodingError.self) { try Grape.fetchOne(db, sql: "SELECT 'syrah'") }
        }
    }

    @Test func statementColumnFastPath() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            for sql in ["SELECT 1", "SELECT 2", "SELECT 3", "SELECT 2.0"] {
                let decoded = try decodeBothWays(Fast.self, db, sql: sql)
                #expect(decoded.agree, "\(sql)")
            }
            #expect(try Fast.fetchAll(db, sql: "SELECT 2 UNION ALL SELECT 1") == [.two, .one])
            #expect(throws: RowDecodingError.self) { try Fast.fetchAll(db, sql: "SELECT 3") }
            #expect(try Fast?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 1") == [nil, .one])
        }
    }

    @Test func codableEnumsAreStoredAsRawValuesNotJSON() throws {
        #expect(CodableGrape.merlot.databaseValue == "merlot".databaseValue)
        #expect(CodableGrape.fromDatabaseValue("chardonnay".databaseValue) == .chardonnay)
        #expect(CodableGrape.fromDatabaseValue(#""chardonnay""#.databaseValue) == nil)
    }
}
