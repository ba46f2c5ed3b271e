import Foundation
import Strata
import StrataTestSupport
import Testing

/// Many threads and tasks on one queue: bounded in time, they stop by themselves.
struct ConcurrencyStressTests {
    @Test(.timeLimit(.minutes(1)))
    func manyThreadsKeepAnInvariant() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE account (id INTEGER PRIMARY KEY, balance INT)")
            try db.execute(sql: "INSERT INTO account VALUES (1, 100), (2, 0)")
        }
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            for _ in 0..<40 {
                do {
                    if i.isMultiple(of: 2) {
                        try dbQueue.write { db in
                            try db.execute(sql: "UPDATE account SET balance = balance - 1 WHERE id = 1")
                            try db.execute(sql: "UPDATE account SET balance = balance + 1 WHERE id = 2")
                        }
                    } else {
                        let total = try dbQueue.read { db in
                            try Int.fetchOne(db, sql: "SELECT SUM(balance) FROM account")!
                        }
                        if total != 100 { failures.increment() }
                    }
                } catch {
                    failures.increment()
                }
            }
        }
        #expect(failures.value == 0)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT balance FROM account WHERE id = 2") } == 160)
    }

    @Test(.timeLimit(.minutes(1)))
    func manyTasksWithRandomCancellation() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a INT, b INT)")
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<500 {
                let task = Task {
                    if i.isMultiple(of: 3) {
                        try await dbQueue.write { db in
                            // Both rows or none: a cancelled write rolls back.
                            try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [i, -i])
                            try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [-i, i])
                        }
                    } else {
                        let sum = try await dbQueue.read { db in
                            try Int.fetchOne(db, sql: "SELECT TOTAL(a) + TOTAL(b) FROM t") ?? 0
                        }
                        #expect(sum == 0)
                    }
                }
                if i.isMultiple(of: 5) { task.cancel() }
                group.addTask {
                    do {
                        try await task.value
                    } catch is CancellationError {
                    } catch let error as DatabaseError where error.isInterruptionError {
                    }
                }
            }
            try await group.waitForAll()
        }
        // The database is usable, writable, and consistent.
        let (count, total) = try await dbQueue.write { db in
            try db.execute(sql: "INSERT INTO t VALUES (0, 0)")
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
            let total = try Int.fetchOne(db, sql: "SELECT TOTAL(a) + TOTAL(b) FROM t")!
            return (count, total)
        }
        #expect(count % 2 == 1)
        #expect(total == 0)
    }
}
