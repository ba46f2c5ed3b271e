import Foundation
import Strata
import StrataTestSupport

/// A primary database and its replica file, kept up to date by the helper
/// executable in the role of the follower (`strata-external-writer apply`):
/// the tests of ``DatabaseReplica`` need another process, since a follower
/// of the same process would share its locks.
final class ReplicaFixture {
    let directory: TemporaryDirectory
    /// Where the tests write: a WAL database, as Litestream's primary is.
    let primary: DatabaseQueue
    /// The follower's output, which the replica reads.
    let replicaPath: String
    /// The replica under test, opened on the first restore.
    let replica: DatabaseReplica

    init() throws {
        directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.journalMode = .wal
        primary = try DatabaseQueue(path: directory.path("primary.sqlite"), configuration: configuration)
        replicaPath = directory.path("replica.sqlite")
        try primary.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur'), ('Barbara'), ('Craig')")
        }
        // The first restore, before any replica is open.
        _ = try primary.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try FileManager.default.copyItem(atPath: primary.path, toPath: replicaPath)
        replica = try DatabaseReplica(path: replicaPath)
    }

    /// Inserts players in the primary, one transaction.
    func insertPlayers(_ count: Int) throws {
        try primary.write { db in
            for _ in 0..<count {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            }
        }
    }

    /// Copies the primary's committed state into the replica as a follower
    /// does: the helper waits for SQLite's exclusive lock on the replica
    /// file. Returns the running helper.
    func startApplying() throws -> ExternalWriterProcess {
        try checkpointPrimary()
        return try ExternalWriterProcess(["apply", replicaPath, primary.path], watchesOutput: true)
    }

    /// Inserts players in the primary and applies them to the replica.
    func insertAndApply(_ count: Int) async throws {
        try insertPlayers(count)
        _ = try await startApplying().waitForExit()
    }

    /// Checkpoints the primary's WAL into its database file.
    func checkpointPrimary() throws {
        // The database file then holds every commit: the helper copies it.
        _ = try primary.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }
}

extension DatabaseReplica {
    /// Observes the number of players, duplicates removed, and records the
    /// values and errors.
    func observePlayerCount(
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: DispatchQueue(label: "replica-test")),
        sql: String = "SELECT COUNT(*) FROM player"
    ) -> (ObservedValues<Int>, AnyDatabaseCancellable) {
        let values = ObservedValues<Int>()
        let cancellable =
            ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: sql) ?? 0 }
            .removeDuplicates()
            .start(in: self, scheduling: scheduler, recordingIn: values)
        return (values, cancellable)
    }
}

extension DatabaseReader {
    /// The number of players, in one read.
    func playerCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0 }
    }
}
