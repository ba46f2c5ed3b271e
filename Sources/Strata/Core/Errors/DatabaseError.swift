import Foundation

/// An error thrown by SQLite, or by Strata on behalf of SQLite.
///
/// Its ``description`` names the SQL, and the arguments only when the
/// connection's ``Configuration/publicStatementArguments`` is true.
public struct DatabaseError: Error, Sendable {
    /// The extended result code, such as `SQLITE_CONSTRAINT_FOREIGNKEY`.
    public let extendedResultCode: ResultCode

    /// The primary result code, such as `SQLITE_CONSTRAINT`.
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// The SQLite message, such as "FOREIGN KEY constraint failed". An error
    /// created without a message has SQLite's text for its result code.
    public let message: String?

    /// The SQL that failed, if any.
    public let sql: String?

    /// The arguments of the SQL that failed, if any.
    public let arguments: StatementArguments?

    /// Whether ``description`` may show ``arguments``.
    let publicStatementArguments: Bool

    /// Creates a database error. The default code is `SQLITE_ERROR`; without
    /// a message, the message is SQLite's text for the code ("SQL logic
    /// error"). Wraps `sqlite3_errstr`.
    public init(
        resultCode: ResultCode = .SQLITE_ERROR,
        message: String? = nil,
        sql: String? = nil,
        arguments: StatementArguments? = nil,
        publicStatementArguments: Bool = false
    ) {
        self.extendedResultCode = resultCode
        self.message = message ?? sqlite3_errstr(resultCode.rawValue).map { String(cString: $0) }
        self.sql = sql
        self.arguments = arguments
        self.publicStatementArguments = publicStatementArguments
    }

    /// True for `SQLITE_INTERRUPT` and `SQLITE_ABORT`: the errors thrown after
    /// an interruption (`Database/interrupt()`, task cancellation).
    public var isInterruptionError: Bool {
        switch resultCode {
        case .SQLITE_INTERRUPT, .SQLITE_ABORT: return true
        default: return false
        }
    }

    /// Builds the error for the last failure of a connection.
    /// Wraps `sqlite3_extended_errcode` and `sqlite3_errmsg`.
    static func lastError(
        of sqliteConnection: SQLiteConnection?,
        resultCode fallback: CInt? = nil,
        sql: String? = nil,
        arguments: StatementArguments? = nil,
        publicStatementArguments: Bool = false
    ) -> DatabaseError {
        var code = fallback ?? StrataSQLite.SQLITE_ERROR
        var message: String? = nil
        if let sqliteConnection {
            let extended = sqlite3_extended_errcode(sqliteConnection)
            // Prefer the connection's extended code when it refines the reported code.
            if fallback == nil || extended & 0xFF == code & 0xFF {
                code = extended
            }
            if let cMessage = sqlite3_errmsg(sqliteConnection) {
                message = String(cString: cMessage)
            }
        } else if let text = sqlite3_errstr(code) {
            message = String(cString: text)
        }
        return DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: message,
            sql: sql,
            arguments: arguments,
            publicStatementArguments: publicStatementArguments)
    }

    /// The message, or SQLite's own text for the result code when the error
    /// has no message ("constraint failed"). Wraps `sqlite3_errstr`.
    var messageOrCodeText: String? {
        if let message { return message }
        return sqlite3_errstr(extendedResultCode.rawValue).map { String(cString: $0) }
    }

    private func describe(showingArguments: Bool) -> String {
        var text = "SQLite error \(resultCode.rawValue)"
        if let message = messageOrCodeText {
            text += ": \(message)"
        }
        if let sql {
            text += " - while executing `\(sql.trimmedSQL)`"
        }
        if showingArguments, let arguments, !arguments.isEmpty {
            text += " with arguments \(arguments)"
        }
        return text
    }
}

extension DatabaseError: CustomStringConvertible {
    /// `SQLite error 19: UNIQUE constraint failed: player.id - while executing `INSERT ...``,
    /// followed by the arguments only when they are public.
    public var description: String {
        describe(showingArguments: publicStatementArguments)
    }

    /// Like ``description``, but always shows the arguments. Beware of leaking
    /// sensitive data.
    public var expandedDescription: String {
        describe(showingArguments: true)
    }
}

extension DatabaseError: CustomNSError {
    /// "GRDB.DatabaseError", the domain of bridged errors.
    public static var errorDomain: String { "GRDB.DatabaseError" }

    /// The SQLite extended result code (such as 2067 for `SQLITE_CONSTRAINT_UNIQUE`), as the code
    /// of the bridged `NSError`.
    public var errorCode: Int { Int(extendedResultCode.rawValue) }

    /// The description, as `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] {
        [NSLocalizedDescriptionKey: description]
    }
}
