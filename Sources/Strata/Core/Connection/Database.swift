// One class, one file: the `Database` class's stored properties, which
// Swift only allows in the class's own body (they cannot move to the
// extension files), and the opening and closing of the connection that set
// them up. Everything else a
// connection does is in the `Database+*.swift` files of this folder.

import Foundation

/// A connection to an SQLite database.
///
/// You never create a `Database` yourself: database accesses of a
/// ``DatabaseQueue`` or a ``DatabasePool`` hand you one, and it is only valid
/// inside their closure:
///
/// ```swift
/// try dbQueue.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// ```
public final class Database {
    // `sqliteConnection` is set in `init` and at close only, which update
    // `statementsNeedHooks` themselves: an observer would change its public
    // declaration.

    /// The raw connection handle, owned by Strata: never close it.
    /// Nil once the connection is closed.
    @exclusivity(unchecked) public private(set) var sqliteConnection: SQLiteConnection?

    /// The configuration of the connection.
    public let configuration: Configuration

    /// A description of the connection, such as "GRDB.DatabaseQueue" or the
    /// configured label.
    public let description: String

    /// The path of the database file (":memory:" for private in-memory databases).
    let path: String

    /// Collects the facts about the statement being compiled.
    let authorizer = StatementAuthorizer()

    /// Cached statements, by SQL.
    var statementCache: [String: Statement] = [:]

    /// The statements of `statementCache` that begin and commit
    /// transactions, by `TransactionStatementKind` (see
    /// `executeTransactionStatement(_:)`). Emptied with the cache, by
    /// `removeCachedStatements()`.
    @exclusivity(unchecked) var transactionStatements = [Statement?](
        repeating: nil, count: TransactionStatementKind.allCases.count)

    /// Functions registered on this connection, by name and argument count.
    var functions: [DatabaseFunction.ID: DatabaseFunction] = [:]

    /// Collations registered on this connection, by name.
    var collations: [DatabaseCollation.ID: DatabaseCollation] = [:]

    /// The trace function installed with ``trace(options:_:)``.
    var traceFunction: ((TraceEvent) -> Void)?

    /// The number of nested ``readOnly(_:)`` calls.
    var readOnlyDepth = 0

    /// Whether the connection was opened read-only, or is kept read-only.
    var isReadOnlyConnection: Bool

    // The properties marked `@exclusivity(unchecked)` are read at each
    // statement or transaction: they skip run-time exclusivity checks,
    // which were a visible part of each statement's cost. A `Database` only
    // runs on its own queue.

    /// Callbacks registered with ``afterNextTransaction(onCommit:onRollback:)``.
    @exclusivity(unchecked) var transactionCompletionCallbacks: [TransactionCompletionCallback] = []

    /// Transaction state seen by the commit and rollback hooks.
    @exclusivity(unchecked) var pendingTransactionCompletion: PendingTransactionCompletion = .none

    /// The date of the current transaction (``transactionDate``).
    @exclusivity(unchecked) var cachedTransactionDate: Date?

    /// Cancellation and interruption state, shared with other threads.
    let interruptState = InterruptState()

    /// Listens to ``suspendNotification``, with ``Configuration/observesSuspensionNotifications``.
    @exclusivity(unchecked) private(set) var suspension: SuspensionObserver? {
        didSet { updateStatementHooks() }
    }

    /// Schema information cached by introspection (`Database+Schema.swift`).
    @exclusivity(unchecked) var schemaCache = SchemaCache()

    /// Whether a statement that changes the schema (as the authorizer saw it
    /// compile) ran in the current transaction. Only such a transaction can
    /// change the schema when it rolls back: the rollback of any other one
    /// (a read-only transaction, a failed write that only changed rows)
    /// keeps `schemaCache`. This costs no statement, unlike a comparison of
    /// `PRAGMA schema_version` before and after. Reset when the transaction
    /// ends.
    @exclusivity(unchecked) var transactionChangedSchema = false

