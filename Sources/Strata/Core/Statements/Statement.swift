// One class, one file: the `Statement` class's stored properties (the
// caches of its columns, its arguments and its execution counters), which
// Swift only allows in the class's own body, and the execution that reads
// and resets them together. Arguments, coding keys and instrumentation live
// in the `Statement+*.swift` extensions.

import Foundation

/// A prepared statement: compiled SQL, ready to be executed or fetched, many times.
///
/// ```swift
/// let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
/// try statement.execute(arguments: ["Arthur", 1000])
/// try statement.execute(arguments: ["Barbara", 750])
/// ```
///
/// A statement belongs to its database connection: only use it inside the
/// database access that created it (or reload it from ``Database/cachedStatement(sql:)``).
public final class Statement {
    /// The raw statement handle, owned by Strata. Never finalize it.
    public let sqliteStatement: SQLiteStatement

    /// The connection that compiled the statement.
    /// Unowned and unchecked: a statement is only used inside an access of its
    /// connection, which outlives it. Checked references cost atomic operations
    /// on every execution.
    unowned(unsafe) let database: Database

    /// `database`, for the hooks called at each execution: calling a method
    /// of an `unowned(unsafe)` reference still retains and releases it around
    /// the call (an atomic increment and decrement, two per execution), which
    /// `withDatabase(_:)` avoids.
    private let unmanagedDatabase: Unmanaged<Database>

    /// Calls `body` with the connection, without retaining it (see
    /// `unmanagedDatabase`): the connection outlives its statements' executions.
    @inline(__always)
    func withDatabase<Result>(_ body: (Database) throws -> Result) rethrows -> Result {
        try unmanagedDatabase._withUnsafeGuaranteedRef(body)
    }

    /// The SQL of the statement, trimmed of surrounding white space.
    public var sql: String { _sql }
    private let _sql: String

    /// The tables and columns read by the statement, found when it was
    /// compiled. A request that prefetches rows adds the region of its other
    /// queries.
    public internal(set) var databaseRegion: DatabaseRegion

    /// The tables and columns read by the statement itself, as the
    /// authorizer found them when it was compiled.
    let compiledRegion: DatabaseRegion

    /// Whether the statement changes the schema (CREATE, DROP, ALTER...).
    let invalidatesDatabaseSchemaCache: Bool

    /// Whether the statement starts, ends, or manages a transaction or savepoint.
    let isTransactionStatement: Bool

    /// The changes the statement may perform, for transaction observers.
    let eventKinds: [DatabaseEventKind]

    /// The savepoint the statement starts, releases or rolls back to.
    let savepointAction: SavepointAction?

    /// Whether the statement is a `ROLLBACK` (of the transaction, or to a
    /// savepoint), which cancellation never refuses and which may undo
    /// schema changes. Computed once: it is read at each execution.
    let isRollback: Bool

    /// Whether running the statement may change the transaction or the
    /// schema (`isTransactionStatement || invalidatesDatabaseSchemaCache`):
    /// one test for the connection's hooks at each execution.
    let hasExecutionEffects: Bool

    /// The number of parameters (`sqlite3_bind_parameter_count`), read at
    /// each binding: stored, rather than asked of SQLite twice an execution.
    /// A recompilation of the statement keeps its SQL, hence its parameters.
    let parameterCount: CInt

    /// The names of the parameters (without prefix), nil for anonymous `?`.
    private(set) lazy var parameterNames: [String?] = {
        let count = parameterCount
        guard count > 0 else { return [] }
        return (1...count).map { index -> String? in
            guard let cName = sqlite3_bind_parameter_name(sqliteStatement, index) else { return nil }
            let name = String(cString: cName)
            // `?NNN` parameters are positional.
            if name.hasPrefix("?") { return nil }
            return String(name.dropFirst())
        }
    }()

    /// Whether some parameters are named (`:name`, `$name`, `@name`).
    var hasNamedParameters: Bool {
        @inline(__always) get { namedParametersFlag.value { parameterNames.contains { $0 != nil } } }
    }

    /// Whether all parameters are named.
    var allParametersNamed: Bool {
        @inline(__always) get { allParametersNamedFlag.value { parameterNames.allSatisfy { $0 != nil } } }
    }

    /// The caches of `hasNamedParameters` and `allParametersNamed`, read at
    /// each binding.
    @exclusivity(unchecked) private var namedParametersFlag = ComputedOnceFlag()
    @exclusivity(unchecked) private var allParametersNamedFlag = ComputedOnceFlag()

