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

    /// Makes a connection whose configuration observes external changes,
    /// with the default busy mode, wait for a lock that another connection
    /// holds, up to `timeout` seconds for each lock
    /// (`Configuration.waitsForExternalLocks`).
    ///
    /// The tries are close together: a process that writes steadily leaves
    /// the file unlocked for an instant between two transactions (in
    /// rollback-journal mode, a reader can only take its lock then). SQLite's
    /// own busy timeout sleeps up to 100 ms between tries, and a reader
    /// could wait for the end of the writes. Here, the first tries yield,
    /// the next ones sleep 100 µs, then 1 ms: about a thousand tries per
    /// second, each a lock request to the system, only while locked out.
    func retryWhenBusy(for timeout: TimeInterval) {
        let limit = UInt64(max(0, timeout) * 1_000_000_000)
        // When the current wait started (`DispatchTime` nanoseconds): SQLite
        // counts the tries of each lock from zero.
        let start = Mutex<UInt64>(0)
        installBusyCallback { count in
            let now = DispatchTime.now().uptimeNanoseconds
            let elapsed = start.withLock { start in
                if count == 0 { start = now }
                return now &- start
            }
            guard elapsed < limit else { return false }
            if count < 8 {
                sched_yield()
            } else if count < 100 {
                usleep(100)
            } else {
                usleep(1000)
            }
            return true
        }
    }
}