    /// Whether a read-only connection checked its schema cache against
    /// `PRAGMA schema_version` in the current transaction: the schema can't
    /// change until the transaction ends, so the cache is trusted until then.
    @exclusivity(unchecked) var schemaVersionIsChecked = false

    /// The number of the last commit notified to transaction observers:
    /// the reads they schedule after a commit are grouped by it
    /// (``ConcurrentReadLanes``).
    var observedCommitNumber = 0

    /// The schema source in effect (see ``withSchemaSource(_:execute:)``).
    public private(set) var schemaSource: (any DatabaseSchemaSource)?

    /// The number of transactions and savepoints opened by the wrapping
    /// methods (`write`, `inTransaction`, `inSavepoint`) that are running.
    /// When their transaction ends behind their back, the statements that
    /// follow throw `SQLITE_ABORT` until they return.
    @exclusivity(unchecked) var wrappedTransactionDepth = 0

    /// Whether a bookkeeping statement runs (``executeBookkeeping(sql:)``):
    /// aborted transactions and suspension don't refuse it.
    @exclusivity(unchecked) var isRunningBookkeeping = false

    /// Whether a rollback failed during the current access, and is tried
    /// again at its end.
    var isRollbackPending = false

    /// Whether a transaction was open when the current transaction statement
    /// (`BEGIN`, `COMMIT`, savepoints...) started; not kept for others.
    @exclusivity(unchecked) var wasInsideTransactionBeforeStatement = false

    /// The region read by the statements of a value observation fetch; nil
    /// when no fetch records its region.
    @exclusivity(unchecked) var recordedRegion: DatabaseRegion? {
        didSet { updateStatementHooks() }
    }

    /// Delivers changes to transaction observers; nil until the first one is added.
    @exclusivity(unchecked) var observationBroker: TransactionObservationBroker? {
        didSet { updateStatementHooks() }
    }

    /// Whether statements need more than the tests that every statement
    /// runs before and after it executes (see `statementWillExecute(_:)`):
    /// the connection is closed, or it has a suspension observer, a region
    /// being recorded, transaction observers (once one was added), or
    /// integrations. Kept by the observers of these properties (and by the
    /// closing of the connection), so that each statement reads one flag;
    /// true until the end of `init`.
    @exclusivity(unchecked) private(set) var statementsNeedHooks = true

    /// Computes `statementsNeedHooks`.
    private func updateStatementHooks() {
        statementsNeedHooks =
            sqliteConnection == nil || suspension != nil || recordedRegion != nil || observationBroker != nil
            || instrument != nil
    }

    /// Receives the queries of prefetched rows (`including(all:)`) with the
    /// key path of their rows, while ``dumpRequest(_:format:to:)`` runs.
    @exclusivity(unchecked) var prefetchQueryObserver: (([String], any FetchRequest<Row>) -> Void)?

    /// The opt-in integrations (logs, metrics, traces); nil without any.
    let instrument: (any DatabaseInstrument)?

    /// Which executions the instruments hear of, timed (see
    /// `DatabaseInstrument.statementTiming`): read at opening, then, during
    /// each access, what the instruments ask for that access
    /// (`statementTiming(during:)`).
    @exclusivity(unchecked) var instrumentStatementTiming: StatementTiming

    /// Whether an instrument reads when accesses wait and start
    /// (`DatabaseInstrument.timesAccesses`); read once, at opening.
    let instrumentTimesAccesses: Bool

    /// Whether an instrument wants the statements that ran in each access
    /// (`DatabaseInstrument.tracksStatementRuns`); read once, at opening.
    let instrumentTracksStatementRuns: Bool

    /// The statements that ran during the current access, when
    /// `instrumentTracksStatementRuns`: given to the instrument at its end.
    @exclusivity(unchecked) var statementsRunInAccess: [Statement] = []

    /// The access that runs, for the integrations.
    @exclusivity(unchecked) var currentAccess: DatabaseAccessContext?

    /// Whether a busy callback box must be released at close.
    private var busyCallbackBox: Unmanaged<BusyCallbackBox>?

