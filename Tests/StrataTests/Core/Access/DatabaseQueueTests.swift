import Foundation
import Strata
import StrataTestSupport
import Testing

struct DatabaseQueueTests {
    @Test func fileDatabaseReadWrite() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path)
        #expect(dbQueue.path == path)
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
        #expect(count == 1)
        try dbQueue.close()
        // Reopen: data persisted
        let dbQueue2 = try DatabaseQueue(path: path)
        #expect(try dbQueue2.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 1)
    }

    @Test func readForbidsWrites() throws {
        let dbQueue = try inMemoryDatabase("CREATE TABLE t (a)")
        do {
            try dbQueue.read { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            Issue.record("Expected error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_READONLY)
        }
        // The queue is usable afterwards, and writable.
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        try dbQueue.unsafeRead { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 2)
    }

    @Test func writeRollsBackOnError() throws {
        struct Boom: Error {}
        let dbQueue = try inMemoryDatabase("CREATE TABLE t (a)")
        #expect(throws: Boom.self) {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func inMemoryDatabasesArePrivateOrShared() throws {
        let a = try DatabaseQueue()
        let b = try DatabaseQueue()
        try a.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        #expect(try b.read { try $0.tableExistsForTest("t") } == false)

        let name = "shared-\(UUID().uuidString)"
        let s1 = try DatabaseQueue(named: name)
        let s2 = try DatabaseQueue(named: name)
        try s1.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        #expect(try s2.read { try $0.tableExistsForTest("t") } == true)
    }

    @Test func inMemoryAndTemporaryCopies() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("source.sqlite")
        let source = try DatabaseQueue(path: path)
        try source.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
        }
        let memory = try DatabaseQueue.inMemoryCopy(fromPath: path)
        try memory.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try memory.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 2)

        let temporary = try DatabaseQueue.temporaryCopy(fromPath: path)
        try temporary.write { try $0.execute(sql: "INSERT INTO t VALUES (3)") }
        #expect(try temporary.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 2)
        #expect(try source.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)

        var config = Configuration()
        config.readonly = true
        let readonlyCopy = try DatabaseQueue.inMemoryCopy(fromPath: path, configuration: config)
        #expect(throws: DatabaseError.self) {
            try readonlyCopy.writeWithoutTransaction { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        }
    }

    @Test func inTransactionAndInDatabase() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            #expect(!db.isInsideTransaction)
        }
        try dbQueue.inTransaction { db in
            #expect(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            return .commit
        }
        try dbQueue.inTransaction(.exclusive) { db in
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            return .rollback
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test func reentrantAccesses() throws {
        let dbQueue = try DatabaseQueue()
        let value = try dbQueue.write { db throws in
            try dbQueue.unsafeReentrantRead { db2 in
                try dbQueue.unsafeReentrantWrite { _ in
                    try Int.fetchOne(db2, sql: "SELECT 42")
                }
            }
        }
        #expect(value == 42)
    }

    @Test func asyncAccesses() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        let count = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
        #expect(count == 1)
        try await dbQueue.writeWithoutTransaction { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        try await dbQueue.barrierWriteWithoutTransaction { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        let unsafeCount = try await dbQueue.unsafeRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
        #expect(unsafeCount == 3)
    }

    @Test func callbackAccesses() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        let written: Int = try await withCheckedThrowingContinuation { continuation in
            dbQueue.asyncWrite(
                { db in
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                    return 1
                }, completion: { _, result in continuation.resume(with: result) })
        }
        #expect(written == 1)
        let count: Int = try await withCheckedThrowingContinuation { continuation in
            dbQueue.asyncRead { result in
                continuation.resume(
                    with: result.flatMap { db in Result { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! } })
            }
        }
        #expect(count == 1)
        await withCheckedContinuation { continuation in
            dbQueue.asyncWriteWithoutTransaction { db in
                try? db.execute(sql: "INSERT INTO t VALUES (2)")
                continuation.resume()
            }
        }
        let unsafeCount: Int = try await withCheckedThrowingContinuation { continuation in
            dbQueue.asyncUnsafeRead { result in
                continuation.resume(
                    with: result.flatMap { db in Result { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! } })
            }
        }
        #expect(unsafeCount == 2)
        let spawned: Int = try await withCheckedThrowingContinuation { continuation in
            dbQueue.writeWithoutTransaction { _ in
                dbQueue.spawnConcurrentRead { result in
                    continuation.resume(
                        with: result.flatMap { db in Result { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! } })
                }
            }
        }
        #expect(spawned == 2)
    }

    @Test func cancellationBeforeAccess() async throws {
        let dbQueue = try DatabaseQueue()
        // The task reads once it is cancelled.
        let (cancelled, cancellation) = AsyncStream<Void>.makeStream()
        let task = Task {
            for await _ in cancelled { break }
            #expect(Task.isCancelled)
            return try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        }
        task.cancel()
        cancellation.yield()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellationInterruptsTheRunningStatement() async throws {
        let longQuery = LongQuery()
        let dbQueue = try DatabaseQueue(configuration: longQuery.configuration)
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let task = Task {
            try await dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (0)")
                _ = try Int.fetchOne(db, sql: LongQuery.selectSQL)
            }
        }
        try await longQuery.waitUntilStarted()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // Rolled back, and the database is usable and writable.
        let count = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
        #expect(count == 0)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
    }

    @Test(.timeLimit(.minutes(1)))
    func interruptStopsTheRunningStatement() async throws {
        let longQuery = LongQuery()
        let dbQueue = try DatabaseQueue(configuration: longQuery.configuration)
        let task = Task {
            try await dbQueue.read { db in
                _ = try Int.fetchOne(db, sql: LongQuery.selectSQL)
            }
        }
        try await longQuery.waitUntilStarted()
        dbQueue.interrupt()
        do {
            try await task.value
            Issue.record("Expected error")
        } catch let error as DatabaseError {
            #expect(error.isInterruptionError)
            #expect(error.resultCode == .SQLITE_INTERRUPT)
        }
        let one = try await dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") }
        #expect(one == 1)
    }

    @Test func closeMakesLaterAccessesThrow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.close()
        try dbQueue.close()  // closing twice is fine
        #expect(throws: DatabaseError.self) { try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } }
        #expect(throws: DatabaseError.self) { try dbQueue.write { try $0.execute(sql: "SELECT 1") } }
    }

    @Test func releaseMemory() throws {
        let dbQueue = try DatabaseQueue()
        dbQueue.releaseMemory()
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
    }

    @Test func eraseAndVacuum() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"))
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a); CREATE INDEX ta ON t(a); CREATE VIEW v AS SELECT * FROM t")
        }
        try dbQueue.vacuum()
        try dbQueue.vacuum(into: directory.path("copy.sqlite"))
        #expect(FileManager.default.fileExists(atPath: directory.path("copy.sqlite")))
        try dbQueue.erase()
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_master") } == 0)
    }

    @Test func walModeOnAQueue() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.journalMode = .wal
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"), configuration: config)
        #expect(try dbQueue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let result = try db.checkpoint(.truncate)
            #expect(result.walFrameCount >= 0)
        }
    }

    @Test func backupWithProgress() throws {
        let source = try DatabaseQueue()
        try source.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            for i in 0..<1000 {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [String(repeating: "x", count: 100 + i)])
            }
        }
        let destination = try DatabaseQueue()
        var steps = 0
        var completed = false
        try source.backup(to: destination, pagesPerStep: 10) { progress in
            steps += 1
            #expect(progress.completedPageCount <= progress.totalPageCount)
            completed = progress.isCompleted
        }
        #expect(steps > 1)
        #expect(completed)
        #expect(try destination.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1000)

        // Aborting from the progress callback
        struct Abort: Error {}
        let other = try DatabaseQueue()
        #expect(throws: Abort.self) {
            try source.backup(to: other, pagesPerStep: 1) { _ in throw Abort() }
        }
    }
}

