import Foundation

extension Database {
    /// The number of times a pool's writer tries again to lock the database,
    /// with the default busy mode (`.immediateError`), before it throws
    /// `SQLITE_BUSY`: about 10 milliseconds in all.
    static let briefBusyRetryCount = 40

    /// Makes a pool's writer, whose busy mode is `.immediateError`, try to
    /// lock the database again for about 10 milliseconds before it throws
    /// `SQLITE_BUSY`.
    ///
    /// The pool's own readers make this needed. A reader that begins a
    /// transaction while a commit updates the WAL index may read a header
    /// that is half written: SQLite then has it take the WAL's write lock for
    /// an instant, to read the header again safely. A `BEGIN IMMEDIATE` of
    /// the writer at that instant would fail, although nobody else writes.
    /// A lock held by another connection for longer still throws.
    ///
    /// `onRetry` is called before each retry (for tests).
    func retryBrieflyWhenBusy(onRetry: (@Sendable (Int) -> Void)? = nil) {
        let retryCount = Self.briefBusyRetryCount
        installBusyCallback { count in
            guard count < retryCount else { return false }
            onRetry?(count)
            // The reader holds the lock for microseconds, unless it is
            // descheduled meanwhile: yield first, then sleep a little.
            if count < 8 {
                sched_yield()
            } else {
                usleep(250)
            }
            return true
        }
    }
}