    /// The automatic checkpoints of a pool's writer (nil elsewhere).
    var checkpointPacer: CheckpointPacer?

    /// The WAL hook that tells the instrument of commits and checkpoints;
    /// nil unless an instrument observes them (the storage health monitor).
    var walCommitRelay: WALCommitRelay?

    /// Released only after this connection is closed: a pool's reader keeps
    /// the pool's writer here, so that the writer closes last and, as the
    /// last connection to the file, checkpoints the WAL and deletes it. A
    /// read-only connection can do neither.
    var closesBefore: AnyObject?

    /// The queue that owns the connection (set by it), for the work that
    /// objects released outside of an access must do on the connection:
    /// see `performOnConnectionQueue(_:)`.
    weak var serializedDatabase: SerializedDatabase?

    /// Runs `work` where the connection may be used: now when the caller
    /// runs on the connection's queue (or the queue is gone), or else on the
    /// queue, once the accesses that run now have ended. For the cleanups
    /// of objects that may be released outside of an access, such as an
    /// unstopped changeset recorder.
    func performOnConnectionQueue(_ work: @escaping @Sendable () -> Void) {
        guard let serializedDatabase, !serializedDatabase.isOnQueue else {
            work()
            return
        }
        serializedDatabase.queue.async(execute: work)
    }

    /// The SQLite features this connection found available, one bit each
    /// (`Database+SQLiteFeatures.swift`).
    var sqliteFeatureCache = SQLiteFeatureCache()

    // MARK: - Opening

    /// Opens a connection. Throws `DatabaseError` when the file can't be opened
    /// or is not a database.
    init(path: String, description: String, configuration: Configuration) throws {
        self.path = path
        self.description = description
        self.configuration = configuration
        self.schemaSource = configuration.schemaSource
        self.isReadOnlyConnection = configuration.readonly
        let instrument = configuration.makeInstrument()
        self.instrument = instrument
        self.instrumentStatementTiming = instrument?.statementTiming ?? .none
        self.instrumentTimesAccesses = instrument?.timesAccesses ?? false
        self.instrumentTracksStatementRuns = instrument?.tracksStatementRuns ?? false

        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        if configuration.readonly {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var handle: SQLiteConnection? = nil
        _ = Database.sqliteMemoryStatisticsAreConfigured
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = DatabaseError.lastError(of: handle, resultCode: code)
            if let handle { sqlite3_close_v2(handle) }
            throw error
        }
        self.sqliteConnection = handle
        interruptState.withLock { interruptState.connection = handle }
        if configuration.observesSuspensionNotifications {
            suspension = SuspensionObserver(interruptState: interruptState)
        }
        do {
            try setUp()
        } catch {
            closeConnection()
            throw error
        }
        // The initializer's own assignments call no observer.
        updateStatementHooks()
        instrument?.connectionDidOpen(self)
    }

    deinit {
        closeConnection()
    }

