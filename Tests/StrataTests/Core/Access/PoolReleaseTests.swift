import Dispatch
import Foundation
import Strata
import StrataTestSupport
import Testing

// A pool that goes away without `close()` closes its readers before its
// writer: the writer, last connection to the file, checkpoints the WAL and
// deletes it, as SQLite does for a clean close.

private func walExists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path + "-wal")
}

/// A configuration whose connections (writer and readers) all run on
/// `queue`: once `queue.sync {}` returns, the blocks of earlier accesses have
/// ended and released the connections they held, so a pool that went away
/// has closed them all. No sleep, no polling.
private func configuration(runningOn queue: DispatchQueue) -> Configuration {
    var configuration = Configuration()
    configuration.targetQueue = queue
    configuration.writeTargetQueue = queue
    return configuration
}

/// A lock that a read waits for, to keep a reader busy while its pool goes away.
private final class Gate: @unchecked Sendable {
    let started = DispatchSemaphore(value: 0)
    let open = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
}

struct PoolReleaseTests {
    @Test("A released pool that wrote and read leaves no WAL, cycle after cycle")
    func releasedPoolLeavesNoWAL() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try DatabasePool(path: path).write { try $0.execute(sql: "CREATE TABLE t(a)") }
        #expect(!walExists(path))
        for i in 0..<200 {
            do {
                let dbPool = try DatabasePool(path: path)
                try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (?)", arguments: [i]) }
                #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == i + 1)
            }
            try #require(!walExists(path), "cycle \(i)")
        }
    }

    @Test("A released pool that read asynchronously leaves no WAL")
    func releasedPoolAfterAsyncReadLeavesNoWAL() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let queue = DispatchQueue(label: "connections")
        for i in 0..<20 {
            do {
                let dbPool = try DatabasePool(path: path, configuration: configuration(runningOn: queue))
                try await dbPool.write { try $0.execute(sql: "CREATE TABLE IF NOT EXISTS t(a)") }
                try await dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (?)", arguments: [i]) }
                let count = try await dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
                #expect(count == i + 1)
            }
            // The async accesses release their last references when their
            // blocks end on the queue.
            queue.sync {}
            try #require(!walExists(path), "cycle \(i)")
        }
    }

    @Test("A pool released while a reader runs a read leaves no WAL once the read ends")
    func poolReleasedDuringReadLeavesNoWAL() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let gate = Gate()
        let count = LockedBox<Int?>(nil)
        let queue = DispatchQueue(label: "connections")
        do {
            let dbPool = try DatabasePool(path: path, configuration: configuration(runningOn: queue))
            try dbPool.write { db in
                try db.execute(sql: "CREATE TABLE t(a)")
                try db.execute(sql: "INSERT INTO t VALUES (1)")
            }
            dbPool.asyncRead { result in
                gate.started.signal()
                gate.open.wait()
                let value = try? Int.fetchOne(result.get(), sql: "SELECT COUNT(*) FROM t")
                count.withLock { $0 = value }
                gate.finished.signal()
            }
            gate.started.wait()
        }
        // The pool is gone, its reader still reads.
        gate.open.signal()
        gate.finished.wait()
        #expect(count.withLock { $0 } == 1)
        // The read's block ends, and releases the last connections of the pool.
        queue.sync {}
        #expect(!walExists(path))
        // The file is intact.
        let dbQueue = try DatabaseQueue(path: path)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test("A pool released before its snapshot leaves no WAL once the snapshot goes away")
    func poolReleasedBeforeSnapshotLeavesNoWAL() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        var snapshot: DatabaseSnapshot?
        do {
            let dbPool = try DatabasePool(path: path)
            try dbPool.write { db in
                try db.execute(sql: "CREATE TABLE t(a)")
                try db.execute(sql: "INSERT INTO t VALUES (1)")
            }
            _ = try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
            snapshot = try dbPool.makeSnapshot()
        }
        #expect(try snapshot?.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
        snapshot = nil
        #expect(!walExists(path))
    }

    @Test("The WAL of a file opened by many pools in turn does not grow")
    func walSizeStaysFlat() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try DatabasePool(path: path).write { try $0.execute(sql: "CREATE TABLE t(a)") }
        var sizes: Set<Int> = []
        for i in 0..<200 {
            let dbPool = try DatabasePool(path: path)
            try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (?)", arguments: [i]) }
            _ = try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
            // Each pool starts from an empty WAL, and adds the same frames.
            let size = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
            sizes.insert(try #require(size))
        }
        #expect(sizes.count == 1, "WAL sizes: \(sizes.sorted())")
    }
}