extension Database {
    func tableExistsForTest(_ name: String) throws -> Bool {
        try Bool.fetchOne(
            self, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [name])
            ?? false
    }
}

struct InterruptionTests {
    @Test(.timeLimit(.minutes(1)))
    func interruptedTransactionAbortsTheRestOfTheAccess() async throws {
        let longQuery = LongQuery()
        let dbQueue = try DatabaseQueue(configuration: longQuery.configuration)
        try await dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        let task = Task {
            try await dbQueue.writeWithoutTransaction { db -> (DatabaseError?, DatabaseError?, DatabaseError?) in
                var first: DatabaseError?
                var second: DatabaseError?
                var final: DatabaseError?
                do {
                    try db.inTransaction {
                        do {
                            // A long write, interrupted
                            try db.execute(sql: LongQuery.insertSQL)
                        } catch let error as DatabaseError {
                            first = error
                        }
                        do {
                            try db.execute(sql: "INSERT INTO t VALUES (2)")
                        } catch let error as DatabaseError {
                            second = error
                        }
                        return .commit
                    }
                } catch let error as DatabaseError {
                    final = error
                }
                return (first, second, final)
            }
        }
        try await longQuery.waitUntilStarted()
        dbQueue.interrupt()
        let (first, second, final) = try await task.value
        #expect(first?.resultCode == .SQLITE_INTERRUPT)
        #expect(second?.resultCode == .SQLITE_ABORT)
        #expect(final?.resultCode == .SQLITE_ABORT)
        // The next access works, and nothing was written.
        let count = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
        #expect(count == 1)
    }

    @Test func interruptWhenIdleIsANoOp() throws {
        let dbQueue = try DatabaseQueue()
        dbQueue.interrupt()
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
    }
}

struct LoggingTests {
    @Test func errorLog() async {
        await #expect(processExitsWith: .success) {
            let log = LockedBox<[String]>([])
            Database.logError = { code, message in log.append("\(code.rawValue) \(message)") }
            let dbQueue = try DatabaseQueue()
            _ = try? dbQueue.read { db in try db.execute(sql: "SELECT * FROM missing") }
            exit(log.value.contains { $0.contains("no such table: missing") } ? 0 : 1)
        }
    }

    @Test func persistentWALThroughTheCAPI() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.journalMode = .wal
        config.prepareDatabase { db in
            var flag: CInt = 1
            let code = withUnsafeMutablePointer(to: &flag) { flagP in
                sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, flagP)
            }
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        }
        let path = directory.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        try dbQueue.close()
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }
}
