/// An SQLite result code, primary or extended.
///
/// Use it in patterns: an extended code matches its primary code.
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT ...")
/// } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
///     // a foreign key violation
/// } catch DatabaseError.SQLITE_CONSTRAINT {
///     // any other constraint violation
/// }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable {
    /// The numeric value of the code.
    public let rawValue: CInt

    /// Creates a result code from its numeric value.
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The primary code of an extended code (its 8 low bits); a primary code returns itself.
    public var primaryResultCode: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    /// Whether this is a primary result code.
    var isPrimary: Bool {
        self == primaryResultCode
    }

    /// Returns true when the code is the pattern, or when the pattern is a
    /// primary code and the code is one of its extended codes.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        if pattern.isPrimary {
            return pattern == code.primaryResultCode
        } else {
            return pattern == code
        }
    }

    /// Returns true when the error is a ``DatabaseError`` whose extended code
    /// matches the pattern (see ``~=(_:_:)-(ResultCode,ResultCode)``).
    public static func ~= (lhs: ResultCode, rhs: any Error) -> Bool {
        if let error = rhs as? DatabaseError {
            return lhs ~= error.extendedResultCode
        }
        return false
    }
}

extension ResultCode: CustomStringConvertible {
    /// The code and its English explanation: `19 (constraint failed)`.
    /// Wraps `sqlite3_errstr`.
    public var description: String {
        if let text = sqlite3_errstr(rawValue) {
            return "\(rawValue) (\(String(cString: text)))"
        }
        return "\(rawValue)"
    }
}
