import Foundation
@testable import Strata
import StrataTestSupport
import Testing

/// DatabasePool: the DatabasePool article, WAL, reads, writes, errors.
struct DatabasePoolTests {
    @Test func articleSamples() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        try dbPool.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
        }
        try dbPool.read { db in
            let names = try String.fetchAll(db, sql: "SELECT name FROM player")
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
            #expect(names == ["Arthur"])
            #expect(count == 1)
        }
        let playerCount = try dbPool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        }
        let newPlayerCount = try dbPool.write { db -> Int in
            try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Barbara"])
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        }
        #expect(playerCount == 1)
        #expect(newPlayerCount == 2)
    }

    @Test func opensInWALMode() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        let mode = try dbPool.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        // A reader of a new, empty database works.
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") } == 0)
    }

    @Test func failedWrite() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        #expect(throws: DatabaseError.self) {
            try dbPool.write { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                try db.execute(sql: "INSERT INTO nonexisting DEFAULT VALUES")
            }
        }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
    }

    @Test func writeInsideReadFailsWithReadOnly() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        let error = #expect(throws: DatabaseError.self) {
            try dbPool.read { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        let asyncError = Counter()
        let done = DispatchSemaphore(value: 0)
        dbPool.asyncRead { dbResult in
            do {
                let db = try dbResult.get()
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
                asyncError.increment()
            } catch {}
            done.signal()
        }
        done.wait()
        #expect(asyncError.value == 1)
    }

    @Test func writeInTransaction() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        try dbPool.writeInTransaction { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            return .commit
        }
        try dbPool.writeInTransaction(.exclusive) { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
            return .rollback
        }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
    }

    @Test func readSeesOneStableState() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        let counts = try dbPool.read { db -> [Int] in
            let first = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            // A write commits during the read: the read doesn't see it.
            let writeDone = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                try? dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
                writeDone.signal()
            }
            writeDone.wait()
            let second = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            return [first, second]
        }
        #expect(counts == [0, 0])
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
    }

    @Test func unsafeReentrantReadUsesTheCurrentReader() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        try dbPool.read { db in
            try dbPool.unsafeReentrantRead { db2 in
                #expect(db === db2)
            }
        }
        #expect(try dbPool.unsafeRead { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
        #expect(try dbPool.unsafeReentrantRead { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
        #expect(try dbPool.unsafeReentrantWrite { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func asyncConcurrentReadSample() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        let seen = LockedBox<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        try dbPool.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                return .commit
            }
            dbPool.asyncConcurrentRead { dbResult in
                do {
                    let db = try dbResult.get()
                    seen.value = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                } catch {
                    seen.value = -1
                }
                done.signal()
            }
            // Writes after the spawn are not seen by the concurrent read.
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
        }
        done.wait()
        #expect(seen.value == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func barrierWaitsForReads() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        let events = LockedBox<[String]>([])
        let readStarted = DispatchSemaphore(value: 0)
        let readDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? dbPool.read { _ in
                readStarted.signal()
                // The read ends once the barrier waits for it.
                while !dbPool.readerPool.hasBarrier { sched_yield() }
                events.append("read")
            }
            readDone.signal()
        }
        readStarted.wait()
        try dbPool.barrierWriteWithoutTransaction { db in
            events.append("barrier")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        readDone.wait()
        #expect(events.value == ["read", "barrier"])
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
    }

    @Test func accessAfterCloseThrows() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        _ = try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        try dbPool.close()
        checkSyncAccessesThrow(dbPool)
        await #expect(throws: DatabaseError.self) {
            try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        }
        await #expect(throws: DatabaseError.self) {
            try await dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
        }
        // Closing twice is fine.
        try dbPool.close()
    }

    private func checkSyncAccessesThrow(_ dbPool: DatabasePool) {
        #expect(throws: DatabaseError.self) { try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } }
        #expect(throws: DatabaseError.self) { try dbPool.write { db in try db.execute(sql: "DELETE FROM player") } }
        #expect(throws: DatabaseError.self) { try dbPool.makeSnapshot() }
    }

    @Test func inMemoryPoolIsAnError() throws {
        #expect(throws: DatabaseError.self) { try DatabasePool(path: ":memory:") }
    }

    @Test func notADatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("garbage.sqlite")
        try Data(repeating: 42, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: DatabaseError.self) { try DatabasePool(path: path) }
        #expect(error?.resultCode == .SQLITE_NOTADB)
    }

    @Test func readOnlyPool() throws {
        let directory = try TemporaryDirectory()
        do {
            let dbPool = try makePlayerPool(directory)
            try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
            try dbPool.close()
        }
        var configuration = Configuration()
        configuration.readonly = true
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        let error = #expect(throws: DatabaseError.self) {
            try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
    }

    @Test func readOnlyPoolOnAMissingFileThrows() throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.readonly = true
        #expect(throws: DatabaseError.self) {
            try DatabasePool(path: directory.path("missing.sqlite"), configuration: configuration)
        }
    }

    @Test func poolInANonExistingDirectoryThrows() throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: DatabaseError.self) {
            try DatabasePool(path: directory.path("missing/db.sqlite"))
        }
        #expect(error?.resultCode == .SQLITE_CANTOPEN)
    }

    @Test func lockedFileGivesBusy() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        // Another connection holds an exclusive lock on a rollback-journal database.
        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let locker = try DatabaseQueue(path: path, configuration: configuration)
        try locker.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)") }
        let error = #expect(throws: DatabaseError.self) { try DatabasePool(path: path) }
        #expect(error?.resultCode == .SQLITE_BUSY)
        try locker.writeWithoutTransaction { db in try db.rollback() }
        _ = try DatabasePool(path: path)
    }

    @Test func invalidateAndReleaseMemory() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        let first = try dbPool.read { db in ObjectIdentifier(db) }
        dbPool.invalidateReadOnlyConnections()
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
        dbPool.releaseMemory()
        dbPool.releaseMemoryEventually()
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
        _ = first
    }

    @Test func interruptIdlePoolIsHarmless() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        dbPool.interrupt()
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }

    @Test func checkpointsEraseAndVacuum() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        for mode in [Database.CheckpointMode.passive, .full, .restart, .truncate] {
            try dbPool.writeWithoutTransaction { db in _ = try db.checkpoint(mode) }
        }
        try dbPool.vacuum()
        try dbPool.vacuum(into: directory.path("copy.sqlite"))
        try dbPool.erase()
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") } == 0)
        let copy = try DatabaseQueue(path: directory.path("copy.sqlite"))
        #expect(try copy.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
    }

    @Test func labels() throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.label = "Toreador"
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
        #expect(dbPool.writeWithoutTransaction { db in db.description } == "Toreador.writer")
        #expect(try dbPool.read { db in db.description } == "Toreador.reader.1")
        #expect(try dbPool.makeSnapshot().read { db in db.description } == "Toreador.snapshot.1")
    }

    @Test func asyncAccesses() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        #expect(try await dbPool.unsafeRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        try await dbPool.writeWithoutTransaction { db in try db.execute(sql: "DELETE FROM player") }
        try await dbPool.barrierWriteWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
        }
        try await dbPool.erase()
        try await dbPool.vacuum()
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") } == 0)
    }

    @Test func asyncWriteCompletion() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        let count: Int = try await withCheckedThrowingContinuation { continuation in
            dbPool.asyncWrite(
                { db in
                    try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                    return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                }, completion: { _, result in continuation.resume(with: result) })
        }
        #expect(count == 1)
        let done: Bool = await withCheckedContinuation { continuation in
            dbPool.asyncBarrierWriteWithoutTransaction { dbResult in
                continuation.resume(returning: (try? dbResult.get()) != nil)
            }
        }
        #expect(done)
        let unsafeCount: Int = await withCheckedContinuation { continuation in
            dbPool.asyncUnsafeRead { dbResult in
                let count = (try? Int.fetchOne(try dbResult.get(), sql: "SELECT COUNT(*) FROM player")) ?? nil
                continuation.resume(returning: count ?? -1)
            }
        }
        #expect(unsafeCount == 1)
    }

    @Test func genericCodeAndTypeErasure() async throws {
        let directory = try TemporaryDirectory()
        func insertAndCount(_ writer: some DatabaseWriter) throws -> Int {
            try writer.write { db in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (a)")
                try db.execute(sql: "INSERT INTO t VALUES (1)")
            }
            return try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
        }
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        #expect(try insertAndCount(dbPool) == 1)
        #expect(try insertAndCount(try DatabaseQueue()) == 1)
        let anyWriter = AnyDatabaseWriter(dbPool)
        #expect(try insertAndCount(anyWriter) == 2)
        #expect(anyWriter.path == dbPool.path)
        #expect(try await anyWriter.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
        let anyReader = AnyDatabaseReader(dbPool)
        #expect(try await anyReader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
        #expect(try await anyReader.unsafeRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
        let readers: [any DatabaseReader] = [dbPool, try dbPool.makeSnapshot(), anyReader, anyWriter]
        for reader in readers {
            #expect(try await reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
        }
    }
}
