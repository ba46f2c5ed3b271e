import Foundation
import Testing

@testable import Strata
import StrataTestSupport

/// The automatic checkpoints of a pool's writer (``CheckpointPacer``).
@Suite("Automatic checkpoints of a pool")
struct CheckpointPacerTests {
    /// A pool whose writer paces its automatic checkpoints, as it does once
    /// a value observation fetches on its readers.
    private func makePacedPool(_ directory: TemporaryDirectory) throws -> DatabasePool {
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        dbPool.writeWithoutTransaction { db in db.paceAutomaticCheckpoints(pausing: nil) }
        return dbPool
    }

    /// Commits `count` transactions of one 2 KB row each.
    private func commit(_ count: Int, in dbPool: DatabasePool) throws {
        for _ in 0..<count {
            try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (randomblob(2000))") }
        }
    }

    private func checkpointCount(_ dbPool: DatabasePool) -> Int {
        dbPool.writeWithoutTransaction { db in db.checkpointPacer?.checkpointCount ?? -1 }
    }

    private func walSize(_ dbPool: DatabasePool) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: dbPool.path + "-wal")
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test("Without readers, the WAL is checkpointed and restarts as with SQLite's own automatic checkpoints")
    func walRestarts() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePacedPool(directory)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(b BLOB)") }
        try commit(3000, in: dbPool)
        #expect(checkpointCount(dbPool) >= 2)
        // 1000 pages of 4 KB, and the last commit's pages, at most.
        #expect(try walSize(dbPool) < 1010 * (4096 + 24) + 32)
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 3000)
    }

    @Test(
        "While a reader keeps the WAL from restarting, a checkpoint runs once per 1000 new pages, not after each commit"
    )
    func pacedWhileReadersHoldTheWAL() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePacedPool(directory)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(b BLOB)") }
        try commit(600, in: dbPool)
        let snapshot = try dbPool.makeSnapshot()
        let before = checkpointCount(dbPool)
        // Each commit writes at least one page: 2000 commits, 2000+ pages.
        try commit(2000, in: dbPool)
        let frames = try dbPool.walCheckpoint(.passive).walFrameCount
        #expect(frames >= 2000)
        let checkpoints = checkpointCount(dbPool) - before
        #expect(checkpoints >= 1)
        // SQLite alone would checkpoint after each of the ~1500 commits
        // past 1000 pages.
        #expect(checkpoints <= frames / 1000 + 1)
        #expect(try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 600)
        try snapshot.close()

        // Once the reader is gone, the WAL restarts again.
        try commit(2500, in: dbPool)
        let restarted = try dbPool.walCheckpoint(.passive)
        #expect(restarted.walFrameCount < 1100)
    }

    @Test(
        "A value observation on a pool paces the checkpoints; the pragma reads 0 then, and setting it gives SQLite's back"
    )
    func observationPaces() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(b BLOB)") }
        let threshold = try await dbPool.writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint")
        }
        #expect(threshold == 1000)
        #expect(checkpointCount(dbPool) == -1)

        let observation = ValueObservation.trackingConstantRegion { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
        }
        let values = ObservedValues<Int?>()
        let cancellable = observation.start(
            in: dbPool, scheduling: .async(onQueue: DispatchQueue(label: "observation")), recordingIn: values)
        defer { cancellable.cancel() }
        await values.waitForValues(1)
        #expect(checkpointCount(dbPool) == 0)
        try await dbPool.writeWithoutTransaction { db in
            #expect(try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") == 0)
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 100")
            #expect(try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") == 100)
        }
    }

    @Test("A threshold of the application's own is kept")
    func ownThresholdIsKept() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        try dbPool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 500")
            db.paceAutomaticCheckpoints(pausing: nil)
            #expect(db.checkpointPacer == nil)
            #expect(try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") == 500)
        }
    }

    @Test("Without automatic checkpoints, no checkpoint runs by itself")
    func disabled() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(
            path: directory.path("db.sqlite"), configuration: .server(automaticCheckpoints: false))
        dbPool.writeWithoutTransaction { db in db.paceAutomaticCheckpoints(pausing: nil) }
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(b BLOB)") }
        try commit(1200, in: dbPool)
        #expect(checkpointCount(dbPool) == -1)
        let result = try dbPool.walCheckpoint(.passive)
        #expect(result.walFrameCount >= 1200)
    }
}
