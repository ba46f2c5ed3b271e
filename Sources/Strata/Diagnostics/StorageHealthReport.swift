import Foundation

/// The state of a database's storage: its pages, its WAL and what keeps the
/// WAL from being checkpointed, as ``DatabasePool/storageHealth()`` and
/// ``DatabaseQueue/storageHealth()`` read it.
///
/// The figures of the file (pages, free pages, limits, the WAL file) are
/// always there. Those that must be watched over time (the frames in use in
/// the WAL, the last checkpoint, the open read transactions) need a
/// ``StorageHealthMonitor`` in ``Configuration/storageHealthMonitor``:
/// without one, ``isMonitored`` is false and they are nil or empty.
public struct StorageHealthReport: Sendable, CustomStringConvertible {
    /// A checkpoint of the WAL, as the monitor saw it.
    public struct Checkpoint: Sendable, Equatable {
        /// When it ran.
        public var date: Date
        /// The mode of a checkpoint that Strata's checkpoint methods ran
        /// (`Database.checkpoint(_:on:)`, ``DatabasePool/walCheckpoint(_:)``),
        /// or nil for an automatic one.
        public var mode: Database.CheckpointMode?
        /// The frames in the WAL when it ran, or -1 when unknown.
        public var walFrameCount: Int
        /// The frames it had copied into the database by its end, or -1
        /// when unknown.
        public var checkpointedFrameCount: Int
        /// Whether a reader or a writer kept it from completing: SQLite said
        /// `SQLITE_BUSY`, or not every frame was copied.
        public var isBlocked: Bool

        /// Whether SQLite's, or the library's, automatic checkpoint ran it.
        public var isAutomatic: Bool { mode == nil }
    }

    /// A read transaction open on a reader of a pool, or a snapshot.
    public struct ReadTransaction: Sendable, Equatable {
        /// The label given with ``StorageHealthMonitor/accessLabel`` to the
        /// access that opened it, if any.
        public var label: String?
        /// The label of the reader connection that holds it.
        public var connection: String
        /// How long it has been open, in seconds.
        public var age: TimeInterval

        /// Who holds it: its label if it has one, else its connection.
        public var holder: String { label.map { "\($0) (\(connection))" } ?? connection }
    }

    /// The size of a page, in bytes.
    public var pageSize: Int
    /// The pages of the database (`PRAGMA page_count`).
    public var pageCount: Int
    /// The pages that are free for reuse (`PRAGMA freelist_count`): a
    /// `VACUUM` would give them back to the file system.
    public var freePageCount: Int
    /// The size that SQLite truncates the WAL file to after a checkpoint
    /// that restarts it (`PRAGMA journal_size_limit`), in bytes; -1 for no
    /// limit.
    public var journalSizeLimit: Int
    /// The journal mode (`wal`, `delete`, `memory`...).
    public var journalMode: String
    /// The size of the WAL file on disk, in bytes (0 when there is none).
    /// SQLite reuses the file from its start after a checkpoint: it can be
    /// large while few of its frames are in use (see ``walFrameCount``).
    public var walFileSize: Int64
    /// The frames of the WAL in use: written by the commits since it last
    /// restarted. 0 after a truncating or restarting checkpoint that
    /// completed. Nil when unknown (no monitor, or no commit and no
    /// checkpoint seen yet while the WAL file is not empty).
    public var walFrameCount: Int?
    /// The last checkpoint of the main database, if the monitor saw one.
    public var lastCheckpoint: Checkpoint?
    /// The read transactions open on the readers of the pool, oldest first
    /// (the report's own excepted). Empty for a queue.
    public var readTransactions: [ReadTransaction]
    /// Whether a ``StorageHealthMonitor`` watches the connections.
    public var isMonitored: Bool

    /// The size of the database, in bytes.
    public var databaseSize: Int64 { Int64(pageCount) * Int64(pageSize) }
    /// The bytes of the WAL in use (its header and ``walFrameCount`` frames),
    /// or nil when unknown.
    public var walSize: Int64? { walFrameCount.map { Self.walSize(frameCount: $0, pageSize: pageSize) } }
    /// The read transaction open for the longest time, if any.
    public var oldestReadTransaction: ReadTransaction? { readTransactions.first }

