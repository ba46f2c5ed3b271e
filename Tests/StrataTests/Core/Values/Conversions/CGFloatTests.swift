import Foundation
import Strata
import StrataTestSupport
import Testing

struct CGFloatTests {
    @Test func storesDoubles() {
        #expect(CGFloat(1.5).databaseValue == 1.5.databaseValue)
        #expect(CGFloat(-2).databaseValue.storage == .double(-2))
    }

    @Test func decodesNumbers() {
        #expect(CGFloat.fromDatabaseValue(1.5.databaseValue) == 1.5)
        #expect(CGFloat.fromDatabaseValue(3.databaseValue) == 3)
        #expect(CGFloat.fromDatabaseValue("1.5".databaseValue) == nil)
        #expect(CGFloat.fromDatabaseValue(.null) == nil)
    }

    @Test func roundTrip() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try CGFloat.fetchOne(db, sql: "SELECT ?", arguments: [CGFloat(0.25)]) == 0.25)
            let row = try Row.fetchOne(db, sql: "SELECT 2 AS width")!
            #expect(row["width"] as CGFloat == 2)
        }
    }
}
