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
            do {
                _ = try Int.fetchOne(db, sql: "SELECT fail()")
                Issue.record("Expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.message == "constraint failed")
            }
            do {
                _ = try Int.fetchOne(db, sql: "SELECT failAggregate(1)")
                Issue.record("Expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_MISMATCH)
                #expect(error.message == "datatype mismatch")
            }
        }
    }
}
