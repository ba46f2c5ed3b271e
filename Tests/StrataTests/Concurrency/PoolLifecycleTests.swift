import Foundation
import Strata
import StrataTestSupport
import Testing

/// Pools: deinitialization, backups, cancellation before an access, snapshot readers.
struct PoolLifecycleTests {
    @Test func connectionsCloseWhenThePoolIsDeinitialized() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        do {
            let dbPool = try DatabasePool(path: path)
            try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
            _ = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
            _ = try dbPool.makeSnapshot()
        }
        // Leaving WAL mode needs exclusive access: no connection of the pool is left.
        let dbQueue = try DatabaseQueue(path: path)
        let mode = try dbQueue.writeWithoutTransaction { db in
            try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
        }
        #expect(mode == "delete")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func backupsBetweenQueuesAndPools() throws {
        let directory = try TemporaryDirectory()
        let source = try DatabaseQueue()
        try source.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.execute(sql: "INSERT INTO t VALUES (1), (2)")
        }
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        try source.backup(to: dbPool)
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
        let copy = try DatabaseQueue()
        try dbPool.backup(to: copy)
        #expect(try copy.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
    }

    @Test func cancelledTaskDoesNotAccessThePool() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let accessed = Counter()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            _ = try await dbPool.read { _ in accessed.increment() }
            try await dbPool.write { db in
                accessed.increment()
                try db.execute(sql: "INSERT INTO t VALUES (1)")
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(accessed.value == 0)
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    /// A pool on a file of `directory`, and a task whose read of the pool
    /// runs the long query, returned once the query runs.
    private func poolRunningALongRead(
        _ directory: TemporaryDirectory
    ) async throws -> (DatabasePool, Task<Int?, any Error>) {
        let longQuery = LongQuery()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: longQuery.configuration)
        return (dbPool, try await longQuery.startRead(dbPool))
    }

    @Test(.timeLimit(.minutes(1)))
    func cancelledReadIsInterrupted() async throws {
        let directory = try TemporaryDirectory()
        let (dbPool, task) = try await poolRunningALongRead(directory)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func interruptStopsARunningRead() async throws {
        let directory = try TemporaryDirectory()
        let (dbPool, task) = try await poolRunningALongRead(directory)
        dbPool.interrupt()
        let error = await #expect(throws: DatabaseError.self) { try await task.value }
        #expect(error?.resultCode == .SQLITE_INTERRUPT)
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }

    @Test func snapshotReaderGenericCode() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        func count(_ reader: some DatabaseSnapshotReader) throws -> Int {
            try reader.reentrantRead { db in
                try reader.reentrantRead { db2 in
                    #expect(db === db2)
                    return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
                }
            }
        }
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try count(snapshot) == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func releaseMemoryEventuallyWithBusyReaders() async throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.persistentReadOnlyConnections = true
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<50 {
                group.addTask {
                    _ = try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
                    if i.isMultiple(of: 10) {
                        dbPool.releaseMemoryEventually()
                        dbPool.invalidateReadOnlyConnections()
                    }
                }
            }
            try await group.waitForAll()
        }
        dbPool.releaseMemory()
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }
}
