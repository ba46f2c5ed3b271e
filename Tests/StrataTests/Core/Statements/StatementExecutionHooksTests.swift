import Foundation
import Strata
import StrataTestSupport
import Testing

// The executions of a reused statement: the arguments it keeps when new ones
// are refused, and the transaction observers that hear of each execution,
// as observers come and go between executions of a cached statement.

struct StatementExecutionHooksTests {
    @Test("execute(arguments:) with refused arguments keeps the previous ones, which execute() binds again")
    func refusedArgumentsKeepThePreviousOnes() throws {
        try inMemoryWrite("CREATE TABLE t(a, b)") { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO t(a, b) VALUES (?, ?)")
            try statement.execute(arguments: [1, "one"])
            let error = try #require(throws: DatabaseError.self) { try statement.execute(arguments: [2]) }
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.message == "wrong number of statement arguments: 1")
            #expect(statement.arguments == [1, "one"])
            try statement.execute()
            let named = try db.cachedStatement(sql: "INSERT INTO t(a, b) VALUES (:a, :b)")
            try named.execute(arguments: ["a": 3, "b": "three"])
            let namedError = try #require(throws: DatabaseError.self) { try named.execute(arguments: ["a": 4]) }
            #expect(namedError.message == "missing statement argument(s): b")
            #expect(named.arguments == ["a": 3, "b": "three"])
            try named.execute()
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY rowid").map { Array($0.databaseValues) }
            let one: [DatabaseValue] = [1.databaseValue, "one".databaseValue]
            let three: [DatabaseValue] = [3.databaseValue, "three".databaseValue]
            #expect(rows == [one, one, three, three])
        }
    }

    @Test("A transaction observer added while a cached statement is reused hears its next executions, until removed")
    func observerAddedBetweenExecutions() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let observer = LoggingObserver()
        let sql = "INSERT INTO player (id) VALUES (?)"
        try dbQueue.write { db in
            let statement = try db.cachedStatement(sql: sql)
            try statement.execute(arguments: [1])
            db.add(transactionObserver: observer, extent: .observerLifetime)
            try statement.execute(arguments: [2])
        }
        #expect(observer.log == ["change insert player 2", "willCommit", "didCommit"])
        try dbQueue.write { db in
            db.remove(transactionObserver: observer)
            try db.cachedStatement(sql: sql).execute(arguments: [3])
        }
        #expect(observer.log.count == 3)
        #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT id FROM player ORDER BY id") } == [1, 2, 3])
    }

    @Test("The executions of a cached statement are heard while the observation broker goes from empty to not empty")
    func brokerEmptyThenNotEmpty() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let sql = "INSERT INTO player (id) VALUES (?)"
        let first = LoggingObserver()
        try dbQueue.write { db in
            db.add(transactionObserver: first, extent: .nextTransaction)
            try db.cachedStatement(sql: sql).execute(arguments: [1])
        }
        // The observer left with its transaction: the broker is empty.
        try dbQueue.write { db in try db.cachedStatement(sql: sql).execute(arguments: [2]) }
        let second = LoggingObserver()
        try dbQueue.write { db in
            let statement = try db.cachedStatement(sql: sql)
            try statement.execute(arguments: [3])
            db.add(transactionObserver: second, extent: .nextTransaction)
            try statement.execute(arguments: [4])
            // Without arguments: the statement binds [4] again, and fails on
            // the primary key, which the observer does not hear as a change.
            #expect(throws: DatabaseError.self) { try statement.execute() }
        }
        #expect(first.log == ["change insert player 1", "willCommit", "didCommit"])
        #expect(second.log == ["change insert player 4", "willCommit", "didCommit"])
    }
}
