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
    unowned let database: Database

    /// The SQL of the statement, trimmed of surrounding white space.
    public var sql: String { _sql }
    private let _sql: String

    /// The tables and columns read by the statement, found when it was compiled.
    public var databaseRegion: DatabaseRegion { _databaseRegion }
    private let _databaseRegion: DatabaseRegion

    /// Whether the statement changes the schema (CREATE, DROP, ALTER...).
    let invalidatesDatabaseSchemaCache: Bool

    /// Whether the statement starts, ends, or manages a transaction or savepoint.
    let isTransactionStatement: Bool

    /// The names of the parameters (without prefix), nil for anonymous `?`.
    private(set) lazy var parameterNames: [String?] = {
        let count = sqlite3_bind_parameter_count(sqliteStatement)
        guard count > 0 else { return [] }
        return (1...count).map { index -> String? in
            guard let cName = sqlite3_bind_parameter_name(sqliteStatement, index) else { return nil }
            let name = String(cString: cName)
            // `?NNN` parameters are positional.
            if name.hasPrefix("?") { return nil }
            return String(name.dropFirst())
        }
    }()

    private var _arguments = StatementArguments()

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
        let sql = String(
            decoding: UnsafeRawBufferPointer(start: cString, count: consumed), as: UTF8.self
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        guard code == SQLITE_OK else {
            throw DatabaseError.lastError(
                of: database.sqliteConnection, resultCode: code, sql: sql,
                publicStatementArguments: database.configuration.publicStatementArguments)
        }
        guard let handle else { return nil }
        self.sqliteStatement = handle
        self.database = database
        self._sql = sql
        self._databaseRegion = authorizer.region
        self.invalidatesDatabaseSchemaCache = authorizer.invalidatesDatabaseSchemaCache
        self.isTransactionStatement = authorizer.isTransactionStatement
    }

    deinit {
        sqlite3_finalize(sqliteStatement)
    }

    /// The number of result columns. Wraps `sqlite3_column_count`.
    public var columnCount: Int {
        Int(sqlite3_column_count(sqliteStatement))
    }

    /// The result column names, in order. Wraps `sqlite3_column_name`.
    public lazy var columnNames: [String] = {
        (0..<CInt(columnCount)).map { String(cString: sqlite3_column_name(sqliteStatement, $0)) }
    }()

    /// Lowercased column names to their leftmost index, built on first lookup.
    private lazy var columnIndexes: [String: Int] = {
        var indexes: [String: Int] = [:]
        for (index, name) in columnNames.enumerated().reversed() {
            indexes[name.lowercased()] = index
        }
        return indexes
    }()

    /// Whether no two column names are equal, ignoring case, so that an exact
    /// match is also the leftmost case-insensitive match.
    private lazy var hasUniqueColumnNames: Bool = {
        columnIndexes.count == columnNames.count
    }()

    /// The index of the leftmost column with that name, compared case-insensitively.
    public func index(ofColumn name: String) -> Int? {
        // Exact matches are the common case: comparing small strings is cheaper than hashing.
        if hasUniqueColumnNames {
            let names = columnNames
            for i in names.indices where names[i] == name {
                return i
            }
        }
        return columnIndexes[name.lowercased()]
    }

    /// Whether the statement does not write. Wraps `sqlite3_stmt_readonly`.
    public var isReadonly: Bool {
        sqlite3_stmt_readonly(sqliteStatement) != 0
    }

    // MARK: - Arguments

    /// The bound arguments. Setting invalid arguments is a programmer error:
    /// use ``setArguments(_:)`` for untrusted ones.
    public var arguments: StatementArguments {
        get { _arguments }
        set {
            do {
                try setArguments(newValue)
            } catch {
                fatalError("\(error)")
            }
        }
    }

    /// Throws when the arguments do not fit the statement's parameters.
    public func validateArguments(_ arguments: StatementArguments) throws {
        var consumed = arguments
        _ = try extractBindings(from: &consumed, allowingRemainingValues: false)
    }

    /// Validates and binds arguments; text and blobs are copied.
    public func setArguments(_ arguments: StatementArguments) throws {
        var consumed = arguments
        let bindings = try extractBindings(from: &consumed, allowingRemainingValues: false)
        _arguments = arguments
        try bind(bindings)
    }

    /// Binds arguments without validating them: missing values are NULL, extra
    /// values are ignored.
    public func setUncheckedArguments(_ arguments: StatementArguments) {
        _arguments = arguments
        var consumed = arguments
        var bindings: [DatabaseValue] = []
        for name in parameterNames {
            if let name, let value = consumed.namedValues[name] {
                bindings.append(value)
            } else if !consumed.values.isEmpty {
                bindings.append(consumed.values.removeFirst())
            } else {
                bindings.append(.null)
            }
        }
        try? bind(bindings)
    }

    /// Consumes the arguments for this statement (multi-statement execution).
    func consumeArguments(_ arguments: inout StatementArguments) throws {
        let original = arguments
        let bindings = try extractBindings(from: &arguments, allowingRemainingValues: true)
        var used = StatementArguments()
        used.values = Array(original.values.prefix(original.values.count - arguments.values.count))
        used.namedValues = original.namedValues
        _arguments = used
        try bind(bindings)
    }

    private func extractBindings(
        from arguments: inout StatementArguments,
        allowingRemainingValues: Bool
    ) throws -> [DatabaseValue] {
        do {
            return try arguments.extractBindings(
                forParameterNames: parameterNames,
                allowingRemainingValues: allowingRemainingValues,
                sql: sql)
        } catch let error as DatabaseError {
            throw DatabaseError(
                resultCode: error.extendedResultCode, message: error.message, sql: sql, arguments: error.arguments,
                publicStatementArguments: database.configuration.publicStatementArguments)
        }
    }

    private func bind(_ bindings: [DatabaseValue]) throws {
        reset()
        sqlite3_clear_bindings(sqliteStatement)
        for (i, value) in bindings.enumerated() {
            let code = value.bind(to: sqliteStatement, at: CInt(i + 1))
            if code != SQLITE_OK {
                throw DatabaseError.lastError(
                    of: database.sqliteConnection, resultCode: code, sql: sql, arguments: _arguments,
                    publicStatementArguments: database.configuration.publicStatementArguments)
            }
        }
    }

    /// Resets the statement so that it can run again. Wraps `sqlite3_reset`.
    @usableFromInline
    func reset() {
        sqlite3_reset(sqliteStatement)
    }

    // MARK: - Execution

    /// Executes the statement, with new arguments if given.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
    /// try statement.execute(arguments: ["Arthur"])
    /// ```
    public func execute(arguments: StatementArguments? = nil) throws {
        if let arguments {
            try setArguments(arguments)
        }
        try prepareExecution()
        defer { database.statementDidExecute(self) }
        while true {
            switch sqlite3_step(sqliteStatement) {
            case SQLITE_ROW:
                continue
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
    func prepareExecution() throws {
        reset()
        try database.statementWillExecute(self)
    }

    /// Called when a cursor reached the end of the statement.
    @usableFromInline
    func didFinishStepping() {
        database.statementDidExecute(self)
    }

    /// Throws the error of a failed step and lets the database react.
    @usableFromInline
    func didFailStepping(_ code: CInt) throws -> Never {
        let error = DatabaseError.lastError(
            of: database.sqliteConnection, resultCode: code, sql: sql, arguments: _arguments,
            publicStatementArguments: database.configuration.publicStatementArguments)
        reset()
        database.statementDidFail(self, error: error)
        throw error
    }
}

extension Statement: CustomStringConvertible {
    /// The SQL of the statement.
    public var description: String { sql }
}

extension Statement: _RowLayout {
    public var _layoutColumns: [(Int, String)] {
        Array(columnNames.enumerated())
    }

    public func _layoutIndex(ofColumn name: String) -> Int? {
        index(ofColumn: name)
    }
}
