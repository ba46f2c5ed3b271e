import Foundation

extension Database {
    /// The events a trace function receives.
    public struct TracingOptions: OptionSet, Sendable {
        /// The raw `SQLITE_TRACE_*` mask.
        public let rawValue: CInt

        /// Creates options from an `SQLITE_TRACE_*` mask.
        public init(rawValue: CInt) {
            self.rawValue = rawValue
        }

        /// Statements, as they start (`SQLITE_TRACE_STMT`).
        public static let statement = TracingOptions(rawValue: SQLITE_TRACE_STMT)

        /// Statements with their duration, as they end (`SQLITE_TRACE_PROFILE`).
        public static let profile = TracingOptions(rawValue: SQLITE_TRACE_PROFILE)
    }

    /// An event received by a trace function.
    public enum TraceEvent: CustomStringConvertible {
        /// A statement that starts.
        case statement(Statement)
        /// A statement that ended, with its duration in seconds.
        case profile(statement: Statement, duration: TimeInterval)

        /// A traced statement. Only valid inside the trace function.
        public struct Statement: CustomStringConvertible {
            let sqliteStatement: SQLiteStatement
            let unexpandedSQL: UnsafePointer<CChar>?
            let publicStatementArguments: Bool

            /// The SQL of the statement, with parameters (`?`).
            /// Wraps `sqlite3_sql`.
            public var sql: String {
                if let unexpandedSQL {
                    return String(cString: unexpandedSQL).trimmedSQL
                }
                return String(cString: sqlite3_sql(sqliteStatement)).trimmedSQL
            }

            /// The SQL of the statement, with argument values (may leak
            /// sensitive data). Wraps `sqlite3_expanded_sql`.
            public var expandedSQL: String {
                guard let cString = sqlite3_expanded_sql(sqliteStatement) else { return sql }
                defer { sqlite3_free(cString) }
                return String(cString: cString).trimmedSQL
            }

            /// The SQL, with values only when ``Configuration/publicStatementArguments`` is true.
            public var description: String {
                publicStatementArguments ? expandedSQL : sql
            }
        }

        /// The SQL of the statement, preceded by the duration for profile events:
        /// `0.001s SELECT * FROM player`. Values are shown only when arguments are public.
        public var description: String {
            switch self {
            case .statement(let statement):
                return statement.description
            case .profile(let statement, let duration):
                return String(format: "%.3f", duration) + "s " + statement.description
            }
        }

        /// Like ``description``, always with values (may leak sensitive data).
        public var expandedDescription: String {
            switch self {
            case .statement(let statement):
                return statement.expandedSQL
            case .profile(let statement, let duration):
                return String(format: "%.3f", duration) + "s " + statement.expandedSQL
            }
        }
    }

    /// Installs a trace function that receives executed statements, or removes it
    /// when `trace` is nil. Wraps `sqlite3_trace_v2`.
    ///
    /// ```swift
    /// db.trace { print("SQL> \($0)") }
    /// db.trace(options: .profile) { event in print(event) }
    /// ```
    public func trace(options: TracingOptions = .statement, _ trace: ((TraceEvent) -> Void)? = nil) {
        traceFunction = trace
        guard let sqliteConnection else { return }
        guard trace != nil, !options.isEmpty else {
            sqlite3_trace_v2(sqliteConnection, 0, nil, nil)
            return
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_trace_v2(
            sqliteConnection, CUnsignedInt(options.rawValue),
            { mask, context, p, x in
                let db = Unmanaged<Database>.fromOpaque(context!).takeUnretainedValue()
                guard let trace = db.traceFunction, let p else { return 0 }
                let sqliteStatement = OpaquePointer(p)
                let publicArguments = db.configuration.publicStatementArguments
                switch CInt(mask) {
                case SQLITE_TRACE_STMT:
                    let sql = x?.assumingMemoryBound(to: CChar.self)
                    // Statements run by triggers start with "--": skip them.
                    if let sql, sql.pointee == 0x2D, sql.advanced(by: 1).pointee == 0x2D { return 0 }
                    trace(
                        .statement(
                            TraceEvent.Statement(
                                sqliteStatement: sqliteStatement, unexpandedSQL: nil,
                                publicStatementArguments: publicArguments)))
                case SQLITE_TRACE_PROFILE:
                    let nanoseconds = x?.assumingMemoryBound(to: Int64.self).pointee ?? 0
                    trace(
                        .profile(
                            statement: TraceEvent.Statement(
                                sqliteStatement: sqliteStatement, unexpandedSQL: nil,
                                publicStatementArguments: publicArguments),
                            duration: TimeInterval(nanoseconds) / 1.0e9))
                default:
                    break
                }
                return 0
            }, context)
    }

    /// A function that receives SQLite's error log: result codes and messages.
    public typealias LogErrorFunction = @Sendable (ResultCode, String) -> Void

    /// The function that receives SQLite's error log (set it before opening
    /// any connection). Wraps `sqlite3_config(SQLITE_CONFIG_LOG)`.
    nonisolated(unsafe) public static var logError: LogErrorFunction? = nil {
        didSet {
            if logError != nil {
                _ = _strata_config_log(
                    { _, code, message in
                        guard let logError = Database.logError else { return }
                        logError(ResultCode(rawValue: code), message.map { String(cString: $0) } ?? "")
                    }, nil)
            } else {
                _ = _strata_config_log(nil, nil)
            }
        }
    }
}