    /// Creates a report.
    public init(
        pageSize: Int, pageCount: Int, freePageCount: Int, journalSizeLimit: Int, journalMode: String,
        walFileSize: Int64, walFrameCount: Int?, lastCheckpoint: Checkpoint?, readTransactions: [ReadTransaction],
        isMonitored: Bool
    ) {
        self.pageSize = pageSize
        self.pageCount = pageCount
        self.freePageCount = freePageCount
        self.journalSizeLimit = journalSizeLimit
        self.journalMode = journalMode
        self.walFileSize = walFileSize
        self.walFrameCount = walFrameCount
        self.lastCheckpoint = lastCheckpoint
        self.readTransactions = readTransactions
        self.isMonitored = isMonitored
    }

    /// The bytes that `frameCount` frames of pages of `pageSize` bytes take
    /// in a WAL: a 32-byte header, then 24 bytes before each page.
    static func walSize(frameCount: Int, pageSize: Int) -> Int64 {
        frameCount <= 0 ? 0 : 32 + Int64(frameCount) * Int64(pageSize + 24)
    }

    /// A few lines, such as:
    ///
    /// ```
    /// pages: 1200 of 4096 bytes (4915200 bytes), 30 free
    /// journal: wal, size limit -1
    /// WAL: 2400 frames in use (9888032 bytes), file 9888032 bytes
    /// last checkpoint: automatic, 1000 of 2400 frames copied, blocked
    /// oldest read transaction: 12.3s, nightly export (GRDB.DatabasePool.reader.1)
    /// ```
    public var description: String {
        var lines = [
            "pages: \(pageCount) of \(pageSize) bytes (\(databaseSize) bytes), \(freePageCount) free",
            "journal: \(journalMode), size limit \(journalSizeLimit)",
        ]
        if let walFrameCount, let walSize {
            lines.append("WAL: \(walFrameCount) frames in use (\(walSize) bytes), file \(walFileSize) bytes")
        } else {
            lines.append("WAL: file \(walFileSize) bytes")
        }
        if let lastCheckpoint {
            let kind = lastCheckpoint.mode.map { "\($0)" } ?? "automatic"
            lines.append(
                "last checkpoint: \(kind), \(lastCheckpoint.checkpointedFrameCount) of "
                    + "\(lastCheckpoint.walFrameCount) frames copied"
                    + (lastCheckpoint.isBlocked ? ", blocked" : ""))
        }
        if let oldest = oldestReadTransaction {
            lines.append("oldest read transaction: \(String(format: "%.1f", oldest.age))s, \(oldest.holder)")
        }
        return lines.joined(separator: "\n")
    }
}

/// What a ``StorageHealthMonitor`` warns about.
public enum StorageHealthWarning: Sendable, Equatable, CustomStringConvertible {
    /// The WAL in use grew past the monitor's `walSizeLimit` (sizes in
    /// bytes). Once per episode: again only after it went back under.
    case walSizeLimitExceeded(walSize: Int64, limit: Int64)
    /// A read transaction stayed open past the monitor's
    /// `readTransactionThreshold` while commits made the WAL grow: SQLite
    /// cannot checkpoint past it, nor restart the WAL. Once per read
    /// transaction.
    case longReadTransaction(StorageHealthReport.ReadTransaction, walSize: Int64)

    /// One line, such as "WAL size 5 MB above the limit of 4 MB".
    public var description: String {
        switch self {
        case .walSizeLimitExceeded(let walSize, let limit):
            return "Storage health: the WAL is \(walSize) bytes, above the limit of \(limit) bytes"
        case .longReadTransaction(let transaction, let walSize):
            return "Storage health: a read transaction open for "
                + "\(String(format: "%.1f", transaction.age))s by \(transaction.holder) "
                + "keeps the WAL from being checkpointed; it has grown to \(walSize) bytes"
        }
    }
}
