import Foundation

/// Decodes a `Decodable` value from a plain database value, for values whose
/// decoding reads a single value (`singleValueContainer()`): a wrapper around
/// a string decodes from that string. Keyed and unkeyed containers throw: such
/// values are stored as JSON, which the caller decodes instead.
struct SingleValueDatabaseDecoder: Decoder {
    let databaseValue: DatabaseValue
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The value decoded from the plain database value, or nil when it does
    /// not decode as a single value.
    static func decode<Value: Decodable>(_ type: Value.Type, from databaseValue: DatabaseValue) -> Value? {
        // Not `decodeSingleValue`: the type may be the convertible type
        // whose `fromDatabaseValue` is running.
        try? Value(from: SingleValueDatabaseDecoder(databaseValue: databaseValue))
    }

    /// Decodes database value convertible types directly, and lets other
    /// types decode themselves from this decoder.
    fileprivate func decodeSingleValue<Value: Decodable>(_ type: Value.Type) throws -> Value {
        if let convertible = type as? any DatabaseValueConvertible.Type {
            if let value = convertible.fromDatabaseValue(databaseValue) as? Value {
                return value
            }
            throw DecodingError.typeMismatch(
                type,
                DecodingError.Context(
                    codingPath: [], debugDescription: "could not decode \(type) from \(databaseValue)"))
        }
        return try Value(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw Self.notASingleValue
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw Self.notASingleValue
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self)
    }

    private static let notASingleValue = DecodingError.typeMismatch(
        DatabaseValue.self,
        DecodingError.Context(codingPath: [], debugDescription: "a plain database value is a single value"))

    /// Reads the database value.
    private struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: SingleValueDatabaseDecoder
        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool { decoder.databaseValue.isNull }
        func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeSingleValue(type) }
        func decode(_ type: String.Type) throws -> String { try decoder.decodeSingleValue(type) }
        func decode(_ type: Double.Type) throws -> Double { try decoder.decodeSingleValue(type) }
        func decode(_ type: Float.Type) throws -> Float { try decoder.decodeSingleValue(type) }
        func decode(_ type: Int.Type) throws -> Int { try decoder.decodeSingleValue(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeSingleValue(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeSingleValue(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeSingleValue(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeSingleValue(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeSingleValue(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeSingleValue(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeSingleValue(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeSingleValue(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeSingleValue(type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeSingleValue(type) }
    }
}
