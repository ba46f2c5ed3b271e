import Foundation

// Foundation value types convert like their reference type when it converts:
// an empty conformance of a `ReferenceConvertible` type whose class adopts
// `DatabaseValueConvertible` stores the value as the class does.

extension DatabaseValueConvertible where Self: ReferenceConvertible, Self.ReferenceType: DatabaseValueConvertible {
    /// The database value of the bridged reference.
    public var databaseValue: DatabaseValue {
        ReferenceConversion.databaseValue(of: self)
    }

    /// Decodes the reference type, then bridges it; nil when it does not decode.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        ReferenceConversion.value(Self.self, from: dbValue)
    }
}

extension DatabaseValueConvertible
where Self: Encodable & ReferenceConvertible, Self.ReferenceType: DatabaseValueConvertible {
    /// The database value of the bridged reference (not the encoded value).
    public var databaseValue: DatabaseValue {
        ReferenceConversion.databaseValue(of: self)
    }
}

extension DatabaseValueConvertible
where Self: Decodable & ReferenceConvertible, Self.ReferenceType: DatabaseValueConvertible {
    /// Decodes the reference type, then bridges it (not the decoded value).
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
        ReferenceConversion.value(Self.self, from: databaseValue)
    }
}

/// The bridging between a value type and its reference type.
enum ReferenceConversion {
    static func databaseValue<Value: ReferenceConvertible>(of value: Value) -> DatabaseValue
    where Value.ReferenceType: DatabaseValueConvertible {
        guard let reference = value as? Value.ReferenceType else {
            fatalError("\(Value.self) does not bridge to \(Value.ReferenceType.self)")
        }
        return reference.databaseValue
    }

    static func value<Value: ReferenceConvertible>(_ type: Value.Type, from dbValue: DatabaseValue) -> Value?
    where Value.ReferenceType: DatabaseValueConvertible {
        Value.ReferenceType.fromDatabaseValue(dbValue).flatMap { $0 as? Value }
    }
}
