import Foundation
import Strata
import StrataTestSupport
import Testing

/// Transactions of the wrapping methods (`write`, `inTransaction`,
/// `inSavepoint`) that end behind their back, read-only transactions, empty
/// transactions, savepoint names, and reentrant reads from a pool's writer.
struct TransactionWrapperTests {
    private func makeQueue() throws -> DatabaseQueue {
        try makeLoggedQueue().0
    }

    /// A queue with the table `t`, and the log of its statements, empty once
    /// the table is created.
    private func makeLoggedQueue() throws -> (DatabaseQueue, SQLLog) {
        let log = SQLLog()
        let dbQueue = try inMemoryDatabase("CREATE TABLE t(a UNIQUE ON CONFLICT ROLLBACK)", recordingIn: log)
        return (dbQueue, log)
    }

    // MARK: - Aborted transactions (item 3)

    @Test("A constraint that rolls back aborts the rest of the write and its commit")
    func onConflictRollbackAbortsTheWrite() throws {
        let dbQueue = try makeQueue()
        var later: DatabaseError?
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                do {
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                } catch {}
                do {
                    try db.execute(sql: "INSERT INTO t VALUES (2)")
                } catch let error as DatabaseError {
                    later = error
                }
            }
        }
        #expect(later?.resultCode == .SQLITE_ABORT)
        #expect(later?.message == "Transaction was aborted")
        #expect(error?.resultCode == .SQLITE_ABORT)
        #expect(error?.isInterruptionError == true)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
        // The next access is not aborted.
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t VALUES (3)") }
    }

    @Test("The user's own ROLLBACK aborts inTransaction and inSavepoint")
    func userRollbackAborts() throws {
        let dbQueue = try makeQueue()
        try dbQueue.writeWithoutTransaction { db in
            let error = #expect(throws: DatabaseError.self) {
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                    try db.execute(sql: "ROLLBACK")
                    return .commit
                }
            }
            #expect(error?.resultCode == .SQLITE_ABORT)
            // Outside of the wrapping method, statements run again.
            try db.execute(sql: "INSERT INTO t VALUES (2)")
        }
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.inSavepoint {
                    try db.execute(sql: "ROLLBACK")
                    try db.execute(sql: "INSERT INTO t VALUES (3)")
                    return .commit
                }
            }
        }
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT a FROM t") } == [2])
    }

    @Test("A wrapping method that returns .rollback after an abort does not throw")
    func rollbackAfterAbort() throws {
        let dbQueue = try makeQueue()
        try dbQueue.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "ROLLBACK")
                return .rollback
            }
        }
    }

    // MARK: - Read-only transactions (item 4)

    @Test("read forbids writes before BEGIN DEFERRED")
    func readStatements() throws {
        let (dbQueue, log) = try makeLoggedQueue()
        _ = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
        #expect(
            log.statements() == [
                "PRAGMA query_only = 1", "BEGIN DEFERRED TRANSACTION", "SELECT COUNT(*) FROM t",
                "COMMIT TRANSACTION", "PRAGMA query_only = 0",
            ])
    }

    @Test("Transactions opened inside readOnly are DEFERRED")
    func transactionsInsideReadOnly() throws {
        let (dbQueue, log) = try makeLoggedQueue()
        try dbQueue.writeWithoutTransaction { db in
            try db.readOnly {
                log.clear()
                try db.inTransaction {
                    _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
                    return .commit
                }
                #expect(log.statements().first == "BEGIN DEFERRED TRANSACTION")
            }
            try db.inTransaction { .commit }
            #expect(log.statements().contains("BEGIN IMMEDIATE TRANSACTION"))
        }
    }

    // MARK: - Empty transactions (item 5)

    @Test("afterNextTransaction reports empty transactions and savepoints")
    func afterNextEmptyTransaction() throws {
        let dbQueue = try makeQueue()
        let outcomes = LockedBox<[String]>([])
        try dbQueue.writeWithoutTransaction { db in
            db.afterNextTransaction(
                onCommit: { _ in outcomes.append("commit") }, onRollback: { _ in outcomes.append("rollback") })
            try db.execute(sql: "BEGIN DEFERRED; COMMIT")
            db.afterNextTransaction(
                onCommit: { _ in outcomes.append("commit") }, onRollback: { _ in outcomes.append("rollback") })
            try db.execute(sql: "SAVEPOINT s; RELEASE s")
            db.afterNextTransaction(
                onCommit: { _ in outcomes.append("commit") }, onRollback: { _ in outcomes.append("rollback") })
            try db.execute(sql: "BEGIN; ROLLBACK")
        }
        try dbQueue.write { db in
            db.afterNextTransaction(onCommit: { _ in outcomes.append("write") })
        }
        #expect(outcomes.value == ["commit", "commit", "rollback", "write"])
    }

    // MARK: - Savepoints and pools (item 6)

    @Test("Nested savepoints are named grdb")
    func savepointName() throws {
        let (dbQueue, log) = try makeLoggedQueue()
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                return .commit
            }
        }
        #expect(
            log.statements() == [
                "BEGIN IMMEDIATE TRANSACTION", "SAVEPOINT grdb", "INSERT INTO t VALUES (1)", "RELEASE SAVEPOINT grdb",
                "COMMIT TRANSACTION",
            ])
    }

    @Test("unsafeReentrantRead inside a pool's write reads through the writer")
    func reentrantReadInPoolWrite() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        let count = try dbPool.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            // Uncommitted: only the writer sees it.
            return try dbPool.unsafeReentrantRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
        }
        #expect(count == 1)
    }
}
