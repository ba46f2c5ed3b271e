import Foundation

extension Database {
    /// Compiles one statement. Throws when the SQL is invalid, or holds more
    /// than one statement (`SQLITE_MISUSE`).
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT * FROM player WHERE id = ?")
    /// ```
    ///
    /// - Complexity: Compiles the SQL (`sqlite3_prepare_v3`) at each call; prefer
    ///   ``cachedStatement(sql:)`` for a statement run many times.
    public func makeStatement(sql: String) throws -> Statement {
        try checkNotClosed()
        return try makeStatement(sql: sql, prepFlags: 0)
    }

    /// Compiles one statement from an SQL literal. Interpolated values are
    /// bound at once; `?` and `:name` placeholders written in the literal
    /// itself stay unbound until arguments are given later.
    ///
    /// - Complexity: Compiles the SQL at each call.
    public func makeStatement(literal sqlLiteral: SQL) throws -> Statement {
        let (sql, arguments) = try sqlLiteral.build(self)
        let statement = try makeStatement(sql: sql)
        if !arguments.isEmpty {
            try statement.setArguments(arguments)
        }
        return statement
    }

    /// Returns a compiled statement from the connection's cache, compiling it on
    /// first use. The cache survives schema changes.
    ///
    /// - Complexity: Compiles the SQL once per connection; later calls look it up in a dictionary.
    public func cachedStatement(sql: String) throws -> Statement {
        try cachedStatement(sql: sql, cacheKey: sql)
    }

    /// Returns a cached statement for the main query of a request that
    /// prefetches rows. It is cached apart from ``cachedStatement(sql:)``,
    /// under a key that no SQL can have (it starts with a NUL character),
    /// because its ``Statement/databaseRegion`` also covers the prefetched
    /// tables: a request of the same SQL without prefetches keeps the region
    /// of its own tables.
    func cachedPrefetchingStatement(sql: String) throws -> Statement {
        try cachedStatement(sql: sql, cacheKey: "\u{0}prefetching " + sql)
    }

    @inline(__always)
    private func cachedStatement(sql: String, cacheKey: String) throws -> Statement {
        if let statement = statementCache[cacheKey] {
            statement.reset()
            return statement
        }
        try checkNotClosed()
        let statement = try makeStatement(sql: sql, prepFlags: CUnsignedInt(SQLITE_PREPARE_PERSISTENT))
        statement.isCached = true
        statementCache[cacheKey] = statement
        return statement
    }

    /// Returns a cached statement for an SQL literal. Interpolated values are
    /// bound at once; placeholders written in the literal stay unbound.
    ///
    /// - Complexity: Compiles the SQL once per connection; later calls look it up in a dictionary.
    public func cachedStatement(literal sqlLiteral: SQL) throws -> Statement {
        let (sql, arguments) = try sqlLiteral.build(self)
        let statement = try cachedStatement(sql: sql)
        if !arguments.isEmpty {
            try statement.setArguments(arguments)
        }
        return statement
    }

    private func makeStatement(sql: String, prepFlags: CUnsignedInt) throws -> Statement {
        var utf8 = sql
        return try utf8.withUTF8 { buffer -> Statement in
            try buffer.withMemoryRebound(to: CChar.self) { chars -> Statement in
                guard let start = chars.baseAddress else {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "empty statement", sql: sql)
                }
                var tail: UnsafePointer<CChar>? = nil
                guard
                    let statement = try Statement(
                        database: self, cString: start, byteCount: chars.count, tail: &tail, prepFlags: prepFlags)
                else {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "empty statement", sql: sql)
                }
                instrument?.statementWasPrepared(statement, self)
                // Anything but white space and comments after the statement is a second statement.
                if let tail, tail - start < chars.count {
                    let rest = UnsafeBufferPointer(start: tail, count: chars.count - (tail - start))
                    if containsStatement(rest) {
                        throw DatabaseError(
                            resultCode: .SQLITE_MISUSE,
                            message: "Multiple statements found. To execute multiple statements, "
                                + "use Database.execute(sql:) or Database.allStatements(sql:) instead.",
                            sql: sql)
                    }
                }
                return statement
            }
        }
    }

    /// Whether some SQL text holds anything but white space, comments and
    /// semicolons. The text is scanned, not compiled, so that the error of
    /// a second statement is never reported instead of the misuse.
    private func containsStatement(_ chars: UnsafeBufferPointer<CChar>) -> Bool {
        var i = 0
        let count = chars.count
        func at(_ index: Int) -> UInt8 { index < count ? UInt8(bitPattern: chars[index]) : 0 }
        while i < count {
            switch at(i) {
            case 0x20, 0x09, 0x0A, 0x0C, 0x0D, UInt8(ascii: ";"):
                i += 1
            case UInt8(ascii: "-") where at(i + 1) == UInt8(ascii: "-"):
                while i < count && at(i) != 0x0A { i += 1 }
            case UInt8(ascii: "/") where at(i + 1) == UInt8(ascii: "*"):
                i += 2
                while i < count && !(at(i) == UInt8(ascii: "*") && at(i + 1) == UInt8(ascii: "/")) { i += 1 }
                i += 2
            case 0:
                return false
            default:
                return true
            }
        }
        return false
    }

    /// Executes one or several statements separated by semicolons, consuming
    /// the arguments in order. Throws `DatabaseError`.
    ///
    /// ```swift
    /// try db.execute(sql: """
    ///     CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
    ///     INSERT INTO player (name) VALUES (?);
    ///     """, arguments: ["Arthur"])
    /// ```
    ///
    /// - Complexity: Compiles and runs each statement of `sql`, in order.
    public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try allStatements(sql: sql, arguments: arguments).forEach { try $0.execute() }
    }

    /// Executes an SQL literal, which may hold several statements.
    ///
    /// - Complexity: Compiles and runs each statement of the literal, in order.
    public func execute(literal sqlLiteral: SQL) throws {
        let (sql, arguments) = try sqlLiteral.build(self)
        try execute(sql: sql, arguments: arguments)
    }

    /// Returns a cursor over the statements found in `sql`, each compiled when
    /// reached, with its share of the arguments.
    ///
    /// Iterate it with `forEach`, or join the rows of several statements with
    /// `flatMap`:
    ///
    /// ```swift
    /// let rows = try db.allStatements(sql: "SELECT ...; SELECT ...")
    ///     .flatMap { statement in try Row.fetchCursor(statement) }
    /// ```
    ///
    /// - Complexity: Compiles each statement when the cursor reaches it, inside the database
    ///   access.
    public func allStatements(sql: String, arguments: StatementArguments? = nil) throws -> SQLStatementCursor {
        try checkNotClosed()
        return SQLStatementCursor(database: self, sql: sql, arguments: arguments)
    }

    /// Returns a cursor over the statements of an SQL literal.
    public func allStatements(literal sqlLiteral: SQL) throws -> SQLStatementCursor {
        let (sql, arguments) = try sqlLiteral.build(self)
        return try allStatements(sql: sql, arguments: arguments)
    }
}

