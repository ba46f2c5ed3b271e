import Foundation
import StrataSQLite

/// The automatic checkpoints of a pool's writer once value observations
/// fetch on its readers: SQLite's, paced so that readers that never let the
/// WAL restart don't cost a checkpoint per commit.
///
/// SQLite's own automatic checkpoint (`PRAGMA wal_autocheckpoint`) runs a
/// passive checkpoint after every commit that leaves 1000 pages or more in
/// the WAL. When readers keep the WAL from restarting (observations that
/// fetch after each commit), the WAL stays above 1000 pages, and every
/// commit pays a checkpoint with its two `fsync`s: writes run at half speed.
/// The pacer runs the same passive checkpoint, but after a checkpoint that
/// left the WAL in place, only once 1000 more pages were written. While the
/// WAL restarts, it checkpoints exactly when SQLite would.
///
/// Readers that are always busy keep the WAL from restarting at all: it
/// would grow without end. Once a checkpoint leaves 4000 pages or more in
/// the WAL, the pacer pauses the observations' reads
/// (``ConcurrentReadLanes/pauseForWALRestart()``): once their transactions
/// have ended, the writer checkpoints the whole WAL, and its next commit
/// restarts it.
///
/// It replaces SQLite's automatic checkpoint only where it is in effect with
/// its default threshold. Reading `PRAGMA wal_autocheckpoint` then gives 0;
/// setting it gives SQLite's own automatic checkpoint back.
final class CheckpointPacer {
    /// The WAL size, in pages, that triggers a checkpoint.
    static let pageThreshold: CInt = 1000
    /// The WAL size, in pages, past which an incomplete checkpoint pauses
    /// the reads of `lanes`.
    static let pauseThreshold: CInt = 4 * pageThreshold

    /// The reads to pause so that the WAL can restart.
    private weak var lanes: ConcurrentReadLanes?
    /// The WAL size after which the next checkpoint runs.
    private var nextCheckpointFrameCount = CheckpointPacer.pageThreshold
    /// The WAL size after which an incomplete checkpoint pauses the reads.
    private var nextPauseFrameCount = CheckpointPacer.pauseThreshold
    /// The WAL size after the last commit: a smaller one means the WAL
    /// restarted.
    private var lastFrameCount: CInt = 0
    /// The checkpoints run so far (for tests).
    private(set) var checkpointCount = 0

    init(lanes: ConcurrentReadLanes?) {
        self.lanes = lanes
    }

    /// The hook of SQLite's WAL commits.
    fileprivate static let walHook:
        @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, CInt) -> CInt = {
            context, connection, schemaName, frameCount in
            Unmanaged<CheckpointPacer>.fromOpaque(context!)._withUnsafeGuaranteedRef { pacer in
                guard let schemaName, strcmp(schemaName, "main") == 0 else {
                    // Attached databases: SQLite's rule, unpaced.
                    if frameCount >= CheckpointPacer.pageThreshold {
                        sqlite3_wal_checkpoint_v2(connection, schemaName, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                    }
                    return
                }
                _ = pacer.didCommit(connection: connection, frameCount: frameCount)
            }
            return SQLITE_OK
        }

    /// Runs a checkpoint after a commit of the main database, if it is
    /// time, and returns its result.
    func didCommit(connection: OpaquePointer?, frameCount: CInt) -> WALCommitRelay.CheckpointResult? {
        if frameCount < lastFrameCount {
            nextCheckpointFrameCount = Self.pageThreshold
            nextPauseFrameCount = Self.pauseThreshold
        }
        lastFrameCount = frameCount
        guard frameCount >= nextCheckpointFrameCount else { return nil }
        // Errors (busy, I/O) are ignored, as SQLite ignores those of its
        // own automatic checkpoints: the next one tries again.
        var walFrameCount: CInt = 0
        var checkpointedFrameCount: CInt = 0
        let code = sqlite3_wal_checkpoint_v2(
            connection, "main", SQLITE_CHECKPOINT_PASSIVE, &walFrameCount, &checkpointedFrameCount)
        checkpointCount += 1
        // When the checkpoint was complete and no reader prevents it, the
        // next commit restarts the WAL, and the threshold applies again.
        nextCheckpointFrameCount = frameCount + Self.pageThreshold
        if code == SQLITE_OK, checkpointedFrameCount < walFrameCount, frameCount >= nextPauseFrameCount,
            let lanes
        {
            nextPauseFrameCount = frameCount + Self.pauseThreshold
            lanes.pauseForWALRestart()
        }
        return (code, walFrameCount, checkpointedFrameCount)
    }

    /// Checkpoints the whole WAL, if no reader prevents it, at the end of a
    /// pause of the reads: the next commit then restarts the WAL.
    func checkpointForWALRestart(_ db: Database) {
        guard let connection = db.sqliteConnection else { return }
        // Errors are ignored, as above.
        sqlite3_wal_checkpoint_v2(connection, "main", SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        checkpointCount += 1
    }
}

extension Database {
    /// Paces the automatic checkpoints of this connection (see
    /// ``CheckpointPacer``), unless it is paced already, or its automatic
    /// checkpoint is off or has a threshold of its own. `lanes` are the
    /// reads to pause when they keep the WAL from restarting.
    func paceAutomaticCheckpoints(pausing lanes: ConcurrentReadLanes?) {
        guard checkpointPacer == nil, let sqliteConnection else { return }
        let pacer = CheckpointPacer(lanes: lanes)
        if let walCommitRelay {
            // The storage health monitor's relay holds the WAL hook: the
            // pacer runs behind it, where SQLite's rule would run.
            if walCommitRelay.autocheckpointThreshold == CheckpointPacer.pageThreshold {
                walCommitRelay.automaticCheckpoint = { connection, frameCount in
                    pacer.didCommit(connection: connection, frameCount: frameCount)
                }
                checkpointPacer = pacer
            }
            return
        }
        let previous = sqlite3_wal_hook(
            sqliteConnection, CheckpointPacer.walHook, Unmanaged.passUnretained(pacer).toOpaque())
        // SQLite's automatic checkpoint passes its threshold to its hook: no
        // statement is needed to read it (and none shows in traces).
        let threshold = Int(bitPattern: previous)
        if threshold == Int(CheckpointPacer.pageThreshold) {
            checkpointPacer = pacer
        } else {
            // Off (0), or a threshold of the application's own: restored.
            sqlite3_wal_autocheckpoint(sqliteConnection, CInt(clamping: threshold))
        }
    }
}
