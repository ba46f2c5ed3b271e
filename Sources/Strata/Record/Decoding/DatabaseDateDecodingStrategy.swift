import Foundation

/// How a decodable record decodes its `Date` properties, column by column.
/// See ``FetchableRecord/databaseDateDecodingStrategy(for:)``.
///
/// ```swift
/// struct Event: Decodable, FetchableRecord {
///     static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
///         .timeIntervalSince1970
///     }
///     var date: Date
/// }
/// ```
public enum DatabaseDateDecodingStrategy: @unchecked Sendable {
    /// The `Date` conversion of ``DatabaseValueConvertible``: date strings
    /// such as "2024-05-31 12:34:56.789", and Julian day numbers (the default).
    case deferredToDate

    /// A function of the database value; nil when the value is not a date.
    case custom(@Sendable (DatabaseValue) -> Date?)

    // Strings

    /// An ISO 8601 string, such as "2024-05-31T12:34:56Z".
    case iso8601

    /// A string parsed by the formatter.
    case formatted(DateFormatter)

    // Numbers

    /// A number of seconds since 1970-01-01 00:00:00 UTC.
    case timeIntervalSince1970

    /// A number of milliseconds since 1970-01-01 00:00:00 UTC.
    case millisecondsSince1970

    /// A number of seconds since 2001-01-01 00:00:00 UTC.
    case timeIntervalSinceReferenceDate

    /// The decoded date, or nil when the non-NULL value does not fit.
    func decode(_ dbValue: DatabaseValue) -> Date? {
        switch self {
        case .deferredToDate:
            return Date.fromDatabaseValue(dbValue)
        case .timeIntervalSinceReferenceDate:
            return Self.number(dbValue).map { Date(timeIntervalSinceReferenceDate: $0) }
        case .timeIntervalSince1970:
            return Self.number(dbValue).map { Date(timeIntervalSince1970: $0) }
        case .millisecondsSince1970:
            return Self.number(dbValue).map { Date(timeIntervalSince1970: $0 / 1000) }
        case .iso8601:
            guard case .string(let string) = dbValue.storage else { return nil }
            if #available(macOS 12, iOS 15, tvOS 15, watchOS 8, *) {
                return try? Date.ISO8601FormatStyle().parse(string)
            } else {
                return ISO8601DateFormatter().date(from: string)
            }
        case .formatted(let formatter):
            guard case .string(let string) = dbValue.storage else { return nil }
            return formatter.date(from: string)
        case .custom(let decode):
            return decode(dbValue)
        }
    }

    /// Integers and doubles; text and blobs are not numbers.
    private static func number(_ dbValue: DatabaseValue) -> Double? {
        switch dbValue.storage {
        case .int64(let int): return Double(int)
        case .double(let double): return double
        case .null, .string, .blob: return nil
        }
    }
}
