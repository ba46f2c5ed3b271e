import Foundation
import Strata
import StrataTestSupport
import Testing

// Item 8: an error without message describes itself with SQLite's text for
// its result code, and so does a function that throws it.

private struct FailingAggregate: DatabaseAggregate {
    mutating func step(_ dbValues: [DatabaseValue]) throws {
        throw DatabaseError(resultCode: .SQLITE_MISMATCH)
    }

    func finalize() throws -> (any DatabaseValueConvertible)? { nil }
}

struct DatabaseErrorCodeTextTests {
    @Test func errorWithoutMessageUsesSQLiteText() {
        let error = DatabaseError(resultCode: .SQLITE_CONSTRAINT)
        #expect(error.description == "SQLite error 19: constraint failed")
        #expect(DatabaseError(resultCode: .SQLITE_BUSY).description == "SQLite error 5: database is locked")
        #expect(DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "mine").description == "SQLite error 19: mine")
    }

    @Test func throwingFunctionFailsWithSQLiteText() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            db.add(
                function: DatabaseFunction("fail", argumentCount: 0) { _ in
                    throw DatabaseError(resultCode: .SQLITE_CONSTRAINT)
                })
            db.add(function: DatabaseFunction("failAggregate", argumentCount: 1, aggregate: FailingAggregate.self))
            let functionError = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT fail()") }
            #expect(functionError?.resultCode == .SQLITE_CONSTRAINT)
            #expect(functionError?.message == "constraint failed")
            let aggregateError = #expect(throws: DatabaseError.self) {
                try Int.fetchOne(db, sql: "SELECT failAggregate(1)")
            }
            #expect(aggregateError?.resultCode == .SQLITE_MISMATCH)
            #expect(aggregateError?.message == "datatype mismatch")
        }
    }
}
