import Foundation

/// How `Encodable` records store their `Date` properties.
///
/// ```swift
/// struct Player: Encodable, PersistableRecord {
///     static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
///         .timeIntervalSince1970
///     }
///     var creationDate: Date
/// }
/// ```
public enum DatabaseDateEncodingStrategy: @unchecked Sendable {
    /// The date stores itself: text `YYYY-MM-DD HH:MM:SS.SSS` in UTC.
    case deferredToDate

    /// A double: seconds since 2001-01-01 00:00:00 UTC.
    case timeIntervalSinceReferenceDate

    /// A double: seconds since 1970-01-01 00:00:00 UTC.
    case timeIntervalSince1970

    /// An integer: milliseconds since 1970-01-01 00:00:00 UTC, rounded down.
    case millisecondsSince1970

    /// An integer: seconds since 1970-01-01 00:00:00 UTC, rounded down.
    case secondsSince1970

    /// ISO 8601 text, such as `2024-05-01T12:30:00Z`.
    case iso8601

    /// Text from the formatter.
    case formatted(DateFormatter)

    /// A closure returns the value (nil is NULL).
    case custom(@Sendable (Date) -> (any DatabaseValueConvertible)?)

    /// The stored value of a date.
    func encode(_ date: Date) -> (any DatabaseValueConvertible)? {
        switch self {
        case .deferredToDate:
            return date
        case .timeIntervalSinceReferenceDate:
            return date.timeIntervalSinceReferenceDate
        case .timeIntervalSince1970:
            return date.timeIntervalSince1970
        case .millisecondsSince1970:
            return Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        case .secondsSince1970:
            return Int64(date.timeIntervalSince1970.rounded(.down))
        case .iso8601:
            if #available(macOS 12, iOS 15, tvOS 15, watchOS 8, *) {
                return date.formatted(.iso8601)
            } else {
                // Same output: "2001-01-01T00:00:00Z".
                return ISO8601DateFormatter().string(from: date)
            }
        case .formatted(let formatter):
            return formatter.string(from: date)
        case .custom(let transform):
            return transform(date)
        }
    }
}
