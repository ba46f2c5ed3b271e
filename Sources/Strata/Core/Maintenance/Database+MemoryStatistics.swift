import StrataSQLite

// SQLite's memory statistics (SQLITE_CONFIG_MEMSTATUS, on by default in
// SQLite) count every allocation under one process-wide mutex. Two
// connections that work at the same time (the writer and a reader of a
// pool) keep waiting for each other on it: measured with a tracking
// observation on a pool, the writer blocked about once per write, and its
// writes per second went from 0.4 to 0.9 of its rate without the
// observation once the statistics were off. SQLite's own list of
// recommended compile-time options turns them off (SQLITE_DEFAULT_MEMSTATUS=0).

extension Database {
    /// Whether SQLite keeps its memory statistics in this process:
    /// `sqlite3_memory_used()`, `sqlite3_memory_highwater()`,
    /// `sqlite3_status64()` and the heap limits need them. False by default:
    /// before it opens its first connection, Strata turns them off, because
    /// they take a lock that all connections share at each allocation.
    ///
    /// Set it to true before opening any connection to keep SQLite's
    /// default. Neither value has an effect once SQLite is initialized in the
    /// process, by Strata or by another library first (on Apple platforms,
    /// system frameworks often are).
    nonisolated(unsafe) public static var keepsSQLiteMemoryStatistics = false

    /// Applies ``keepsSQLiteMemoryStatistics``, once, before the first
    /// connection opens.
    static let sqliteMemoryStatisticsAreConfigured: Bool = {
        // SQLITE_MISUSE when SQLite is initialized already: nothing to do.
        _ = _strata_config_memstatus(keepsSQLiteMemoryStatistics ? 1 : 0)
        return true
    }()
}
