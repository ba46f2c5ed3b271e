import Foundation
import Strata
import StrataTestSupport
import Testing

struct EvenInteger {
    let value: Int
    init?(_ value: Int) {
        guard value.isMultiple(of: 2) else { return nil }
        self.value = value
    }
}

extension EvenInteger: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { value.databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let value = Int.fromDatabaseValue(dbValue) else { return nil }
        return EvenInteger(value)
    }
}

extension EvenInteger: StatementColumnConvertible {
    init?(sqliteStatement: SQLiteStatement, index: CInt) {
        let int64 = sqlite3_column_int64(sqliteStatement, index)
        guard let value = Int(exactly: int64) else { return nil }
        self.init(value)
    }
}

struct DatabaseValueTests {
    @Test func storage() {
        #expect(DatabaseValue.null.isNull)
        #expect(1.databaseValue.storage == .int64(1))
        #expect(1.5.databaseValue.storage == .double(1.5))
        #expect("a".databaseValue.storage == .string("a"))
        #expect(Data([1]).databaseValue.storage == .blob(Data([1])))
        #expect(DatabaseValue.null.storage.value == nil)
        #expect(1.databaseValue.storage.value as? Int64 == 1)
        #expect(1.databaseValue == 1.0.databaseValue)
        #expect(1.databaseValue.hashValue == 1.0.databaseValue.hashValue)
        #expect(1.databaseValue != "1".databaseValue)
        #expect(DatabaseValue(value: 1) == 1.databaseValue)
        #expect(DatabaseValue(value: NSNull()) == .null)
        #expect(DatabaseValue(value: NSObject()) == nil)
        #expect(DatabaseValue(value: Optional<Int>.none as Any) == .null)
        #expect([1.databaseValue, "Bobby".databaseValue, .null].description == "[1, \"Bobby\", NULL]")
    }

    @Test func readingNeverFails() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try Row.fetchOne(db, sql: "SELECT NULL AS a, 1 AS b, 1.5 AS c, 'x' AS d, x'00' AS e")!
            #expect(row["a"] as DatabaseValue == .null)
            #expect((row["b"] as DatabaseValue).storage == .int64(1))
            #expect((row["c"] as DatabaseValue).storage == .double(1.5))
            #expect((row["d"] as DatabaseValue).storage == .string("x"))
            #expect((row["e"] as DatabaseValue).storage == .blob(Data([0])))
            #expect(row["z"] as DatabaseValue? == nil)
        }
    }

    @Test func standardConversions() throws {
        #expect(Bool.fromDatabaseValue(0.databaseValue) == false)
        #expect(Bool.fromDatabaseValue(2.databaseValue) == true)
        #expect(Bool.fromDatabaseValue(0.5.databaseValue) == true)
        #expect(Bool.fromDatabaseValue("true".databaseValue) == nil)
        #expect(Int.fromDatabaseValue(1.9.databaseValue) == 1)
        #expect(Double.fromDatabaseValue(2.databaseValue) == 2)
        #expect(Float.fromDatabaseValue(2.databaseValue) == 2)
        #expect(String.fromDatabaseValue(1.databaseValue) == nil)
        #expect(Int16.fromDatabaseValue(40000.databaseValue) == nil)
        #expect(UInt64.fromDatabaseValue((-1).databaseValue) == nil)
        #expect(Int?.fromDatabaseValue(DatabaseValue.null) == .some(nil))
        #expect(Int?.fromDatabaseValue("x".databaseValue) == nil)
        #expect("a\"b".quotedDatabaseIdentifier == "\"a\"\"b\"")

        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            // SQLite weak typing: text is converted by the fast path...
            #expect(try Int.fetchOne(db, sql: "SELECT '20 small cigars'") == 20)
            // ...but not through DatabaseValue.
            let dbValue = try DatabaseValue.fetchOne(db, sql: "SELECT '20 small cigars'")!
            #expect(Int.fromDatabaseValue(dbValue) == nil)
            #expect(
                try Bool.fetchAll(db, sql: "SELECT 0 UNION ALL SELECT 1 UNION ALL SELECT 2") == [false, true, true])
            #expect(try Data.fetchOne(db, sql: "SELECT x'0102'") == Data([1, 2]))
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [""]) == "")
            #expect(try Data.fetchOne(db, sql: "SELECT ?", arguments: [Data()]) == Data())
            #expect(try Int64.fetchOne(db, sql: "SELECT ?", arguments: [Int64.max]) == Int64.max)
            #expect(try UInt64.fetchOne(db, sql: "SELECT ?", arguments: [UInt64(Int64.max)]) == UInt64(Int64.max))
            #expect(try Float.fetchOne(db, sql: "SELECT 1.5") == 1.5)
        }
    }

    @Test func customValueTypes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (v INTEGER)")
            try db.execute(sql: "INSERT INTO t VALUES (?), (?)", arguments: [EvenInteger(2)!, EvenInteger(4)!])
            #expect(try EvenInteger.fetchAll(db, sql: "SELECT v FROM t").map(\.value) == [2, 4])
            #expect(try EvenInteger?.fetchAll(db, sql: "SELECT NULL").count == 1)
            try db.execute(sql: "INSERT INTO t VALUES (3)")
            #expect(throws: RowDecodingError.self) { try EvenInteger.fetchAll(db, sql: "SELECT v FROM t") }
            let rows = try Row.fetchCursor(db, sql: "SELECT v FROM t WHERE v = 3")
            while let row = try rows.next() {
                #expect(throws: RowDecodingError.self) { try row.decode(EvenInteger.self, atIndex: 0) }
                let dbValue: DatabaseValue = row[0]
                #expect(EvenInteger.fromDatabaseValue(dbValue) == nil)
            }
        }
    }

    @Test func valueFetchingMethods() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (v); INSERT INTO t VALUES (1), (2), (2), (NULL)")
            let statement = try db.makeStatement(sql: "SELECT v FROM t WHERE v IS NOT NULL ORDER BY v")
            #expect(try Int.fetchAll(statement) == [1, 2, 2])
            #expect(try Int.fetchSet(statement) == [1, 2])
            #expect(try Int.fetchOne(statement) == 1)
            let cursor = try Int.fetchCursor(statement)
            #expect(try cursor.next() == 1)
            #expect(cursor.sql == "SELECT v FROM t WHERE v IS NOT NULL ORDER BY v")
            #expect(cursor.columnNames == ["v"])
            #expect(cursor.columnCount == 1)
            #expect(try Int?.fetchAll(db, sql: "SELECT v FROM t ORDER BY v") == [nil, 1, 2, 2])
            #expect(try DatabaseValue.fetchAll(db, sql: "SELECT v FROM t ORDER BY v").first == .null)
            #expect(try String.fetchSet(db, sql: "SELECT 'a' UNION ALL SELECT 'a'") == ["a"])
            let request = SQLRequest<Int>(sql: "SELECT v FROM t WHERE v > ?", arguments: [1])
            #expect(try Int.fetchAll(db, request) == [2, 2])
            #expect(try Int.fetchOne(db, request) == 2)
            #expect(try Int.fetchSet(db, request) == [2])
            #expect(try Int.fetchCursor(db, request).next() == 2)
        }
    }
}
