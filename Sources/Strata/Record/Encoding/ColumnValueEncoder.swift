import Foundation

// The Encoder of a record property that is not a database value: a value
// that encodes a single value (a wrapper of a string, a number, a date...)
// is stored as that value; a value that asks for a keyed or unkeyed
// container is stored as JSON (see `RecordEncoder.jsonValue`).

/// Encodes one property of a record, for the column of its key.
final class ColumnValueEncoder<Record: EncodableRecord>: Encoder {
    let codingPath: [any CodingKey]
    let column: String
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseEncodingUserInfo }
    /// The encoded single value (nil for NULL).
    var value: (any DatabaseValueConvertible)?
    /// Whether the property asked for a keyed or unkeyed container.
    var needsJSON = false

    init(codingPath: [any CodingKey], column: String) {
        self.codingPath = codingPath
        self.column = column
    }

    /// The stored value of a property: its single value, or its JSON text.
    static func databaseValue<T: Encodable>(of value: T, key: some CodingKey, column: String) throws
        -> (any DatabaseValueConvertible)?
    {
        let encoder = ColumnValueEncoder(codingPath: [key], column: column)
        try value.encode(to: encoder)
        if encoder.needsJSON {
            return try RecordEncoder<Record>.jsonValue(of: value, column: column)
        }
        return encoder.value
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        needsJSON = true
        return KeyedEncodingContainer(DiscardingKeyedContainer<Key>())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        needsJSON = true
        return DiscardingUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ColumnSingleValueEncodingContainer(encoder: self)
    }
}

/// The single value container of a property: stores the value.
struct ColumnSingleValueEncodingContainer<Record: EncodableRecord>: SingleValueEncodingContainer {
    let encoder: ColumnValueEncoder<Record>
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.value = nil }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // Numbers, strings, and wrapped values: stored as the wrapper would be.
        encoder.value = try RecordEncoder<Record>.databaseValue(
            of: value, key: encoder.codingPath[0], column: encoder.column)
    }
}
