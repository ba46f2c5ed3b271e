import Foundation

/// Date components stored in one of the SQLite date formats.
///
/// It reads all the formats that SQLite date functions understand, and writes
/// the format of your choice:
///
/// ```swift
/// var components = DateComponents()
/// components.year = 1973
/// components.month = 9
/// components.day = 18
/// let dbComponents = DatabaseDateComponents(components, format: .YMD) // "1973-09-18"
///
/// let read = try DatabaseDateComponents.fetchOne(db, sql: "SELECT '1973-09-18 12:00'")!
/// read.format         // .YMD_HM
/// read.dateComponents // year 1973, month 9, day 18, hour 12, minute 0
/// ```
public struct DatabaseDateComponents: Sendable {
    /// The text formats of SQLite dates and times. Each raw value is the
    /// pattern of the format, in `DateFormatter` notation; the examples
    /// show 4:05:06.789 PM on January 2, 2003.
    public enum Format: String, Sendable {
        /// Hours and minutes only, `16:05`.
        case HM = "HH:mm"
        /// Hours, minutes and seconds only, `16:05:06`.
        case HMS = "HH:mm:ss"
        /// A time of day down to milliseconds, `16:05:06.789`.
        case HMSS = "HH:mm:ss.SSS"
        /// A calendar day, `2003-01-02`.
        case YMD = "yyyy-MM-dd"
        /// A calendar day with hours and minutes, `2003-01-02 16:05`.
        case YMD_HM = "yyyy-MM-dd HH:mm"
        /// A calendar day with a time down to seconds, `2003-01-02 16:05:06`.
        case YMD_HMS = "yyyy-MM-dd HH:mm:ss"
        /// A calendar day with a time down to milliseconds, `2003-01-02 16:05:06.789`.
        case YMD_HMSS = "yyyy-MM-dd HH:mm:ss.SSS"

        /// Whether the format starts with a day (year, month and day).
        var hasYMDComponents: Bool {
            rawValue.hasPrefix("yyyy")
        }
    }

    /// The calendar fields of the value: those given at creation, or those read from the stored
    /// string (the fields its format lacks are nil).
    public let dateComponents: DateComponents

    /// The format used to store the components, or the format found when
    /// they were read from the database.
    public let format: Format

    /// Creates components that are stored in the given format.
    ///
    /// Only the components that the format needs are stored, and the time
    /// zone is ignored. Missing ones are written as year 0, month 1, day 1
    /// and zero time: empty components in ``Format/YMD_HMSS`` are stored as
    /// `0000-01-01 00:00:00.000`.
    ///
    /// - Parameters:
    ///   - dateComponents: the date components.
    ///   - format: the format of the stored string.
    public init(_ dateComponents: DateComponents, format: Format) {
        self.dateComponents = dateComponents
        self.format = format
    }

    /// Reads components from parsed fields.
    init(fields: SQLiteDateFields) {
        var components = DateComponents()
        let format: Format
        if fields.hasDate {
            components.year = fields.year
            components.month = fields.month
            components.day = fields.day
        }
        if fields.hasTime {
            components.hour = fields.hour
            components.minute = fields.minute
        }
        if fields.hasSeconds {
            components.second = fields.second
        }
        if fields.hasFraction {
            components.nanosecond = fields.nanosecond
        }
        if let offset = fields.timeZoneOffset {
            components.timeZone = TimeZone(secondsFromGMT: offset)
        }
        switch (fields.hasDate, fields.hasTime, fields.hasSeconds, fields.hasFraction) {
        case (true, false, _, _): format = .YMD
        case (true, true, false, _): format = .YMD_HM
        case (true, true, true, false): format = .YMD_HMS
        case (true, true, true, true): format = .YMD_HMSS
        case (false, _, false, _): format = .HM
        case (false, _, true, false): format = .HMS
        case (false, _, true, true): format = .HMSS
        }
        self.init(components, format: format)
    }

    /// The database string of the components, in their format.
    var databaseString: String {
        let c = dateComponents
        return String(unsafeUninitializedCapacity: 40) { buffer in
            var writer = SQLiteDateWriter(buffer)
            if format.hasYMDComponents {
                writer.year(Int64(c.year ?? 0))
                writer.byte(UInt8(ascii: "-"))
                writer.number(Self.clamp(c.month ?? 1, 1, 99), width: 2)
                writer.byte(UInt8(ascii: "-"))
                writer.number(Self.clamp(c.day ?? 1, 1, 99), width: 2)
                if format == .YMD { return writer.count }
                writer.byte(UInt8(ascii: " "))
            }
            writer.number(Self.clamp(c.hour, 99), width: 2)
            writer.byte(UInt8(ascii: ":"))
            writer.number(Self.clamp(c.minute, 99), width: 2)
            if format == .HM || format == .YMD_HM { return writer.count }
            writer.byte(UInt8(ascii: ":"))
            writer.number(Self.clamp(c.second, 99), width: 2)
            if format == .HMS || format == .YMD_HMS { return writer.count }
            writer.byte(UInt8(ascii: "."))
            writer.number(Self.clamp(c.nanosecond, 999_999_999) / 1_000_000, width: 3)
            return writer.count
        }
    }

    /// A missing or negative component is zero; a larger one is clamped to
    /// the maximum that fits its width.
    private static func clamp(_ value: Int?, _ maximum: Int) -> Int {
        clamp(value ?? 0, 0, maximum)
    }

    /// The value, brought within the bounds.
    private static func clamp(_ value: Int, _ minimum: Int, _ maximum: Int) -> Int {
        min(max(value, minimum), maximum)
    }
}

extension DatabaseDateComponents: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as TEXT in the format of the components, such as `"1973-09-18"`
    /// for ``Format/YMD``.
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(databaseString))
    }

    /// Decodes any SQLite date string: `YYYY-MM-DD`, optionally followed by
    /// `HH:MM`, `HH:MM:SS` or `HH:MM:SS.SSS` (after `T` or a space), or a time
    /// alone; times may end with `Z` or `[+-]HH:MM`, which sets the time zone.
    /// Numbers, blobs and other strings give nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseDateComponents? {
        guard case .string(let string) = dbValue.storage,
            let fields = SQLiteDateParser.parse(string)
        else { return nil }
        return DatabaseDateComponents(fields: fields)
    }

    /// Reads components straight from a statement column, parsing text in place.
    /// Wraps `sqlite3_column_type` and `sqlite3_column_text`.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT,
            let text = sqlite3_column_text(sqliteStatement, index)
        else { return nil }
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        guard let fields = SQLiteDateParser.parse(UnsafeBufferPointer(start: text, count: count)) else { return nil }
        self.init(fields: fields)
    }
}

extension DatabaseDateComponents: Codable {
    /// Decodes components from a single string in any SQLite date format.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the string is not a date.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let fields = SQLiteDateParser.parse(string) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Not a valid date: \(String(reflecting: string))")
        }
        self.init(fields: fields)
    }

    /// Encodes the components as a single string, in their format.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(databaseString)
    }
}
