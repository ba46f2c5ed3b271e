import Foundation
import Strata
import StrataTestSupport
import Testing

/// DatabaseSnapshot: a reader that forever sees the state at its creation.
struct DatabaseSnapshotTests {
    @Test func snapshotIsolation() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
        #expect(try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara'), ('Craig')") }
        #expect(try snapshot.read { db in try String.fetchAll(db, sql: "SELECT name FROM player") } == ["Arthur"])
        #expect(try snapshot.unsafeRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        #expect(try snapshot.reentrantRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        // Snapshots don't block writes, nor checkpoints.
        try dbPool.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
        #expect(try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
    }

    @Test func snapshotFromTheWriterSeesTheLastCommit() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        let snapshot = try dbPool.writeWithoutTransaction { db -> DatabaseSnapshot in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            return try dbPool.makeSnapshot()
        }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        #expect(try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
    }

    @Test func snapshotIsReadOnly() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        let snapshot = try dbPool.makeSnapshot()
        let error = #expect(throws: DatabaseError.self) {
            try snapshot.read { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        // The snapshot still works after an error.
        #expect(try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func asyncSnapshotAccesses() async throws {
        let directory = try TemporaryDirectory()
        let longQuery = LongQuery()
        let dbPool = try makePlayerPool(directory, configuration: longQuery.configuration)
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        let snapshot = try dbPool.makeSnapshot()
        try await dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
        #expect(try await snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        #expect(try await snapshot.unsafeRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        let count: Int = await withCheckedContinuation { continuation in
            snapshot.asyncRead { dbResult in
                let count = (try? Int.fetchOne(try dbResult.get(), sql: "SELECT COUNT(*) FROM player")) ?? nil
                continuation.resume(returning: count ?? -1)
            }
        }
        #expect(count == 1)
        // A cancelled access keeps the snapshot's state.
        let task = try await longQuery.startRead(snapshot)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
    }

    @Test func closedSnapshotThrows() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        let snapshot = try dbPool.makeSnapshot()
        try snapshot.close()
        await #expect(throws: DatabaseError.self) {
            try await snapshot.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        }
    }

    @Test func manySnapshots() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        var snapshots: [DatabaseSnapshot] = []
        for i in 0..<10 {
            snapshots.append(try dbPool.makeSnapshot())
            try dbPool.write { db in try db.execute(sql: "INSERT INTO player (score) VALUES (?)", arguments: [i]) }
        }
        for (i, snapshot) in snapshots.enumerated() {
            #expect(try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == i)
        }
    }
}