    /// The parameter names, when all parameters are named, in memory that
    /// the statement owns until it is deallocated: reading them at each
    /// execution retains nothing, where an array costs a retain and a release.
    var namedParameterNames: UnsafeBufferPointer<String> {
        @inline(__always) get {
            if let buffer = namedParameterNameBuffer { return UnsafeBufferPointer(buffer) }
            return makeNamedParameterNames()
        }
    }

    @inline(never)
    private func makeNamedParameterNames() -> UnsafeBufferPointer<String> {
        let names = parameterNames
        let buffer = UnsafeMutableBufferPointer<String>.allocate(capacity: names.count)
        for (index, name) in names.enumerated() {
            (buffer.baseAddress! + index).initialize(to: name ?? "")
        }
        namedParameterNameBuffer = buffer
        return UnsafeBufferPointer(buffer)
    }

    /// The storage of `namedParameterNames`; nil until first read.
    @exclusivity(unchecked)
    private var namedParameterNameBuffer: UnsafeMutableBufferPointer<String>?

    @exclusivity(unchecked)
    var _arguments = StatementArguments()
    /// Whether SQLite's bindings were cleared after `execute(arguments:)`:
    /// the next execution binds `_arguments` again.
    @exclusivity(unchecked)
    var bindingsWereCleared = false

    /// Whether `setUncheckedArguments(_:)` reset the statement to bind its
    /// arguments, and nothing stepped it since: its next execution need not
    /// reset it again.
    @exclusivity(unchecked)
    var isResetSinceBinding = false

    /// Compiles the first statement found in `sql`. Returns nil when it only
    /// holds white space or comments. `tail` receives the position after the statement.
    init?(
        database: Database,
        cString: UnsafePointer<CChar>,
        byteCount: Int,
        tail: inout UnsafePointer<CChar>?,
        prepFlags: CUnsignedInt
    ) throws {
        let authorizer = database.authorizer
        authorizer.reset()
        var handle: SQLiteStatement? = nil
        let code = sqlite3_prepare_v3(
            database.sqliteConnection, cString, CInt(byteCount), prepFlags, &handle, &tail)
        let consumed = code == SQLITE_OK ? (tail.map { $0 - cString } ?? byteCount) : byteCount
        let givenSQL = String(decoding: UnsafeRawBufferPointer(start: cString, count: consumed), as: UTF8.self)
        guard code == SQLITE_OK else {
            throw DatabaseError.lastError(
                of: database.sqliteConnection, resultCode: code, sql: givenSQL,
                publicStatementArguments: database.configuration.publicStatementArguments)
        }
        let sql = givenSQL.trimmedSQL
        guard let handle else { return nil }
        self.sqliteStatement = handle
        self.parameterCount = sqlite3_bind_parameter_count(handle)
        self.database = database
        self.unmanagedDatabase = Unmanaged.passUnretained(database)
        self._sql = sql
        self.compiledRegion = authorizer.region
        self.databaseRegion = compiledRegion
        self.invalidatesDatabaseSchemaCache = authorizer.invalidatesDatabaseSchemaCache
        self.isTransactionStatement = authorizer.isTransactionStatement
        self.eventKinds = authorizer.eventKinds
        self.savepointAction = authorizer.savepointAction
        self.hasExecutionEffects = authorizer.isTransactionStatement || authorizer.invalidatesDatabaseSchemaCache
        self.isRollback =
            authorizer.isTransactionStatement
            && sql.utf8.prefix(8).elementsEqual("ROLLBACK".utf8, by: { $0 & 0xDF == $1 })
    }

    deinit {
        sqlite3_finalize(sqliteStatement)
        if let namedParameterNameBuffer {
            namedParameterNameBuffer.deinitialize()
            namedParameterNameBuffer.deallocate()
        }
        #if Macros
            for buffer in recordColumnBuffers {
                buffer.indexes.deallocate()
            }
        #endif
    }

    /// The number of result columns. Wraps `sqlite3_column_count`.
    public var columnCount: Int {
        Int(sqlite3_column_count(sqliteStatement))
    }

    /// The result column names, in order. Wraps `sqlite3_column_name`.
    public lazy var columnNames: [String] = {
        columnNamesWereRead = true
        return Self.currentColumnNames(of: sqliteStatement)
    }()

    private static func currentColumnNames(of sqliteStatement: SQLiteStatement) -> [String] {
        (0..<sqlite3_column_count(sqliteStatement)).map { String(cString: sqlite3_column_name(sqliteStatement, $0)) }
    }

    /// Whether `names` are the column names of `sqliteStatement`.
    private static func columnNames(_ names: [String], match sqliteStatement: SQLiteStatement) -> Bool {
        guard names.count == Int(sqlite3_column_count(sqliteStatement)) else { return false }
        for (index, name) in names.enumerated() {
            guard let current = sqlite3_column_name(sqliteStatement, CInt(index)),
                name.withCString({ strcmp($0, current) == 0 })
            else { return false }
        }
        return true
    }

