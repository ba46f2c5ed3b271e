import Testing

@testable import Strata
import StrataTestSupport

/// ``Statement/isRollback``, computed once when the statement is compiled.
@Suite("Statements that roll back")
struct StatementRollbackTests {
    @Test(
        "ROLLBACK and ROLLBACK TO, in any case, roll back; other statements don't",
        arguments: [
            ("ROLLBACK", true), ("rollback transaction", true), ("RollBack To Savepoint s", true),
            ("BEGIN", false), ("COMMIT", false), ("RELEASE SAVEPOINT s", false), ("SAVEPOINT s", false),
            ("SELECT 'ROLLBACK'", false),
        ])
    func isRollback(_ sql: String, _ expected: Bool) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "BEGIN; SAVEPOINT s")
            let statement = try db.makeStatement(sql: sql)
            #expect(statement.isRollback == expected)
            try db.execute(sql: "ROLLBACK")
        }
    }
}
