/// The progress of a backup (``DatabaseReader/backup(to:pagesPerStep:progress:)``).
public struct DatabaseBackupProgress: Sendable {
    /// The number of pages still to be copied.
    public let remainingPageCount: Int
    /// The total number of pages of the source database.
    public let totalPageCount: Int
    /// The number of pages copied so far.
    public var completedPageCount: Int { totalPageCount - remainingPageCount }
    /// True when the backup is done.
    public let isCompleted: Bool
}

extension Database {
    /// Copies the content of this database into another connection.
    ///
    /// - Parameters:
    ///   - destDb: the destination connection, whose content is replaced.
    ///   - pagesPerStep: the number of pages copied at each step (-1: all at once).
    ///   - progress: called after each step; throw to abort the backup.
    ///
    /// Wraps `sqlite3_backup_init`, `sqlite3_backup_step` and `sqlite3_backup_finish`.
    public func backup(
        to destDb: Database,
        pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil
    ) throws {
        try checkNotClosed()
        try destDb.checkNotClosed()
        guard let backup = sqlite3_backup_init(destDb.sqliteConnection, "main", sqliteConnection, "main") else {
            throw DatabaseError.lastError(of: destDb.sqliteConnection)
        }
        var finished = false
        defer {
            if !finished { sqlite3_backup_finish(backup) }
        }
        while true {
            let code = sqlite3_backup_step(backup, pagesPerStep)
            switch code {
            case SQLITE_DONE:
                let total = Int(sqlite3_backup_pagecount(backup))
                finished = true
                let finishCode = sqlite3_backup_finish(backup)
                if finishCode != SQLITE_OK {
                    throw DatabaseError.lastError(of: destDb.sqliteConnection, resultCode: finishCode)
                }
                destDb.clearSchemaCache()
                // The backup succeeded: an error of the last report changes nothing.
                try? progress?(DatabaseBackupProgress(remainingPageCount: 0, totalPageCount: total, isCompleted: true))
                return
            case SQLITE_OK:
                let remaining = Int(sqlite3_backup_remaining(backup))
                let total = Int(sqlite3_backup_pagecount(backup))
                try progress?(
                    DatabaseBackupProgress(remainingPageCount: remaining, totalPageCount: total, isCompleted: false))
            case SQLITE_BUSY, SQLITE_LOCKED:
                throw DatabaseError.lastError(of: destDb.sqliteConnection, resultCode: code)
            default:
                throw DatabaseError.lastError(of: destDb.sqliteConnection, resultCode: code)
            }
        }
    }
}
