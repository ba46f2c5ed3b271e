import Foundation
import Strata
import StrataTestSupport
import Testing

// Item 2: NULL is a value, a missing row is nil.

struct NullFetchingTests {
    @Test func databaseValueFetchesNULLAsAValue() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT NULL") == .some(.null))
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
            #expect(try DatabaseValue.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 1") == [.null, 1.databaseValue])
            #expect(try DatabaseValue.fetchOne(db, SQLRequest(sql: "SELECT NULL")) == .some(.null))
        }
    }

    @Test func optionalFetchOneTellsNULLFromNoRow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT NULL") == .some(nil))
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT 1") == .some(1))
            #expect(try Optional<String>.fetchOne(db, SQLRequest(sql: "SELECT NULL")) == .some(nil))
            // Without the optional, NULL and no row are both nil.
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
        }
    }

    @Test func optionalAsksWrappedFirst() {
        #expect(Optional<DatabaseValue>.fromDatabaseValue(.null) == .some(.some(.null)))
        #expect(Optional<Int>.fromDatabaseValue(.null) == .some(nil))
        #expect(Optional<Int>.fromDatabaseValue(1.databaseValue) == .some(1))
        #expect(Optional<Int>.fromDatabaseValue("x".databaseValue) == nil)
        #expect(Optional<Int?>.fromDatabaseValue(.null) == .some(.some(nil)))
    }

    @Test func customFunctionReturningNULLIsReadAsNULL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            db.add(function: DatabaseFunction("nullResult", argumentCount: 0, pure: true) { _ in nil })
            db.add(function: DatabaseFunction("noInt", argumentCount: 0, pure: true) { _ in Int?.none })
            db.add(function: DatabaseFunction("nullValue", argumentCount: 0, pure: true) { _ in DatabaseValue.null })
            for name in ["nullResult", "noInt", "nullValue"] {
                #expect(try DatabaseValue.fetchOne(db, sql: "SELECT \(name)()") == .some(.null))
                #expect(try Optional<Int>.fetchOne(db, sql: "SELECT \(name)()") == .some(nil))
                #expect(try Bool.fetchOne(db, sql: "SELECT \(name)() IS NULL") == true)
            }
        }
    }
}