    private func setUp() throws {
        guard let sqliteConnection else { return }
        sqlite3_extended_result_codes(sqliteConnection, 1)
        installAuthorizer()
        installTransactionHooks()
        installCancellationCheck()
        try setUpBusyMode()
        if !configuration.acceptsDoubleQuotedStringLiterals {
            _ = _strata_db_config_int(sqliteConnection, SQLITE_DBCONFIG_DQS_DML, 0)
            _ = _strata_db_config_int(sqliteConnection, SQLITE_DBCONFIG_DQS_DDL, 0)
        }
        // Fail early on files that are not databases (SQLITE_NOTADB).
        try execute(sql: "SELECT * FROM sqlite_master LIMIT 1")
        if configuration.foreignKeysEnabled {
            try execute(sql: "PRAGMA foreign_keys = ON")
        }
        for function in DatabaseFunction.builtIn {
            add(function: function)
        }
        for collation in DatabaseCollation.builtIn {
            add(collation: collation)
        }
        if !configuration.automaticCheckpoints && !configuration.readonly {
            try execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        for setup in configuration.prepareDatabaseFunctions {
            try setup(self)
        }
        // Last, so that the relay keeps the automatic checkpoint that the
        // configuration gave.
        if !configuration.readonly, let instrument, instrument.observesWALCommits {
            WALCommitRelay.install(on: self)
        }
    }

    private func setUpBusyMode() throws {
        guard let sqliteConnection else { return }
        switch configuration.busyMode {
        case .immediateError:
            if configuration.waitsForExternalLocks {
                retryWhenBusy(for: configuration.externalChangesBusyTimeout)
            }
        case .timeout(let duration):
            let milliseconds = max(0, min(Double(CInt.max), (duration * 1000).rounded()))
            sqlite3_busy_timeout(sqliteConnection, CInt(milliseconds))
        case .callback(let callback):
            installBusyCallback(callback)
        }
    }

    /// Makes SQLite call `callback` when the database is locked, instead of
    /// failing at once.
    func installBusyCallback(_ callback: @escaping Database.BusyCallback) {
        guard let sqliteConnection else { return }
        let box = Unmanaged.passRetained(BusyCallbackBox(callback))
        // The previous box is released once SQLite no longer points to it.
        defer {
            busyCallbackBox?.release()
            busyCallbackBox = box
        }
        sqlite3_busy_handler(
            sqliteConnection,
            { context, count in
                let box = Unmanaged<BusyCallbackBox>.fromOpaque(context!).takeUnretainedValue()
                return box.callback(Int(count)) ? 1 : 0
            },
            box.toOpaque())
    }

    // MARK: - Closing

    /// Whether the connection is closed.
    var isClosed: Bool { sqliteConnection == nil }

    /// Closes the connection. When statements are still alive, SQLite
    /// can't close it: this throws `SQLITE_BUSY`, logs each unfinalized
    /// statement through ``Database/logError``, and leaves the connection
    /// open and usable.
    func close() throws {
        guard let connection = sqliteConnection else { return }
        removeCachedStatements()
        releaseRecordStatements()
        let code = interruptState.withLock { () -> CInt in
            let code = sqlite3_close(connection)
            if code == SQLITE_OK {
                interruptState.connection = nil
            }
            return code
        }
        if code != SQLITE_OK {
            let error = DatabaseError.lastError(of: connection, resultCode: code)
            logUnfinalizedStatements()
            throw error
        }
        sqliteConnection = nil
        updateStatementHooks()
        releaseBusyCallback()
        observationBroker?.databaseDidClose()
        instrument?.connectionDidClose(self)
    }

    /// Finalizes the INSERT statements that persistence methods keep per
    /// record type (in the schema cache), which would keep the connection
    /// from closing. Called between statements, where no insert borrows
    /// them: they are released at once, not at the end of the access.
    private func releaseRecordStatements() {
        schemaCache.reset()
        schemaCache.accessDidEnd()
    }

    /// Reports the statements that prevent the connection from closing.
    private func logUnfinalizedStatements() {
        guard let logError = Database.logError, let sqliteConnection else { return }
        var statement = sqlite3_next_stmt(sqliteConnection, nil)
        while let current = statement {
            let sql = sqlite3_sql(current).map { String(cString: $0) } ?? ""
            logError(.SQLITE_MISUSE, "unfinalized statement: \(sql)")
            statement = sqlite3_next_stmt(sqliteConnection, current)
        }
    }

    private func closeConnection() {
        guard let connection = sqliteConnection else { return }
        removeCachedStatements()
        releaseRecordStatements()
        interruptState.withLock {
            sqlite3_close_v2(connection)
            interruptState.connection = nil
        }
        sqliteConnection = nil
        updateStatementHooks()
        releaseBusyCallback()
    }

    private func releaseBusyCallback() {
        busyCallbackBox?.release()
        busyCallbackBox = nil
    }

    /// Throws when the connection is closed.
    func checkNotClosed() throws {
        if sqliteConnection == nil {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed")
        }
    }

    // MARK: - Information

    /// The version of the linked SQLite library, such as 3040001.
    /// Wraps `sqlite3_libversion_number`.
    public static var sqliteLibVersionNumber: CInt { SQLiteLibrary.versionNumber }

    /// The rowid of the last successful INSERT on this connection.
    /// Wraps `sqlite3_last_insert_rowid`.
    public var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(sqliteConnection)
    }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    /// Wraps `sqlite3_changes`.
    public var changesCount: Int {
        Int(sqlite3_changes(sqliteConnection))
    }

