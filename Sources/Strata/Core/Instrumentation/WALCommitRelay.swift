import Foundation
import StrataSQLite

/// The WAL hook of a connection whose instrument observes WAL commits
/// (``DatabaseInstrument/observesWALCommits``: the storage health monitor).
///
/// SQLite has one WAL hook per connection, and its automatic checkpoint is
/// that hook. The relay takes its place: it tells the instrument how many
/// frames each commit left in the WAL, then runs the automatic checkpoint
/// itself, with SQLite's rule (a passive checkpoint once the WAL holds
/// `autocheckpointThreshold` pages), or with the rule another part of the
/// library gives it (`automaticCheckpoint`: the checkpoint pacer of a pool's
/// writer), and tells the instrument what that checkpoint did. Nothing else
/// replaces the hook: chained this way, both see every commit.
///
/// Installed only when an instrument asks for it; without one, a connection
/// keeps SQLite's own hook and pays nothing.
final class WALCommitRelay {
    /// The result of a checkpoint: SQLite's code, the frames in the WAL and
    /// the frames copied into the database.
    typealias CheckpointResult = (code: CInt, walFrameCount: CInt, checkpointedFrameCount: CInt)

    /// The connection; it owns the relay and outlives it.
    unowned(unsafe) let db: Database
    /// The threshold of SQLite's automatic checkpoint that the relay
    /// replaced, in pages; 0 when it was off.
    private(set) var autocheckpointThreshold: CInt = 0
    /// Replaces SQLite's rule for the main database: called after each
    /// commit with the WAL size, returns the result of the checkpoint it ran,
    /// if it ran one.
    var automaticCheckpoint: ((_ connection: OpaquePointer?, _ frameCount: CInt) -> CheckpointResult?)?

    init(db: Database) {
        self.db = db
    }

    /// The hook of SQLite's WAL commits.
    private static let hook:
        @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, CInt) -> CInt = {
            context, connection, schemaName, frameCount in
            Unmanaged<WALCommitRelay>.fromOpaque(context!)._withUnsafeGuaranteedRef { relay in
                relay.didCommit(connection: connection, schemaName: schemaName, frameCount: frameCount)
            }
            return SQLITE_OK
        }

    private func didCommit(connection: OpaquePointer?, schemaName: UnsafePointer<CChar>?, frameCount: CInt) {
        guard let schemaName, strcmp(schemaName, "main") == 0 else {
            // Attached databases: SQLite's rule, unreported.
            if autocheckpointThreshold > 0, frameCount >= autocheckpointThreshold {
                sqlite3_wal_checkpoint_v2(connection, schemaName, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            }
            return
        }
        db.instrument?.walDidCommit(db, frameCount: Int(frameCount))
        let result: CheckpointResult?
        if let automaticCheckpoint {
            result = automaticCheckpoint(connection, frameCount)
        } else if autocheckpointThreshold > 0, frameCount >= autocheckpointThreshold {
            // Errors (busy, I/O) are ignored, as SQLite ignores those of its
            // own automatic checkpoints: the next commit tries again.
            var walFrameCount: CInt = -1
            var checkpointedFrameCount: CInt = -1
            let code = sqlite3_wal_checkpoint_v2(
                connection, "main", SQLITE_CHECKPOINT_PASSIVE, &walFrameCount, &checkpointedFrameCount)
            result = (code, walFrameCount, checkpointedFrameCount)
        } else {
            result = nil
        }
        if let result {
            db.instrument?.walCheckpointDidRun(
                db, mode: nil, code: result.code, walFrameCount: Int(result.walFrameCount),
                checkpointedFrameCount: Int(result.checkpointedFrameCount))
        }
    }

    /// Installs the relay as the WAL hook of the connection of `db`, in
    /// place of SQLite's automatic checkpoint, whose threshold it keeps.
    static func install(on db: Database) {
        guard let connection = db.sqliteConnection else { return }
        let relay = WALCommitRelay(db: db)
        let previous = sqlite3_wal_hook(connection, hook, Unmanaged.passUnretained(relay).toOpaque())
        // SQLite's automatic checkpoint passes its threshold to its hook
        // (nil when it is off).
        relay.autocheckpointThreshold = CInt(clamping: Int(bitPattern: previous))
        db.walCommitRelay = relay
    }
}
