import Foundation

extension CGFloat: DatabaseValueConvertible {
    /// Stored as REAL.
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .double(Double(self)))
    }

    /// Integers and doubles decode.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> CGFloat? {
        guard let double = Double.fromDatabaseValue(dbValue) else { return nil }
        return CGFloat(double)
    }
}