    /// The number of rows changed since the connection was opened.
    /// Wraps `sqlite3_total_changes`.
    public var totalChangesCount: Int {
        Int(sqlite3_total_changes(sqliteConnection))
    }

    /// The extended code of the last error. Wraps `sqlite3_extended_errcode`.
    public var lastErrorCode: ResultCode {
        ResultCode(rawValue: sqlite3_extended_errcode(sqliteConnection))
    }

    /// The message of the last error. Wraps `sqlite3_errmsg`.
    public var lastErrorMessage: String? {
        sqlite3_errmsg(sqliteConnection).map { String(cString: $0) }
    }

    /// The maximum number of arguments a statement accepts.
    /// Wraps `sqlite3_limit(SQLITE_LIMIT_VARIABLE_NUMBER)`.
    public var maximumStatementArgumentCount: Int {
        Int(sqlite3_limit(sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
    }

    /// True when a transaction is open. Wraps `sqlite3_get_autocommit`.
    public var isInsideTransaction: Bool {
        guard let sqliteConnection else { return false }
        return sqlite3_get_autocommit(sqliteConnection) == 0
    }

    /// The schema version (`PRAGMA schema_version`), which changes with the schema.
    public func schemaVersion() throws -> Int32 {
        try Int32.fetchOne(self, sql: "PRAGMA schema_version") ?? 0
    }

    /// Frees as much memory as possible: cached statements and SQLite caches.
    /// Wraps `sqlite3_db_release_memory`.
    public func releaseMemory() {
        removeCachedStatements()
        if let sqliteConnection {
            sqlite3_db_release_memory(sqliteConnection)
        }
    }

    /// Runs `block` with another schema source.
    public func withSchemaSource<T>(
        _ schemaSource: (any DatabaseSchemaSource)?,
        execute block: () throws -> T
    ) rethrows -> T {
        let previous = self.schemaSource
        self.schemaSource = schemaSource
        defer { self.schemaSource = previous }
        return try block()
    }

    // MARK: - Read-only

    /// Runs `value` with writes forbidden (`PRAGMA query_only`): a write throws
    /// `SQLITE_READONLY`.
    public func readOnly<T>(_ value: () throws -> T) throws -> T {
        if isReadOnlyConnection || readOnlyDepth > 0 {
            readOnlyDepth += 1
            defer { readOnlyDepth -= 1 }
            return try value()
        }
        do {
            try executeCached(sql: "PRAGMA query_only = 1")
        } catch {
            // SQLite sets the flag when it (re)compiles the pragma: an
            // interrupted step may leave it set.
            _ = try? executeBookkeeping(sql: "PRAGMA query_only = 0", after: Result<Void, any Error>.failure(error))
            throw error
        }
        readOnlyDepth += 1
        let result = Result { try value() }
        readOnlyDepth -= 1
        // Bookkeeping: writes come back even when the access is cancelled.
        return try executeBookkeeping(sql: "PRAGMA query_only = 0", after: result)
    }

    /// Forgets everything cached about the schema, including cached statements.
    public func clearSchemaCache() {
        removeCachedStatements()
        schemaCache.reset()
    }
}

extension Database: CustomDebugStringConvertible {
    /// The description of the connection, for debugging.
    public var debugDescription: String {
        "<Database: \(description)>"
    }
}

/// Holds the closure of a busy callback for the C busy handler.
final class BusyCallbackBox {
    let callback: Database.BusyCallback
    init(_ callback: @escaping Database.BusyCallback) {
        self.callback = callback
    }
}
