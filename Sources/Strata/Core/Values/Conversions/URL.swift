import Foundation

extension URL: DatabaseValueConvertible {
    /// Stored as TEXT: the absolute string of the URL.
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(absoluteString))
    }

    /// Decodes a non-empty string (text, or a UTF-8 blob) that `URL(string:)`
    /// accepts. The empty string and other values give nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
        guard let string = String.fromDatabaseValue(dbValue), !string.isEmpty else { return nil }
        return URL(string: string)
    }
}
