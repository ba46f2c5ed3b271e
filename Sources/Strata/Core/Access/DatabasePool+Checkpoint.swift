import Foundation

/// What a WAL checkpoint of ``DatabasePool/walCheckpoint(_:)`` did.
public struct WALCheckpointResult: Sendable, Equatable {
    /// Whether the checkpoint copied every frame of the WAL into the
    /// database (and, for `.restart` and `.truncate`, reset the WAL). False
    /// when a reader or another writer prevented it.
    public var isComplete: Bool
    /// The number of frames in the WAL, or -1 when unknown.
    public var walFrameCount: Int
    /// The number of frames copied into the database, or -1 when unknown.
    public var checkpointedFrameCount: Int
    /// The size of the WAL file after the checkpoint, in bytes (0 when it
    /// does not exist).
    public var walSize: Int64
}

extension DatabasePool {
    /// Runs a WAL checkpoint on the writer connection, and tells whether it
    /// completed, instead of throwing `SQLITE_BUSY` when readers or another
    /// process prevented it. The writer's busy mode applies: `.full`,
    /// `.restart` and `.truncate` wait for the lock up to the busy timeout.
    ///
    /// - Note: `.full`, `.restart` and `.truncate` also wait for the readers
    ///   of other processes, and hold the write lock meanwhile: while a
    ///   replication tool such as Litestream keeps a read transaction open,
    ///   they can block every write of the pool for the whole busy timeout.
    ///   Prefer `.passive` then.
    ///
    /// Cost: one checkpoint on the writer queue; blocks until it can run.
    ///
    /// ```swift
    /// let result = try dbPool.walCheckpoint(.truncate)
    /// if !result.isComplete { logger.notice("WAL is \(result.walSize) bytes") }
    /// ```
    public func walCheckpoint(_ mode: Database.CheckpointMode = .passive) throws -> WALCheckpointResult {
        let (isComplete, walFrameCount, checkpointedFrameCount) = try writeWithoutTransaction { db in
            try db.walCheckpointAllowingBusy(mode)
        }
        let walPath = path + "-wal"
        let size = (try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? NSNumber)?.int64Value ?? 0
        return WALCheckpointResult(
            isComplete: isComplete, walFrameCount: walFrameCount, checkpointedFrameCount: checkpointedFrameCount,
            walSize: size)
    }
}

extension Database {
    /// `sqlite3_wal_checkpoint_v2`, where `SQLITE_BUSY` means "not complete".
    func walCheckpointAllowingBusy(_ mode: CheckpointMode) throws -> (Bool, Int, Int) {
        try checkNotClosed()
        var walFrameCount: CInt = -1
        var checkpointedFrameCount: CInt = -1
        let code = sqlite3_wal_checkpoint_v2(
            sqliteConnection, "main", mode.rawValue, &walFrameCount, &checkpointedFrameCount)
        instrument?.walCheckpointDidRun(
            self, mode: mode, code: code, walFrameCount: Int(walFrameCount),
            checkpointedFrameCount: Int(checkpointedFrameCount))
        switch code {
        case SQLITE_OK:
            let complete = walFrameCount == checkpointedFrameCount
            return (complete, Int(walFrameCount), Int(checkpointedFrameCount))
        case SQLITE_BUSY:
            return (false, Int(walFrameCount), Int(checkpointedFrameCount))
        default:
            throw DatabaseError.lastError(of: sqliteConnection, resultCode: code)
        }
    }
}
