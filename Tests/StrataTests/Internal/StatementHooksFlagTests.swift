import Foundation
import Testing

@testable import Strata
import StrataTestSupport

/// `Database.statementsNeedHooks`, which lets most executions skip the
/// connection's full work around each statement (issue 34): it follows
/// every property it stands for, and the statements that skip the full
/// work still stop where they must.
struct StatementHooksFlagTests {
    @Test("The flag is off on a plain connection, and on while a region is recorded or once an observer was added")
    func flagFollowsTheConnection() throws {
        try inMemoryWrite("CREATE TABLE t(a)") { db in
            #expect(!db.statementsNeedHooks)
            let statement = try db.cachedStatement(sql: "INSERT INTO t(a) VALUES (?)")
            let (_, region) = try db.recordingSelectedRegion {
                #expect(db.statementsNeedHooks)
                try statement.execute(arguments: [1])
                // Nested recordings restore the outer one.
                _ = try db.recordingSelectedRegion { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
                #expect(db.statementsNeedHooks)
            }
            // The execution that skipped nothing recorded its table.
            #expect(region.isModified(byEventsOfKind: .insert(tableName: "t")))
            #expect(!db.statementsNeedHooks)
            try statement.execute(arguments: [2])
            db.add(transactionObserver: LoggingObserver(), extent: .nextTransaction)
            #expect(db.statementsNeedHooks)
        }
    }

    @Test("The flag is on for connections with integrations or a suspension observer")
    func flagWithIntegrationsOrSuspension() throws {
        var configuration = Configuration()
        configuration.statementStatistics = StatementStatisticsCollector()
        try DatabaseQueue(configuration: configuration).write { db in #expect(db.statementsNeedHooks) }
        var suspending = Configuration()
        suspending.observesSuspensionNotifications = true
        try DatabaseQueue(configuration: suspending).write { db in #expect(db.statementsNeedHooks) }
    }

    @Test("Without hooks, a statement after a ROLLBACK behind a wrapping method's back still throws SQLITE_ABORT")
    func abortedTransactionWithoutHooks() throws {
        let dbQueue = try inMemoryDatabase("CREATE TABLE t(a)")
        var later: DatabaseError?
        // The write's commit fails too: its transaction is gone.
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                #expect(!db.statementsNeedHooks)
                let statement = try db.cachedStatement(sql: "INSERT INTO t(a) VALUES (?)")
                try statement.execute(arguments: [1])
                // Not through Strata: the connection does not see it end.
                #expect(sqlite3_exec(db.sqliteConnection, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
                do {
                    try statement.execute(arguments: [2])
                } catch let error as DatabaseError {
                    later = error
                }
            }
        }
        #expect(later?.resultCode == .SQLITE_ABORT)
        #expect(later?.message == "Transaction was aborted")
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }
}
