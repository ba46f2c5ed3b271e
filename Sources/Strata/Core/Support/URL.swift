import Foundation

extension URL: DatabaseValueConvertible {
    /// Stored as TEXT: the absolute string of the URL.
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(absoluteString))
    }

    /// Decodes a non-empty string that `URL(string:)` accepts. The empty
    /// string and other values give nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
        guard case .string(let string) = dbValue.storage, !string.isEmpty else { return nil }
        return URL(string: string)
    }
}
