import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite("Server setup")
struct ServerSetupTests {
    @Test("Configuration.server(): synchronous NORMAL, busy timeout, readers, automatic checkpoints")
    func serverConfiguration() throws {
        let directory = try TemporaryDirectory()
        let config = Configuration.server(maximumReaderCount: 7, busyTimeout: 3, automaticCheckpoints: false)
        #expect(config.maximumReaderCount == 7)
        #expect(config.automaticCheckpoints == false)
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: config)
        try dbPool.writeWithoutTransaction { db throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            #expect(try Int.fetchOne(db, sql: "PRAGMA synchronous") == 1)
            #expect(try Int.fetchOne(db, sql: "PRAGMA busy_timeout") == 3000)
            #expect(try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") == 0)
        }
        #expect(Configuration.server().maximumReaderCount >= 4)
        let defaultPool = try DatabasePool(path: directory.path("default.sqlite"))
        try defaultPool.writeWithoutTransaction { db throws in
            #expect(try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") == 1000)
        }
    }

    @Test("A write waits for a lock another process holds, instead of failing at once")
    func busyTimeout() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: .server(busyTimeout: 10))
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        // Another connection (as a replication tool would) holds the write lock.
        var otherConfig = Configuration()
        otherConfig.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: path, configuration: otherConfig)
        let released = DispatchSemaphore(value: 0)
        let writeStarted = DispatchSemaphore(value: 0)
        try other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        // The lock is released once the pool's write has started its
        // transaction (traced before SQLite asks for the lock), not after
        // a fixed delay.
        dbPool.writeWithoutTransaction { db in
            db.trace { event in
                if case .statement(let statement) = event, statement.sql.hasPrefix("BEGIN") {
                    writeStarted.signal()
                }
            }
        }
        DispatchQueue.global().async {
            _ = writeStarted.wait(timeout: .now() + 10)
            try? other.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
            released.signal()
        }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        released.wait()
        dbPool.writeWithoutTransaction { db in db.trace(options: [], nil) }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)

        // The default configuration fails at once.
        let immediate = try DatabasePool(path: path)
        try other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let error = #expect(throws: DatabaseError.self) {
            try immediate.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        }
        #expect(error?.resultCode == .SQLITE_BUSY)
        try other.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
    }

    @Test("walCheckpoint tells whether the checkpoint completed, and the WAL size")
    func checkpoint() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(
            path: directory.path("db.sqlite"), configuration: .server(busyTimeout: 0, automaticCheckpoints: false))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        let first = try dbPool.walCheckpoint()
        #expect(first.isComplete)
        #expect(first.walFrameCount > 0)
        #expect(first.walFrameCount == first.checkpointedFrameCount)
        #expect(first.walSize > 0)

        // A long read prevents the checkpoint of later frames.
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        let blocked = try dbPool.walCheckpoint(.passive)
        #expect(!blocked.isComplete)
        #expect(blocked.checkpointedFrameCount < blocked.walFrameCount)
        let truncateBlocked = try dbPool.walCheckpoint(.truncate)
        #expect(!truncateBlocked.isComplete)
        #expect(try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)

        // Once the read ends, the WAL can be truncated.
        try snapshot.close()
        let truncated = try dbPool.walCheckpoint(.truncate)
        #expect(truncated.isComplete)
        #expect(truncated.walSize == 0)
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
    }
}
