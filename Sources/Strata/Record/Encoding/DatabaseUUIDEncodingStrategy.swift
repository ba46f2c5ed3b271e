import Foundation

/// How `Encodable` records store their `UUID` properties.
///
/// Fetching needs no strategy: UUIDs decode from blobs and strings alike.
///
/// ```swift
/// struct Player: Encodable, PersistableRecord {
///     static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
///         .uppercaseString
///     }
///     var uuid: UUID // stored as "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
/// }
/// ```
public enum DatabaseUUIDEncodingStrategy: Sendable {
    /// The UUID stores itself: a 16-byte blob.
    case deferredToUUID

    /// Uppercase text: `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    case uppercaseString

    /// Lowercase text: `e621e1f8-c36c-495a-93fc-0c247a3e6e5f`.
    case lowercaseString

    /// The stored value of a UUID.
    func encode(_ uuid: UUID) -> any DatabaseValueConvertible {
        switch self {
        case .deferredToUUID:
            return uuid
        case .uppercaseString:
            return uuid.uuidString
        case .lowercaseString:
            return uuid.uuidString.lowercased()
        }
    }
}
