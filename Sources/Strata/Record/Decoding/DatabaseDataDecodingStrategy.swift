import Foundation

/// How a decodable record decodes its `Data` properties, column by column.
/// See ``FetchableRecord/databaseDataDecodingStrategy(for:)``.
///
/// ```swift
/// struct Document: Decodable, FetchableRecord {
///     static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
///         .custom { dbValue in String.fromDatabaseValue(dbValue).flatMap { Data(base64Encoded: $0) } }
///     }
///     var content: Data
/// }
/// ```
public enum DatabaseDataDecodingStrategy: Sendable {
    /// The `Data` conversion of ``DatabaseValueConvertible``: blobs, and the
    /// UTF-8 bytes of text (the default).
    case deferredToData

    /// A function of the database value; nil when the value is not data.
    case custom(@Sendable (DatabaseValue) -> Data?)
}
