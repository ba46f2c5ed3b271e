import Dispatch
import Foundation

#if Logging
    import Logging
#endif

/// The configuration of database connections, read when a ``DatabaseQueue``
/// or ``DatabasePool`` opens.
///
/// ```swift
/// var config = Configuration()
/// config.readonly = true
/// config.prepareDatabase { db in
///     db.trace { print("SQL> \($0)") }
/// }
/// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite", configuration: config)
/// ```
public struct Configuration: Sendable {
    /// Whether foreign keys are enforced (`PRAGMA foreign_keys`). Default true.
    public var foreignKeysEnabled = true

    /// Whether connections are read-only. Default false.
    public var readonly = false

    /// Optional label, used to name dispatch queues and describe connections.
    public var label: String? = nil

    /// Whether error descriptions and traces may show statement arguments,
    /// which may hold sensitive data. Default false.
    public var publicStatementArguments = false

    /// Whether double-quoted strings are accepted as string literals (an
    /// SQLite misfeature). Default false: `"foo"` is an identifier.
    public var acceptsDoubleQuotedStringLiterals = false

    /// Whether transactions may be left open at the end of a database access.
    /// Default false: that is a fatal error.
    public var allowsUnsafeTransactions = false

    /// What happens when the database is locked by another connection.
    /// Default `.immediateError`: throw `SQLITE_BUSY` at once (a pool's
    /// writer first tries again for about 10 milliseconds: its own readers
    /// may hold a lock for an instant).
    ///
    /// With ``observesExternalChanges`` on, `.immediateError` waits up to
    /// 5 seconds for each lock instead (see that setting).
    public var busyMode: Database.BusyMode = .immediateError

    /// The journal mode. Default `.default`: WAL for pools, SQLite's default otherwise.
    public var journalMode: JournalModeConfiguration = .default

    /// The maximum number of concurrent readers of a pool. Default 5.
    public var maximumReaderCount = 5

    /// Whether the database observes suspension notifications (Apple apps). Default false.
    public var observesSuspensionNotifications = false

    /// Whether pool readers stay open instead of being closed to save memory. Default false.
    public var persistentReadOnlyConnections = false

    /// The source of schema information, such as primary keys of views.
    public var schemaSource: (any DatabaseSchemaSource)? = nil

    /// The clock of ``Database/transactionDate``. Default: the system clock.
    public var transactionClock: any TransactionClock = .default

    /// The quality of service of database accesses. Default `.default`.
    public var qos: DispatchQoS = .default

    /// The quality of service of reads.
    public var readQoS: DispatchQoS { qos }

    /// The quality of service of writes.
    public var writeQoS: DispatchQoS { qos }

    /// The target queue of the dispatch queues of read accesses. Accesses
    /// run at its quality of service, not at ``qos``.
    public var targetQueue: DispatchQueue? = nil

    /// The target queue of the dispatch queue of write accesses (defaults to
    /// ``targetQueue``). Accesses run at its quality of service, not at ``qos``.
    public var writeTargetQueue: DispatchQueue? = nil

    /// Whether SQLite checkpoints the WAL by itself when it grows past 1000
    /// pages (`PRAGMA wal_autocheckpoint`). Default true. Servers that
    /// checkpoint on their own schedule (``DatabasePool/walCheckpoint(_:)``)
    /// turn it off.
    ///
    /// Once a value observation fetches on the readers of a pool, its
    /// readers keep the WAL from restarting, and SQLite would checkpoint
    /// after every commit: the pool's writer then runs the same passive
    /// checkpoints once per 1000 new pages instead (and reading
    /// `PRAGMA wal_autocheckpoint` on it gives 0; setting it gives SQLite's
    /// own automatic checkpoint back). When the WAL still grows past 4000
    /// pages, the observations' fetches pause for about one fetch, so that
    /// the whole WAL is checkpointed and restarts.
    public var automaticCheckpoints = true

    /// Explains each distinct statement that the connections compile, once,
    /// and reports the steps of its query plan that suggest a missing
    /// index (full scans, temporary B-trees, automatic indexes). Nil, the
    /// default, explains nothing. Strata's own (GRDB has none): see
    /// ``QueryPlanMonitor``.
    public var queryPlanMonitor: QueryPlanMonitor? = nil

    /// Counts the executions, durations, rows and SQLite counters of each
    /// distinct statement that the connections run. Nil, the default,
    /// counts nothing. Strata's own (GRDB has none): see
    /// ``StatementStatisticsCollector``.
    public var statementStatistics: StatementStatisticsCollector? = nil

    /// Watches the WAL and the read transactions of the connections, for
    /// their storage health report (`storageHealth()`), and warns when the
    /// WAL passes a size or a long read keeps it growing. Nil, the default,
    /// watches nothing. Strata's own (GRDB has none): see
    /// ``StorageHealthMonitor``.
    public var storageHealthMonitor: StorageHealthMonitor? = nil

