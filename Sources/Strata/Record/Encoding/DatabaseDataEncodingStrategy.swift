import Foundation

/// How `Encodable` records store their `Data` properties.
///
/// ```swift
/// struct Message: Encodable, PersistableRecord {
///     static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
///         .text
///     }
///     var body: Data // stored as UTF-8 text
/// }
/// ```
public enum DatabaseDataEncodingStrategy: Sendable {
    /// The data stores itself: a blob.
    case deferredToData

    /// UTF-8 text (a blob when the data is not valid UTF-8).
    case text

    /// A closure returns the value (nil is NULL).
    case custom(@Sendable (Data) -> (any DatabaseValueConvertible)?)

    /// The stored value of some data.
    func encode(_ data: Data) -> (any DatabaseValueConvertible)? {
        switch self {
        case .deferredToData:
            return data
        case .text:
            return String(data: data, encoding: .utf8) ?? data
        case .custom(let transform):
            return transform(data)
        }
    }
}
