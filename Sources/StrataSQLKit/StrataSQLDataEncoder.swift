#if SQLKit
    import Foundation
    import Strata

    /// Turns the values that SQLKit binds into SQLite values, as sqlite-kit
    /// stores them: integers, reals, text and blobs as such, `Bool` as 0 or
    /// 1, `Date` as the seconds since 1970 (a real), `UUID` as its
    /// uppercase string, and every value that is not a single value
    /// (arrays, dictionaries, structs) as JSON text, written by ``json``.
    public struct StrataSQLDataEncoder: Sendable {
        /// Writes the values that are not single values.
        public var json: JSONEncoder

        /// An encoder whose JSON is written by `json`.
        public init(json: JSONEncoder = JSONEncoder()) {
            self.json = json
        }

        /// The SQLite value of `value`.
        public func encode(_ value: any Encodable) throws -> DatabaseValue {
            if let databaseValue = Self.singleValue(value) { return databaseValue }
            let encoder = SingleValueEncoder(dataEncoder: self)
            do {
                try value.encode(to: encoder)
                guard let databaseValue = encoder.value else { throw NotASingleValue() }
                return databaseValue
            } catch is NotASingleValue {
                return String(decoding: try json.encode(value), as: UTF8.self).databaseValue
            }
        }

        /// The values stored without asking them to encode themselves.
        static func singleValue(_ value: any Encodable) -> DatabaseValue? {
            switch value {
            case let value as String: value.databaseValue
            case let value as Int: value.databaseValue
            case let value as Int64: value.databaseValue
            case let value as Double: value.databaseValue
            case let value as Bool: (value ? 1 : 0).databaseValue
            case let value as Date: value.timeIntervalSince1970.databaseValue
            case let value as UUID: value.uuidString.databaseValue
            case let value as Data: value.databaseValue
            case let value as Int8: Int64(value).databaseValue
            case let value as Int16: Int64(value).databaseValue
            case let value as Int32: Int64(value).databaseValue
            case let value as UInt8: Int64(value).databaseValue
            case let value as UInt16: Int64(value).databaseValue
            case let value as UInt32: Int64(value).databaseValue
            case let value as UInt: Int64(exactly: value).map(\.databaseValue)
            case let value as UInt64: Int64(exactly: value).map(\.databaseValue)
            case let value as Float: Double(value).databaseValue
            default: nil
            }
        }
    }

    /// Thrown when a value asks for a keyed or unkeyed container: it is
    /// stored as JSON.
    struct NotASingleValue: Error {}

    /// Records the single value that a value encodes.
    private final class SingleValueEncoder: Encoder, SingleValueEncodingContainer {
        let dataEncoder: StrataSQLDataEncoder
        var value: DatabaseValue?
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(dataEncoder: StrataSQLDataEncoder) {
            self.dataEncoder = dataEncoder
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(RefusingKeyedContainer<Key>())
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyedContainer() }

        func singleValueContainer() -> any SingleValueEncodingContainer { self }

        func encodeNil() throws { value = .null }

        func encode<T: Encodable>(_ value: T) throws {
            self.value = try dataEncoder.encode(value)
        }
    }

    /// The container of a value that is not a single value: its first use
    /// throws ``NotASingleValue``.
    private struct RefusingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws { throw NotASingleValue() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw NotASingleValue() }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(RefusingKeyedContainer<NestedKey>())
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            RefusingUnkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { RefusingEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { RefusingEncoder() }
    }

    private struct RefusingUnkeyedContainer: UnkeyedEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }
        mutating func encodeNil() throws { throw NotASingleValue() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw NotASingleValue() }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(RefusingKeyedContainer<NestedKey>())
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyedContainer() }
        mutating func superEncoder() -> any Encoder { RefusingEncoder() }
    }

    private struct RefusingEncoder: Encoder {
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(RefusingKeyedContainer<Key>())
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyedContainer() }
        func singleValueContainer() -> any SingleValueEncodingContainer { RefusingSingleValueContainer() }
    }

    private struct RefusingSingleValueContainer: SingleValueEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() throws { throw NotASingleValue() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw NotASingleValue() }
    }
#endif
