import Foundation
import Strata
import StrataTestSupport
import Testing

// The message and description of errors created by the app or by Strata.

struct DatabaseErrorTextTests {
    @Test("B22: a DatabaseError created without a message has SQLite's text for its code")
    func errorWithoutMessageHasTheCodeText() {
        #expect(DatabaseError().message == "SQL logic error")
        #expect(DatabaseError(resultCode: .SQLITE_BUSY).message == "database is locked")
        #expect(DatabaseError(resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY).message == "constraint failed")
        #expect(DatabaseError(resultCode: .SQLITE_BUSY, message: "mine").message == "mine")
        #expect(DatabaseError(resultCode: .SQLITE_BUSY).description == "SQLite error 5: database is locked")
    }

    @Test("B46: the wrong number of statement arguments error of several statements names no SQL")
    func leftoverArgumentsErrorHasNoSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            for (sql, arguments, count) in [("", [1], 1), ("SELECT ?; SELECT ?", [1, 2, 3], 3)] {
                do {
                    try db.execute(sql: sql, arguments: StatementArguments(arguments))
                    Issue.record("Expected an error")
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .SQLITE_MISUSE)
                    #expect(error.message == "wrong number of statement arguments: \(count)")
                    #expect(error.description == "SQLite error 21: wrong number of statement arguments: \(count)")
                }
            }
        }
    }
}
