import Foundation

/// Decodes a value from one column: the single value of `String`-backed
/// enums and other wrappers of database values. Keyed and unkeyed
/// containers throw ``JSONRequiredError``, so that the value is decoded
/// from JSON instead.
struct ColumnDecoder<Record: FetchableRecord>: Decoder {
    let row: Row
    let index: Int
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw JSONRequiredError()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw JSONRequiredError()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ColumnSingleValueContainer<Record>(row: row, index: index, codingPath: codingPath)
    }
}

/// The single value of a column.
struct ColumnSingleValueContainer<Record: FetchableRecord>: SingleValueDecodingContainer {
    let row: Row
    let index: Int
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        row.hasNull(atIndex: index)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try row.decode(Bool.self, atIndex: index) }
    func decode(_ type: String.Type) throws -> String { try row.decode(String.self, atIndex: index) }
    func decode(_ type: Double.Type) throws -> Double { try row.decode(Double.self, atIndex: index) }
    func decode(_ type: Float.Type) throws -> Float { try row.decode(Float.self, atIndex: index) }
    func decode(_ type: Int.Type) throws -> Int { try row.decode(Int.self, atIndex: index) }
    func decode(_ type: Int8.Type) throws -> Int8 { try row.decode(Int8.self, atIndex: index) }
    func decode(_ type: Int16.Type) throws -> Int16 { try row.decode(Int16.self, atIndex: index) }
    func decode(_ type: Int32.Type) throws -> Int32 { try row.decode(Int32.self, atIndex: index) }
    func decode(_ type: Int64.Type) throws -> Int64 { try row.decode(Int64.self, atIndex: index) }
    func decode(_ type: UInt.Type) throws -> UInt { try row.decode(UInt.self, atIndex: index) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try row.decode(UInt8.self, atIndex: index) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try row.decode(UInt16.self, atIndex: index) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try row.decode(UInt32.self, atIndex: index) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try row.decode(UInt64.self, atIndex: index) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try RecordValueDecoding<Record>.decodeColumn(T.self, row: row, index: index, codingPath: codingPath)
    }
}
