/// The decoder of `Decodable` records: a keyed container whose keys are
/// the columns of the row (after the column decoding strategy), its scopes,
/// and its prefetched rows.
@usableFromInline
struct RecordRowDecoder<Record: FetchableRecord>: Decoder {
    let row: Row
    @usableFromInline let codingPath: [any CodingKey]

    @usableFromInline
    init(row: Row, codingPath: [any CodingKey]) {
        self.row = row
        self.codingPath = codingPath
    }

    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    @usableFromInline
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if codingPath.isEmpty, case .useDefaultKeys = Record.databaseColumnDecodingStrategy {
            return row.recordContainer(keyedBy: Key.self, for: Record.self)
        }
        return KeyedDecodingContainer(RecordKeyedDecodingContainer<Key, Record>(row: row, codingPath: codingPath))
    }

    @usableFromInline
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            DecodingError.Context(
                codingPath: codingPath, debugDescription: "a database row can not be decoded as a collection"))
    }

    @usableFromInline
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        RowSingleValueContainer<Record>(row: row, codingPath: codingPath)
    }
}

/// A whole row as a single value: records decode from the row, database
/// values from the leftmost column, and the row is nil when it only
/// contains NULL values (a missing associated record).
struct RowSingleValueContainer<Record: FetchableRecord>: SingleValueDecodingContainer {
    let row: Row
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        !row.containsNonNullValue
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decodeLeftmost(Bool.self) }
    func decode(_ type: String.Type) throws -> String { try decodeLeftmost(String.self) }
    func decode(_ type: Double.Type) throws -> Double { try decodeLeftmost(Double.self) }
    func decode(_ type: Float.Type) throws -> Float { try decodeLeftmost(Float.self) }
    func decode(_ type: Int.Type) throws -> Int { try decodeLeftmost(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeLeftmost(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeLeftmost(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeLeftmost(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeLeftmost(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeLeftmost(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeLeftmost(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeLeftmost(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeLeftmost(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeLeftmost(UInt64.self) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try RecordValueDecoding<Record>.decodeRow(T.self, from: row, codingPath: codingPath)
    }

    private func decodeLeftmost<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type) throws -> T {
        guard row.count > 0 else {
            throw RowDecodingError.make(.columnNotFound, row: row, columnName: "")
        }
        return try row.decode(T.self, atIndex: 0)
    }
}

/// The decoder of a top-level `Decodable` record, in `init(row:)`: the row
/// unretained and no coding path, so that making the decoder, wrapping it in
/// `any Decoder` and destroying it cost no retain nor release (atomic
/// operations, dearer in time than their instruction count says). The row
/// outlives the decoder: `init(row:)` borrows it for the whole decoding, and
/// the decoder, like its keyed container, does not outlive `init(from:)`.
/// Everything but the keyed container of the default strategy goes to a
/// ``RecordRowDecoder``, which retains the row.
@usableFromInline
struct TopLevelRecordDecoder<Record: FetchableRecord>: Decoder {
    @usableFromInline let unmanagedRow: Unmanaged<Row>

    @usableFromInline
    init(row: Row) {
        unmanagedRow = Unmanaged.passUnretained(row)
    }

    private var general: RecordRowDecoder<Record> {
        RecordRowDecoder(row: unmanagedRow.takeUnretainedValue(), codingPath: [])
    }

    @usableFromInline var codingPath: [any CodingKey] { [] }

    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    @usableFromInline
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if case .useDefaultKeys = Record.databaseColumnDecodingStrategy {
            return unmanagedRow._withUnsafeGuaranteedRef { $0.recordContainer(keyedBy: Key.self, for: Record.self) }
        }
        return try general.container(keyedBy: Key.self)
    }

    @usableFromInline
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try general.unkeyedContainer()
    }

    @usableFromInline
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try general.singleValueContainer()
    }
}
