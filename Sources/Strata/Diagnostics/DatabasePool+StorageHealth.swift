import Foundation

extension DatabasePool {
    /// The storage health of the database: pages, free pages, the WAL, the
    /// last checkpoint and the read transactions that keep the WAL from
    /// being checkpointed (see ``StorageHealthReport``; the WAL and reader
    /// figures need ``Configuration/storageHealthMonitor``).
    ///
    /// It disturbs nothing: it runs a few pragmas in a read, like
    /// `read(_:)` (it waits only when every reader is busy), and runs no
    /// checkpoint, takes no write lock and waits for no reader to end.
    ///
    /// ```swift
    /// let health = try dbPool.storageHealth()
    /// if let oldest = health.oldestReadTransaction, oldest.age > 60 {
    ///     print("WAL \(health.walSize ?? 0) bytes, held by \(oldest.holder)")
    /// }
    /// ```
    public func storageHealth() throws -> StorageHealthReport {
        let monitor = configuration.storageHealthMonitor
        return try read { db in try StorageHealthReport(db, monitor: monitor) }
    }
}

extension DatabaseQueue {
    /// The storage health of the database (see ``StorageHealthReport``; the
    /// WAL figures need ``Configuration/storageHealthMonitor`` and the WAL
    /// mode). A queue has no concurrent readers: its report lists no read
    /// transaction. It runs a few pragmas in a read of the queue.
    public func storageHealth() throws -> StorageHealthReport {
        let monitor = configuration.storageHealthMonitor
        return try read { db in try StorageHealthReport(db, monitor: monitor) }
    }
}

extension StorageHealthReport {
    /// Reads the report on `db`.
    init(_ db: Database, monitor: StorageHealthMonitor?) throws {
        let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
        let pageCount = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let freePageCount = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
        let journalSizeLimit = try Int.fetchOne(db, sql: "PRAGMA journal_size_limit") ?? -1
        let journalMode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
        let walPath = db.path + "-wal"
        let walFileSize =
            (try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? NSNumber)?.int64Value ?? 0
        let watched = monitor?.snapshot(of: db)
        var walFrameCount = watched?.walFrameCount
        if walFrameCount == nil, walFileSize == 0 || journalMode.lowercased() != "wal" {
            walFrameCount = 0
        }
        self.init(
            pageSize: pageSize, pageCount: pageCount, freePageCount: freePageCount,
            journalSizeLimit: journalSizeLimit, journalMode: journalMode, walFileSize: walFileSize,
            walFrameCount: walFrameCount, lastCheckpoint: watched?.lastCheckpoint,
            readTransactions: watched?.readTransactions ?? [], isMonitored: monitor != nil)
    }
}
