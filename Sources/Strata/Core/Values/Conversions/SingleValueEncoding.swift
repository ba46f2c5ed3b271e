import Foundation

/// Encodes an `Encodable` value to a plain database value when its encoding is
/// a single value (`singleValueContainer()`), and reports when it asks for a
/// keyed or unkeyed container, which only JSON can store.
///
/// A wrapper around a string is stored as that string, not as the JSON text
/// `"\"...\""`. Single values that are ``DatabaseValueConvertible`` (dates,
/// data, numbers...) are stored as their own database value.
final class SingleValueDatabaseEncoder: Encoder {
    /// The value encoded so far, if any.
    fileprivate(set) var databaseValue: DatabaseValue?
    /// Whether the value asked for a keyed or unkeyed container.
    fileprivate(set) var needsContainer = false

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The plain database value of `value`, or nil when its encoding is not a
    /// single value (or fails).
    static func databaseValue(of value: some Encodable) -> DatabaseValue? {
        let encoder = SingleValueDatabaseEncoder()
        do {
            // Not `encodeSingleValue`: the value may be the convertible
            // value whose `databaseValue` is being computed.
            try value.encode(to: encoder)
        } catch {
            return nil
        }
        return encoder.needsContainer ? nil : encoder.databaseValue
    }

    /// Stores a database value convertible value directly, and lets other
    /// values encode themselves into this encoder.
    fileprivate func encodeSingleValue(_ value: some Encodable) throws {
        if let convertible = value as? any DatabaseValueConvertible {
            databaseValue = convertible.databaseValue
        } else {
            try value.encode(to: self)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        needsContainer = true
        return KeyedEncodingContainer(DiscardingKeyedContainer())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        needsContainer = true
        return DiscardingUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    /// Stores what the value encodes into the encoder.
    private struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: SingleValueDatabaseEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { encoder.databaseValue = .null }
        mutating func encode(_ value: Bool) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: String) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: Double) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: Float) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: Int) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: Int8) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: Int16) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: Int32) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: Int64) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: UInt) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: UInt8) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: UInt16) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: UInt32) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: UInt64) throws { try encoder.encodeSingleValue(value) }
        mutating func encode(_ value: some Encodable) throws { try encoder.encodeSingleValue(value) }
    }
}

/// A keyed container whose contents are thrown away: the value will be
/// encoded as JSON instead.
struct DiscardingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: some Encodable, forKey key: Key) throws {}

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        DiscardingUnkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { DiscardingEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { DiscardingEncoder() }
}

/// An unkeyed container whose contents are thrown away: the value will be
/// encoded as JSON instead.
struct DiscardingUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    private(set) var count = 0

    mutating func encodeNil() throws { count += 1 }
    mutating func encode(_ value: some Encodable) throws { count += 1 }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { DiscardingUnkeyedContainer() }
    mutating func superEncoder() -> any Encoder { DiscardingEncoder() }
}

/// An encoder whose output is thrown away (super encoders of discarded containers).
struct DiscardingEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(DiscardingKeyedContainer())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { DiscardingUnkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { DiscardingSingleValueContainer() }
}

/// A single value container whose contents are thrown away.
struct DiscardingSingleValueContainer: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws {}
    mutating func encode(_ value: some Encodable) throws {}
}