/// A cursor over the statements of an SQL string, compiling each one when it
/// is reached. See ``Database/allStatements(sql:arguments:)``.
public class SQLStatementCursor {
    private let database: Database
    /// The SQL, read in place as a C string (native strings end with a NUL).
    private let sql: String
    private var offset = 0
    private var arguments: StatementArguments?
    private let checksArguments: Bool
    /// The number of positional arguments given, for the error message.
    private let argumentCount: Int

    init(database: Database, sql: String, arguments: StatementArguments?) {
        self.database = database
        self.sql = sql
        self.arguments = arguments
        self.checksArguments = arguments != nil
        self.argumentCount = arguments?.valueCount ?? 0
    }
}

extension SQLStatementCursor: Cursor {
    /// Compiles and returns the next statement, with its arguments set, or nil
    /// at the end. Throws when extra arguments remain at the end.
    public func next() throws -> Statement? {
        let byteCount = sql.utf8.count
        while offset < byteCount {
            let statement: Statement? = try sql.withCString { base in
                let start = base + offset
                var tail: UnsafePointer<CChar>? = nil
                let statement = try Statement(
                    database: database, cString: start, byteCount: byteCount - offset, tail: &tail, prepFlags: 0)
                offset = tail.map { $0 - base } ?? byteCount
                return statement
            }
            if let statement {
                database.instrument?.statementWasPrepared(statement, database)
                if var remaining = arguments {
                    try statement.consumeArguments(&remaining)
                    arguments = remaining
                }
                return statement
            }
        }
        if checksArguments, let arguments, arguments.valueCount > 0 {
            self.arguments = StatementArguments()
            // As in GRDB, the error names no SQL: the arguments left over
            // belong to no statement.
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: \(argumentCount)",
                arguments: arguments,
                publicStatementArguments: database.configuration.publicStatementArguments)
        }
        return nil
    }
}

extension Database {
    /// Executes one statement from the statement cache: for the statements
    /// Strata runs at every access (transactions, read-only mode).
    func executeCached(sql: String) throws {
        try checkNotClosed()
        try cachedStatement(sql: sql).execute()
    }

    /// Executes a statement that begins or commits a transaction, from the
    /// statement cache. It is also kept in `transactionStatements`, where
    /// the next transactions find it without hashing its SQL: two
    /// dictionary lookups of 18 to 27 bytes of SQL were 5% of a one-row
    /// write access (issue 46).
    func executeTransactionStatement(_ kind: TransactionStatementKind) throws {
        try checkNotClosed()
        if let statement = transactionStatements[kind.rawValue] {
            // `execute()` resets it.
            try statement.execute()
            return
        }
        let statement = try cachedStatement(sql: kind.sql)
        transactionStatements[kind.rawValue] = statement
        try statement.execute()
    }

    /// Empties the statement cache, and `transactionStatements` with it.
    func removeCachedStatements() {
        statementCache.removeAll()
        for index in transactionStatements.indices { transactionStatements[index] = nil }
    }
}

/// The statements that begin and commit transactions (see
/// `Database.executeTransactionStatement(_:)`), and their index in
/// `Database.transactionStatements`.
enum TransactionStatementKind: Int, CaseIterable {
    case beginDeferred, beginImmediate, beginExclusive, commit

    /// The SQL, the same as their key in the statement cache.
    var sql: String {
        switch self {
        case .beginDeferred: "BEGIN DEFERRED TRANSACTION"
        case .beginImmediate: "BEGIN IMMEDIATE TRANSACTION"
        case .beginExclusive: "BEGIN EXCLUSIVE TRANSACTION"
        case .commit: "COMMIT TRANSACTION"
        }
    }
}

extension Database.TransactionKind {
    /// The statement that begins a transaction of this kind.
    var beginStatement: TransactionStatementKind {
        switch self {
        case .deferred: .beginDeferred
        case .immediate: .beginImmediate
        case .exclusive: .beginExclusive
        }
    }
}
