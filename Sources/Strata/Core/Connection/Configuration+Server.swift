import Foundation

extension Configuration {
    /// A configuration for a ``DatabasePool`` that serves concurrent requests:
    ///
    /// - Writes wait up to `busyTimeout` seconds for a lock that another
    ///   process holds (a replication tool, a backup, maintenance) instead of
    ///   failing at once with `SQLITE_BUSY`.
    /// - `PRAGMA synchronous = NORMAL`: in WAL mode, a commit no longer waits
    ///   for the disk; a power loss may undo the last commits, never corrupt
    ///   the database.
    /// - `maximumReaderCount` readers (by default, twice the active
    ///   processors, at least 4).
    /// - Automatic checkpoints as given.
    ///
    /// ```swift
    /// let dbPool = try DatabasePool(path: "/var/lib/app/db.sqlite", configuration: .server())
    /// ```
    public static func server(
        maximumReaderCount: Int = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount),
        busyTimeout: TimeInterval = 5,
        automaticCheckpoints: Bool = true
    ) -> Configuration {
        var configuration = Configuration()
        configuration.maximumReaderCount = maximumReaderCount
        configuration.busyMode = .timeout(busyTimeout)
        configuration.automaticCheckpoints = automaticCheckpoints
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return configuration
    }
}
