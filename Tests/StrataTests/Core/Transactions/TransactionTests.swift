import Foundation
import Strata
import StrataTestSupport
import Testing

struct TransactionTests {
    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try inMemoryDatabase("CREATE TABLE t (a)")
        return dbQueue
    }

    func count(_ dbQueue: DatabaseQueue) throws -> Int {
        try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! }
    }

    @Test func manualTransactions() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db throws in
            try db.beginTransaction()
            #expect(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            try db.commit()
            #expect(!db.isInsideTransaction)
            try db.beginTransaction(.deferred)
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            try db.rollback()
        }
        #expect(try count(dbQueue) == 1)
    }

    @Test func savepoints() throws {
        struct Boom: Error {}
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                return .commit
            }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                return .rollback
            }
            #expect(throws: Boom.self) {
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (3)")
                    throw Boom()
                }
            }
            #expect(db.isInsideTransaction)
        }
        #expect(try count(dbQueue) == 1)

        // Nested savepoints outside of transactions
        try dbQueue.writeWithoutTransaction { db throws in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t VALUES (4)")
                #expect(db.isInsideTransaction)
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (5)")
                    return .commit
                }
                return .commit
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try count(dbQueue) == 3)
    }

    @Test func afterNextTransaction() throws {
        let log = LockedBox<[String]>([])
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            db.afterNextTransaction { _ in
                log.append("commit")
            } onRollback: { _ in
                log.append("rollback")
            }
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        try? dbQueue.write { db throws in
            db.afterNextTransaction { _ in
                log.append("commit2")
            } onRollback: { _ in
                log.append("rollback2")
            }
            struct Boom: Error {}
            throw Boom()
        }
        // Only once
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(log.value == ["commit", "rollback2"])
    }

    @Test func transactionDate() throws {
        var config = Configuration()
        let dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1)]
        let counter = Counter()
        config.transactionClock = .custom { _ in
            dates[(counter.increment() - 1) % 2]
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            let d1 = try db.transactionDate
            let d2 = try db.transactionDate
            #expect(d1 == d2)
        }
        try dbQueue.write { db throws in
            let date = try db.transactionDate
            #expect(date == dates[1])
        }
    }

    @Test func commitFailureKeepsTheTransactionToRollBack() throws {
        let dbQueue = try inMemoryDatabase(
            """
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parentId INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
            """)
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO child VALUES (1)")
            }
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM child") } == 0)
    }
}