    /// Whether value observations and region observations also notice the
    /// commits of other connections to the same file: other processes,
    /// another pool, the `sqlite3` shell. Default false. Strata's own (GRDB
    /// has none): see <doc:SharingADatabaseBetweenProcesses>.
    ///
    /// The writer connection compares `PRAGMA data_version` when a file
    /// notification says the database or its WAL changed (inotify on Linux,
    /// dispatch sources on Apple platforms), or at each
    /// ``externalChangePollingInterval`` where notifications are missing.
    /// An external commit does not say what it changed: every observation
    /// fetches again. Watching starts with the first observation and stops
    /// with the last.
    ///
    /// Other processes lock the file while they write. When ``busyMode`` is
    /// `.immediateError`, the default, the connections of a database that
    /// observes external changes wait for such a lock instead, up to 5
    /// seconds for each lock, from the opening of each connection on: the
    /// opening itself, the fetches of observations, the library's own
    /// reads, and your reads and writes. They try again every millisecond
    /// at most (SQLite's `.timeout(_:)` waits up to 100 ms between tries,
    /// and can miss the instants between the transactions of a process
    /// that writes steadily). Past 5 seconds, the access throws
    /// `SQLITE_BUSY` (an observation ends with that error). Another busy
    /// mode is used as given: `.timeout(_:)` for another delay, or
    /// `.callback { _ in false }` for immediate errors.
    public var observesExternalChanges = false

    /// How long, in seconds, the connections of a database that observes
    /// external changes wait for a lock that another connection holds, when
    /// `busyMode` is `.immediateError` (see `observesExternalChanges`).
    /// Internal: tests shorten it.
    var externalChangesBusyTimeout: TimeInterval = 5

    /// Whether the connections wait for the locks of other connections, up
    /// to `externalChangesBusyTimeout` seconds, instead of throwing
    /// `SQLITE_BUSY` at once: `observesExternalChanges` is on, and
    /// `busyMode` is `.immediateError`.
    var waitsForExternalLocks: Bool {
        guard observesExternalChanges, case .immediateError = busyMode else { return false }
        return true
    }

    /// How often, in seconds, the writer looks for external commits where
    /// no file notification is available (or when
    /// ``observesExternalChanges`` cannot watch the files). Default 0.1.
    public var externalChangePollingInterval: TimeInterval = 0.1

    /// Whether external changes are looked for on file notifications, or
    /// only by polling (tests turn notifications off to test polling).
    var externalChangeUsesFileNotifications = true

    #if Logging
        /// The logger of SQL statements (`trace` level), slow statements and
        /// long read transactions (`warning`), connections (`info`), and
        /// failures of the library's own bookkeeping (`error`). Nil, the
        /// default, logs nothing. Needs the `Logging` package trait.
        ///
        /// Its level is read once per access, when the access starts: a
        /// change of level reaches each connection at its next access.
        /// Above `debug`, and without ``slowStatementThreshold``, the
        /// statements cost nothing more: no message, no metadata, no clock
        /// read.
        public var logger: Logger? = nil

        /// Statements that run longer than this, in seconds, are logged as
        /// warnings with their duration (and their arguments, only when
        /// ``publicStatementArguments`` is true). Nil, the default, logs none.
        ///
        /// While the logger's level is at most `warning`, every statement is
        /// timed (two clock reads), since any of them may be slow; the
        /// warning's message is only built for those that are.
        public var slowStatementThreshold: TimeInterval? = nil

        /// Read transactions of a ``DatabasePool`` that stay open longer than
        /// this, in seconds, are logged as warnings: long reads prevent
        /// checkpoints and let the WAL grow. Nil, the default, logs none.
        ///
        /// The start of each access is timed (one clock read) and, while the
        /// logger's level is at most `warning`, one timer at a time per
        /// connection checks the read that is open when it fires.
        public var longReadTransactionThreshold: TimeInterval? = nil
    #endif

    #if Metrics
        /// The metrics recorded through swift-metrics; nil, the default,
        /// records none. Needs the `Metrics` package trait.
        ///
        /// The handles are made once per connection; each statement costs
        /// two clock reads and one call to a handler.
        public var metrics: DatabaseMetrics? = nil
    #endif

    #if Tracing
        /// The spans created through swift-distributed-tracing; nil, the
        /// default, creates none. Needs the `Tracing` package trait.
        ///
        /// With a no-op tracer (none bootstrapped, or `NoOpTracer`), an
        /// access creates no span and its statements cost nothing more.
        public var tracing: DatabaseTracing? = nil
    #endif

    /// Functions run by ``prepareDatabase(_:)``, in order.
    var prepareDatabaseFunctions: [@Sendable (Database) throws -> Void] = []

    /// Whether async accesses run in their caller's task through a task
    /// executor, where the system has them (macOS 15, iOS 18, tvOS 18,
    /// watchOS 11). When false, or on older systems, they hop onto the
    /// connection's queue with a continuation. Internal: tests turn it off
    /// to run the older systems' path everywhere.
    var usesTaskExecutorForAsyncAccesses = true

    /// Creates a configuration with the default of each property, to change before the
    /// configuration is given to a queue or a pool.
    public init() {}

    /// Registers a function run on every new connection, before it is used:
    /// install traces, functions, collations, pragmas. Its error fails the
    /// opening of the connection.
    public mutating func prepareDatabase(_ setup: @escaping @Sendable (Database) throws -> Void) {
        prepareDatabaseFunctions.append(setup)
    }

    /// The journal mode of connections.
    public enum JournalModeConfiguration: Sendable {
        /// WAL for pools, SQLite's default journal mode otherwise.
        case `default`
        /// WAL mode, for queues as well as pools.
        case wal
    }
}

extension Database {
    /// A closure called with the number of retries when the database is
    /// locked; return true to try again.
    public typealias BusyCallback = @Sendable (Int) -> Bool

    /// What happens when the database is locked by another connection.
    public enum BusyMode: Sendable {
        /// Throws `SQLITE_BUSY` at once.
        case immediateError
        /// Waits up to the given number of seconds for the lock.
        case timeout(TimeInterval)
        /// Asks the callback whether to retry.
        case callback(Database.BusyCallback)
    }
}
