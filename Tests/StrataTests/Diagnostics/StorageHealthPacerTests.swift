import Foundation
import Testing

@testable import Strata
import StrataTestSupport

/// The storage health monitor and the checkpoint pacer share the writer's
/// WAL hook: the pacer runs behind the monitor's relay, and both see every
/// commit.
@Suite("Storage health and the checkpoint pacer")
struct StorageHealthPacerTests {
    @Test("with the monitor on, the pacer still paces the writer's checkpoints, and the report sees them")
    func pacerRunsBehindTheRelay() throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.storageHealthMonitor = StorageHealthMonitor()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
        try dbPool.writeWithoutTransaction { db in
            #expect(db.walCommitRelay != nil)
            db.paceAutomaticCheckpoints(pausing: nil)
            #expect(db.checkpointPacer != nil)
            #expect(db.walCommitRelay?.automaticCheckpoint != nil)
            try db.execute(sql: "CREATE TABLE t(b BLOB)")
        }
        for _ in 0..<1200 {
            try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (randomblob(2000))") }
        }
        let checkpoints = dbPool.writeWithoutTransaction { db in db.checkpointPacer?.checkpointCount ?? -1 }
        #expect(checkpoints >= 1)
        let health = try dbPool.storageHealth()
        let checkpoint = try #require(health.lastCheckpoint)
        #expect(checkpoint.isAutomatic)
        // The WAL restarted after the pacer's checkpoint.
        #expect(try #require(health.walFrameCount) < 1000)
    }

    @Test("without the monitor, no relay is installed")
    func noRelayWhenOff() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        dbPool.writeWithoutTransaction { db in #expect(db.walCommitRelay == nil) }
        let dbQueue = try DatabaseQueue()
        dbQueue.inDatabase { db in #expect(db.walCommitRelay == nil) }
    }
}
