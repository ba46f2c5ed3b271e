/// Decodes a collection of records from the rows prefetched by an
/// association (`including(all:)`).
struct PrefetchedRowsDecoder<Record: FetchableRecord>: Decoder {
    let rows: [Row]
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(
            [String: Any].self,
            DecodingError.Context(codingPath: codingPath, debugDescription: "prefetched rows decode as a collection"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        PrefetchedRowsUnkeyedContainer<Record>(rows: rows, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            [String: Any].self,
            DecodingError.Context(codingPath: codingPath, debugDescription: "prefetched rows decode as a collection"))
    }
}

/// The prefetched rows, one element per row.
struct PrefetchedRowsUnkeyedContainer<Record: FetchableRecord>: UnkeyedDecodingContainer {
    let rows: [Row]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(rows: [Row], codingPath: [any CodingKey]) {
        self.rows = rows
        self.codingPath = codingPath
    }

    var count: Int? { rows.count }

    var isAtEnd: Bool { currentIndex >= rows.count }

    mutating func decodeNil() throws -> Bool {
        try nextRow()
        return false
    }

    @discardableResult
    private mutating func nextRow() throws -> Row {
        guard currentIndex < rows.count else {
            throw DecodingError.valueNotFound(
                Row.self,
                DecodingError.Context(codingPath: codingPath, debugDescription: "no more prefetched rows"))
        }
        defer { currentIndex += 1 }
        return rows[currentIndex]
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decode(Bool.self as Bool.Type?) }
    mutating func decode(_ type: String.Type) throws -> String { try decode(String.self as String.Type?) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decode(Double.self as Double.Type?) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decode(Float.self as Float.Type?) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decode(Int.self as Int.Type?) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decode(Int8.self as Int8.Type?) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decode(Int16.self as Int16.Type?) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decode(Int32.self as Int32.Type?) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decode(Int64.self as Int64.Type?) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decode(UInt.self as UInt.Type?) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(UInt8.self as UInt8.Type?) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(UInt16.self as UInt16.Type?) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(UInt32.self as UInt32.Type?) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(UInt64.self as UInt64.Type?) }

    private mutating func decode<T: Decodable>(_ type: T.Type?) throws -> T {
        try RecordValueDecoding<Record>.decodeRow(T.self, from: nextRow(), codingPath: codingPath)
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try RecordValueDecoding<Record>.decodeRow(T.self, from: nextRow(), codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let row = try nextRow()
        return KeyedDecodingContainer(
            RecordKeyedDecodingContainer<NestedKey, Record>(row: row, codingPath: codingPath, ownsRow: true))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            DecodingError.Context(codingPath: codingPath, debugDescription: "a prefetched row is not a collection"))
    }

    mutating func superDecoder() throws -> any Decoder {
        RecordRowDecoder<Record>(row: try nextRow(), codingPath: codingPath)
    }
}