    /// Whether `columnNames` was read (and everything cached about the
    /// columns is derived from it).
    @exclusivity(unchecked)
    private var columnNamesWereRead = false

    /// Set at each execution, so that its first row checks whether SQLite
    /// compiled the statement again (`checkRecompilation()`).
    @exclusivity(unchecked)
    @usableFromInline
    var checksRecompilation = false

    /// `SQLITE_STMTSTATUS_REPREPARE` when what the statement caches about
    /// its columns was found.
    @exclusivity(unchecked)
    private var recompilationCount: CInt = 0

    /// Called at the first row of an execution. SQLite compiles a statement
    /// again when the schema changed since it was compiled, and when another
    /// connection changed it (a writer of a pool dropped a table and created
    /// it again), a `SELECT *` may then have other columns, in another order:
    /// the column names and indexes cached from the former compilation are
    /// forgotten.
    @usableFromInline
    func checkRecompilation() {
        checksRecompilation = false
        let count = sqlite3_stmt_status(sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
        guard count != recompilationCount else { return }
        recompilationCount = count
        // SQLite also compiles a statement again when new values bound to
        // its parameters may change its query plan: its columns stay.
        guard columnNamesWereRead, !Self.columnNames(columnNames, match: sqliteStatement) else { return }
        columnNames = Self.currentColumnNames(of: sqliteStatement)
        lowercaseColumnIndexes = nil
        lookupNames = []
        predictionNames = []
        hasUniqueColumnNames = false
        columnLookupHint = 0
        codingKeyType = nil
        codingKeyColumns = []
        #if Macros
            // No row of this statement is being decoded: the next row is the
            // first one of this execution.
            for buffer in recordColumnBuffers {
                buffer.indexes.deallocate()
            }
            recordColumnBuffers = []
            recordColumnsType = nil
            recordColumnIndexes = nil
        #endif
    }

    /// Lowercased column names to their leftmost index; nil until the first lookup.
    @exclusivity(unchecked)
    private var lowercaseColumnIndexes: [String: Int]?

    /// The column names, for lookups.
    @exclusivity(unchecked)
    @usableFromInline
    var lookupNames: [String] = []

    /// `lookupNames` when `hasUniqueColumnNames`, and empty otherwise: the
    /// names that `predictedIndex(ofColumn:)` compares.
    @exclusivity(unchecked)
    @usableFromInline
    var predictionNames: [String] = []

    /// Whether no two names are equal, ignoring case, so that an exact match
    /// is also the leftmost case-insensitive match.
    @exclusivity(unchecked)
    @usableFromInline
    var hasUniqueColumnNames = false

    /// The position after the last column found by name: records often read
    /// columns in order, so the next lookup usually matches it.
    @exclusivity(unchecked)
    @usableFromInline
    var columnLookupHint = 0

    /// How many times the statement started running: cursors compare it
    /// to know whether they still own the statement.
    @exclusivity(unchecked)
    @usableFromInline
    var executionCount = 0

    /// When the running execution started (`DispatchTime` nanoseconds), for
    /// the integrations; 0 when none is configured or the execution ended.
    @usableFromInline @exclusivity(unchecked) var instrumentedStart: UInt64 = 0

    /// The rows that the statement stepped to since it was compiled
    /// (wrapping): the statement statistics count the difference.
    @usableFromInline @exclusivity(unchecked) var steppedRowCount = 0

    /// The executions that failed since the statement was compiled.
    @exclusivity(unchecked) var failureCount = 0

    /// Whether the statement is in `Database.statementsRunInAccess`.
    @exclusivity(unchecked) var isRunInAccess = false

    /// Whether the statement belongs to the statement cache, which keeps it
    /// alive until the connection closes (or the cache is cleared).
    @exclusivity(unchecked) var isCached = false

    /// What the statement statistics keep for this statement (the figures
    /// of its SQL), so that they find them without a lookup at each
    /// execution. Nil until they set it; nothing else may set it (they
    /// read it without a dynamic cast).
    @exclusivity(unchecked) var instrumentAttachment: AnyObject?

    /// The error of the last failed step, until the statement runs again:
    /// a cursor that failed throws it again.
    @exclusivity(unchecked)
    @usableFromInline
    var stepFailure: (any Error)?

    /// The type of the coding keys of `codingKeyColumns`.
    @exclusivity(unchecked)
    var codingKeyType: ObjectIdentifier?

    /// For each column, the bits of the coding key last found there, or 0:
    /// see `index(ofKey:)`.
    @exclusivity(unchecked)
    var codingKeyColumns: [UInt64] = []

    #if Macros
        /// The record type of `recordColumnIndexes`: the last record type
        /// whose macro-generated `init(row:)` read this statement's rows.
        @exclusivity(unchecked)
        @usableFromInline
        var recordColumnsType: ObjectIdentifier?

        /// The column index of each property of that record type, in the
        /// order of its declaration, or -1 for a missing column: resolved
        /// once per statement rather than at each row. It points into
        /// `recordColumnBuffers`.
        @exclusivity(unchecked)
        @usableFromInline
        var recordColumnIndexes: UnsafePointer<Int>?

        /// The indexes of every record type that read this statement, kept
        /// until the statement is deallocated: a record's `init(row:)` reads
        /// its indexes without retaining anything, and a record of another
        /// type decoded in the middle (a property that is a record) must not
        /// free them.
        @exclusivity(unchecked)
        var recordColumnBuffers: [(type: ObjectIdentifier, indexes: UnsafeMutableBufferPointer<Int>)] = []
    #endif

    /// The index of the leftmost column with that name, compared case-insensitively.
    /// Inlined in clients, so that the predicted column costs no call.
    @inlinable
    @inline(__always)
    public func index(ofColumn name: String) -> Int? {
        if let index = predictedIndex(ofColumn: name) {
            return index
        }
        return lookUpIndex(ofColumn: name)
    }

    /// The index of the column when it is the one after the previous lookup:
    /// records often read columns in order. Inlined in clients.
    @inlinable
    @inline(__always)
    func predictedIndex(ofColumn name: String) -> Int? {
        let hint = columnLookupHint
        // Empty unless the names are unique: one test less per lookup.
        return predictionNames.withUnsafeBufferPointer { names in
            // `hint` is never negative: one comparison checks both bounds.
            guard UInt(bitPattern: hint) < UInt(bitPattern: names.count), names[hint] == name else {
                return nil
            }
            // Wraps around, so that the first column of the next row is predicted too.
            columnLookupHint = hint + 1 == names.count ? 0 : hint + 1
            return hint
        }
    }

    @usableFromInline
    func lookUpIndex(ofColumn name: String) -> Int? {
        if lowercaseColumnIndexes == nil {
            prepareColumnLookup()
        }
        if hasUniqueColumnNames {
            // Exact matches are the common case: comparing equal small strings
            // is cheaper than hashing, and columns are often read in order.
            let count = lookupNames.count
            var i = columnLookupHint
            for _ in 0..<count {
                if i >= count { i = 0 }
                if lookupNames[i] == name {
                    columnLookupHint = i + 1 == count ? 0 : i + 1
                    return i
                }
                i += 1
            }
        }
        return lowercaseColumnIndexes?[name.lowercased()]
    }

    private func prepareColumnLookup() {
        let names = columnNames
        var indexes: [String: Int] = [:]
        // Indices rather than `enumerated().reversed()`, whose collection
        // form needs a recent system.
        for index in names.indices.reversed() {
            indexes[names[index].lowercased()] = index
        }
        lookupNames = names
        hasUniqueColumnNames = indexes.count == names.count
        predictionNames = hasUniqueColumnNames ? names : []
        lowercaseColumnIndexes = indexes
    }

    /// Whether the statement does not write. Wraps `sqlite3_stmt_readonly`.
    public var isReadonly: Bool {
        sqlite3_stmt_readonly(sqliteStatement) != 0
    }

    /// Resets the statement so that it can run again. Wraps `sqlite3_reset`.
    @usableFromInline
    func reset() {
        resetInline()
    }

    /// `reset()`, inlined in the execution of a statement with arguments
    /// (issue 34): one call and its lines of code fewer per insert.
    @inline(__always)
    func resetInline() {
        sqlite3_reset(sqliteStatement)
        if _slowPath(instrumentedStart != 0) {
            // Stopped before its end (`fetchOne`, a cursor dropped early):
            // the integrations see it end now.
            instrumentedStatementDidStop()
        }
    }

    /// Out of line: only statements that integrations watch get here.
    @inline(never)
    private func instrumentedStatementDidStop() {
        database.statementDidStop(self)
    }

    // MARK: - Execution

    /// Executes the statement, with new arguments if given.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
    /// try statement.execute(arguments: ["Arthur"])
    /// ```
    ///
    /// - Complexity: Runs the statement to its end; allocates nothing per row.
    @inlinable
    public func execute(arguments: StatementArguments? = nil) throws {
        // Inlined, so that the caller's arguments (usually a literal built
        // for this call) are handed over to the statement, which keeps them,
        // rather than retained by the statement, then released by the caller:
        // two atomic operations per execution.
        try executeTakingArguments(arguments)
    }

    /// `execute(arguments:)`, taking the arguments.
    @usableFromInline
    func executeTakingArguments(_ arguments: consuming StatementArguments?) throws {
        // Moved, not copied: `if let arguments` copies them (a retain and a
        // release).
        if let arguments = consume arguments {
            try takeArguments(arguments)
            // The values given here are not kept bound by SQLite.
            defer { clearBindings() }
            try run(isReset: true)
            return
        }
        try run(isReset: false)
    }

    /// Runs the statement to its end. `isReset` tells that the statement was
    /// just reset, by binding arguments: a second reset costed 1% of an insert.
    @inline(__always)
    private func run(isReset: Bool) throws {
        try beginExecution(isReset: isReset)
        defer { endExecution() }
        while true {
            switch sqlite3_step(sqliteStatement) {
            case SQLITE_ROW:
                steppedRowCount &+= 1
            case SQLITE_DONE:
                return
            case let code:
                try didFailStepping(code)
            }
        }
    }

    /// Resets the statement and lets the database check it may run (read-only
    /// accesses, interruptions). Called before stepping.
    @usableFromInline
    func prepareExecution(isReset: Bool = false) throws {
        try beginExecution(isReset: isReset)
    }

    /// `prepareExecution(isReset:)`, inlined in the library's executions
    /// (`execute`, record inserts): most executions only run its tests.
    @inline(__always)
    func beginExecution(isReset: Bool) throws {
        if _slowPath(isResetSinceBinding) {
            isResetSinceBinding = false
        } else if !isReset {
            reset()
        }
        if bindingsWereCleared {
            rebindClearedArguments()
        }
        executionCount &+= 1
        checksRecompilation = true
        // Tested first: assigning nil calls `swift_release` on the old value
        // even when it is nil.
        if stepFailure != nil { stepFailure = nil }
        try withDatabase { try $0.statementWillExecute(self) }
    }

    /// Binds the arguments again after `clearBindings()`. Out of line: few
    /// executions need it, and its code would lengthen the others.
    @inline(never)
    private func rebindClearedArguments() {
        setUncheckedArguments(_arguments)
        // The execution that binds them steps the statement next.
        isResetSinceBinding = false
    }

    /// Releases the values bound in SQLite (`sqlite3_clear_bindings`) of a
    /// statement of at most 20 parameters, as GRDB does; the next execution
    /// binds the statement arguments again. Statements with more parameters
    /// keep their values bound.
    ///
    /// The statement is not reset: it ran to its end, and the next binding
    /// resets it.
    private func clearBindings() {
        // The stored count: `parameterNames` would cost a retain and a
        // release of the array.
        guard parameterCount <= Self.maximumClearedParameterCount else { return }
        sqlite3_clear_bindings(sqliteStatement)
        bindingsWereCleared = true
    }

    /// The largest number of parameters whose values are released after
    /// `execute(arguments:)`.
    private static let maximumClearedParameterCount: CInt = 20

    /// Called when a cursor reached the end of the statement.
    @usableFromInline
    func didFinishStepping() {
        endExecution()
    }

    /// `didFinishStepping()`, inlined in the library's executions.
    @inline(__always)
    func endExecution() {
        withDatabase { $0.statementDidExecute(self) }
    }

    /// Throws the error of a failed step and lets the database react.
    @usableFromInline
    func didFailStepping(_ code: CInt) throws -> Never {
        let error = DatabaseError.lastError(
            of: database.sqliteConnection, resultCode: code, sql: sql, arguments: _arguments,
            publicStatementArguments: database.configuration.publicStatementArguments)
        // Not `reset()`, which would tell the instruments that the
        // statement ended well: they hear of its failure below.
        sqlite3_reset(sqliteStatement)
        let failure = database.statementDidFail(self, error: error)
        stepFailure = failure
        throw failure
    }
}

extension Statement: CustomStringConvertible {
    /// The SQL of the statement.
    public var description: String { sql }
}

extension Statement: _RowLayout {
    /// The result columns of the statement, each with its index: the layout row adapters start
    /// from. Used by the library when it applies an adapter; apps do not call it.
    public var _layoutColumns: [(Int, String)] {
        Array(columnNames.enumerated())
    }

    /// The index of the leftmost result column with this name (case-insensitive), for row
    /// adapters. Used by the library; apps do not call it.
    public func _layoutIndex(ofColumn name: String) -> Int? {
        index(ofColumn: name)
    }
}
