import Foundation

// Dates are stored as "YYYY-MM-DD HH:MM:SS.SSS" text in UTC, the format that
// sorts well, compares with CURRENT_TIMESTAMP and feeds SQLite date functions.

extension Date: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as TEXT `YYYY-MM-DD HH:MM:SS.SSS` in UTC, rounded to the millisecond.
    ///
    /// ```swift
    /// Date(timeIntervalSince1970: 0).databaseValue // "1970-01-01 00:00:00.000"
    /// ```
    public var databaseValue: DatabaseValue {
        DatabaseValue(
            storage: .string(
                SQLiteDateParser.databaseString(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate)))
    }

    /// Decodes SQLite date strings and Unix timestamps.
    ///
    /// Accepted strings are `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`, `YYYY-MM-DD HH:MM:SS`
    /// and `YYYY-MM-DD HH:MM:SS.SSS` (any number of fraction digits), with `T`
    /// or a space before the time, and an optional `Z` or `[+-]HH:MM` time zone
    /// after it. Missing parts are zero, and strings without a time zone are
    /// read in UTC. Integers and finite doubles are seconds since 1970-01-01 UTC.
    /// Anything else, such as blobs or `"now"`, gives nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Date? {
        switch dbValue.storage {
        case .int64(let v):
            return Date(timeIntervalSince1970: TimeInterval(v))
        case .double(let v):
            guard v.isFinite else { return nil }
            return Date(timeIntervalSince1970: v)
        case .string(var string):
            guard let interval = string.withUTF8({ SQLiteDateParser.timeIntervalSinceReferenceDate($0) }) else {
                return nil
            }
            return Date(timeIntervalSinceReferenceDate: interval)
        case .null, .blob:
            return nil
        }
    }

    /// Reads a date straight from a statement column, parsing text in place.
    ///
    /// Accepts the same values as ``fromDatabaseValue(_:)``.
    /// Wraps `sqlite3_column_value`, `sqlite3_value_type`, `sqlite3_value_text`,
    /// `sqlite3_value_int64` and `sqlite3_value_double`.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        // One column lookup instead of one per sqlite3_column_* call (a tenth
        // of the cost of a fetched date). The value is the column's own, used
        // at once on the thread that steps the statement, the way the
        // sqlite3_column_* functions use it.
        guard let value = sqlite3_column_value(sqliteStatement, index) else { return nil }
        switch sqlite3_value_type(value) {
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(value) else { return nil }
            let count = Int(sqlite3_value_bytes(value))
            guard
                let interval = SQLiteDateParser.timeIntervalSinceReferenceDate(
                    UnsafeBufferPointer(start: text, count: count))
            else { return nil }
            self.init(timeIntervalSinceReferenceDate: interval)
        case SQLITE_INTEGER:
            self.init(timeIntervalSince1970: TimeInterval(sqlite3_value_int64(value)))
        case SQLITE_FLOAT:
            let interval = sqlite3_value_double(value)
            guard interval.isFinite else { return nil }
            self.init(timeIntervalSince1970: interval)
        default:
            return nil
        }
    }

    /// Calls ``init(sqliteStatement:index:)``, which returns nil for NULL:
    /// the column's type is read once, not once here and once there.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Date? {
        Date(sqliteStatement: sqliteStatement, index: index)
    }

    /// Creates a date from a julian day number, as returned by SQLite's
    /// `julianday()` function, rounded to the millisecond like SQLite does.
    ///
    /// Returns nil when the day is outside SQLite's supported range
    /// (0 to 5373484.5, from 4714 BC to 9999 AD) or not finite.
    ///
    /// ```swift
    /// Date(julianDay: 2440587.5) // 1970-01-01 00:00:00 UTC
    /// ```
    public init?(julianDay: Double) {
        guard julianDay.isFinite, julianDay >= 0, julianDay <= 5_373_484.5 else { return nil }
        // Milliseconds since julian day 0, then since 1970-01-01 (julian day 2440587.5).
        let milliseconds = Int64(julianDay * 86_400_000 + 0.5) - 210_866_760_000_000
        self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }
}
