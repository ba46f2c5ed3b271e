import Foundation
@testable import Strata
import StrataTestSupport
import Testing

/// Pools under load: bounded in time, the tests stop by themselves.
struct PoolStressTests {
    /// 8 readers and a writer for about 2 seconds: every read sees a constant sum.
    @Test(.timeLimit(.minutes(1)))
    func readersAndWriterKeepAnInvariant() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePool(directory, maximumReaderCount: 8)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE pair (id INTEGER PRIMARY KEY, a INT, b INT)")
            try db.execute(sql: "INSERT INTO pair VALUES (1, 1000, 0), (2, 500, 500)")
        }
        let deadline = Date().addingTimeInterval(2)
        let reads = Counter()
        let writes = Counter()
        let failures = Counter()
        let firstError = LockedBox<String?>(nil)
        // Real threads: `concurrentPerform` may run the iterations one after the
        // other on a loaded machine, and the readers would start after the deadline.
        runOnThreads(count: 9) { i in
            repeat {
                do {
                    if i == 0 {
                        try dbPool.write { db in
                            try db.execute(sql: "UPDATE pair SET a = a - 1 WHERE id = 1")
                            try db.execute(sql: "UPDATE pair SET b = b + 1 WHERE id = 1")
                            try db.execute(sql: "UPDATE pair SET a = a + 1, b = b - 1 WHERE id = 2")
                        }
                        writes.increment()
                    } else {
                        let ok = try dbPool.read { db -> Bool in
                            let sum1 = try Int.fetchOne(db, sql: "SELECT a + b FROM pair WHERE id = 1")!
                            let sum2 = try Int.fetchOne(db, sql: "SELECT a + b FROM pair WHERE id = 2")!
                            let row = try Row.fetchOne(
                                db, sql: "SELECT (SELECT a FROM pair WHERE id = 1), (SELECT a FROM pair WHERE id = 2)")!
                            let a1: Int = row[0]
                            let a2: Int = row[1]
                            // One transaction: both rows come from the same commit.
                            return sum1 == 1000 && sum2 == 1000 && (1000 - a1) == (a2 - 500)
                        }
                        if !ok { failures.increment() }
                        reads.increment()
                    }
                } catch {
                    failures.increment()
                    firstError.withLock { $0 = $0 ?? "\(i == 0 ? "write" : "read"): \(error)" }
                }
            } while Date() < deadline
        }
        #expect(failures.value == 0, "first error: \(firstError.withLock { $0 } ?? "none")")
        #expect(writes.value > 0)
        #expect(reads.value > 0)
        let final = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT b FROM pair WHERE id = 1")! }
        #expect(final == writes.value)
    }

    /// 1,000 tasks mixing reads and writes, a third of them cancelled at random.
    @Test(.timeLimit(.minutes(1)))
    func thousandTasksWithRandomCancellation() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        try await dbPool.write { db in
            try db.execute(sql: "CREATE TABLE pair (a INT, b INT)")
            try db.execute(sql: "INSERT INTO pair VALUES (100, 0)")
            try db.execute(sql: "CREATE TABLE log (id INTEGER PRIMARY KEY)")
        }
        let unexpected = Counter()
        let committed = Counter()
        await withTaskGroup(of: Void.self) { group in
            var tasks: [Task<Void, Never>] = []
            for i in 0..<1000 {
                let task = Task {
                    do {
                        if i.isMultiple(of: 3) {
                            try await dbPool.write { db in
                                try db.execute(sql: "UPDATE pair SET a = a - 1")
                                try db.execute(sql: "INSERT INTO log DEFAULT VALUES")
                                try db.execute(sql: "UPDATE pair SET b = b + 1")
                            }
                            committed.increment()
                        } else {
                            let sum = try await dbPool.read { db in
                                try Int.fetchOne(db, sql: "SELECT a + b FROM pair")!
                            }
                            if sum != 100 { unexpected.increment() }
                        }
                    } catch is CancellationError {
                    } catch let error as DatabaseError where error.isInterruptionError {
                    } catch {
                        unexpected.increment()
                    }
                }
                tasks.append(task)
                if Int.random(in: 0..<3) == 0 {
                    let victim = tasks.randomElement()!
                    group.addTask { victim.cancel() }
                }
            }
            for task in tasks {
                group.addTask { await task.value }
            }
        }
        #expect(unexpected.value == 0)
        // No torn write, no transaction left open, the pool still works.
        let (sum, logCount, b) = try await dbPool.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT a + b FROM pair")!,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM log")!,
                try Int.fetchOne(db, sql: "SELECT b FROM pair")!
            )
        }
        #expect(sum == 100)
        #expect(logCount == b)
        #expect(b >= committed.value)
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO log DEFAULT VALUES") }
        #expect(try await dbPool.writeWithoutTransaction { db in db.isInsideTransaction } == false)
    }

    /// More concurrent reads than readers: they wait, none deadlocks.
    @Test(.timeLimit(.minutes(1)))
    func poolExhaustion() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePool(directory, maximumReaderCount: 2)
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        // Async: 200 reads on 2 readers.
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    try await dbPool.read { db in
                        Thread.sleep(forTimeInterval: 0.001)
                        return try Int.fetchOne(db, sql: "SELECT 1")!
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(total == 200)
        // Sync: 16 threads on 2 readers, mixed with async callbacks.
        let count = Counter()
        let group = DispatchGroup()
        for _ in 0..<20 {
            group.enter()
            dbPool.asyncRead { dbResult in
                if (try? dbResult.get()) != nil { count.increment() }
                group.leave()
            }
        }
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            for _ in 0..<10 {
                if (try? dbPool.read({ db in try Int.fetchOne(db, sql: "SELECT 1") })) == 1 {
                    count.increment()
                }
            }
        }
        group.wait()
        #expect(count.value == 180)
    }

    /// Tasks cancelled while they wait for a reader leave the pool usable.
    @Test(.timeLimit(.minutes(1)))
    func cancellationWhileWaitingForAReader() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePool(directory, maximumReaderCount: 1)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        dbPool.asyncRead { _ in
            started.signal()
            release.wait()
        }
        started.wait()
        let waiting = Task { try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } }
        // Cancelled once it waits for the only reader.
        while dbPool.readerPool.waiterCount == 0 { await Task.yield() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        release.signal()
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }

    /// Cancelling a long write interrupts it, rolls it back, and leaves the pool usable.
    @Test(.timeLimit(.minutes(1)))
    func cancelledWriteRollsBack() async throws {
        let directory = try TemporaryDirectory()
        let longQuery = LongQuery()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: longQuery.configuration)
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let task = Task {
            try await dbPool.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                try db.execute(sql: LongQuery.insertSQL)
            }
        }
        try await longQuery.waitUntilStarted()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }
}

/// Runs `body` on `count` threads at once, and waits for all of them.
func runOnThreads(count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for i in 0..<count {
        group.enter()
        let thread = Thread {
            body(i)
            group.leave()
        }
        thread.start()
    }
    group.wait()
}
