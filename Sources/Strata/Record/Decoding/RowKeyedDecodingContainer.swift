/// The keyed container of a top-level `Decodable` record with the default
/// column decoding strategy: the common case, made fast.
///
/// The standard library copies the container at each decoded property: this
/// one only holds unretained references, so that a copy is a plain memory
/// copy. Primitive properties are read from the statement of a live row with
/// the predicted column index; everything else goes to the general
/// ``RecordKeyedDecodingContainer``.
struct RowKeyedDecodingContainer<Key: CodingKey, Record: FetchableRecord>: KeyedDecodingContainerProtocol {
    /// The row, unretained: the decoder that creates the container owns it
    /// for the whole decoding, and containers do not outlive `init(from:)`.
    private let unmanagedRow: Unmanaged<Row>

    init(row: Row) {
        unmanagedRow = Unmanaged.passUnretained(row)
    }

    private var row: Row { unmanagedRow.takeUnretainedValue() }

    private var general: RecordKeyedDecodingContainer<Key, Record> {
        RecordKeyedDecodingContainer(row: row, codingPath: [])
    }

    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { general.allKeys }
    func contains(_ key: Key) -> Bool { general.contains(key) }
    func decodeNil(forKey key: Key) throws -> Bool { try general.decodeNil(forKey: key) }

    // MARK: - Database values

    @inline(__always)
    private func decodeColumn<V: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: V.Type, forKey key: Key
    ) throws -> V {
        // The common case inline: a call costs as much as the lookup.
        if let value = liveValue(V.self, forKey: key) {
            return value
        }
        return try ColumnFastDecoding.decode(V.self, row: unmanagedRow, column: key.stringValue)
    }

    /// The value of a live row, when the column is found and the value fits.
    /// The row and its statement are borrowed, without retain.
    @inline(__always)
    private func liveValue<V: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: V.Type, forKey key: Key
    ) -> V? {
        unmanagedRow._withUnsafeGuaranteedRef { row in
            guard let sqliteStatement = row.sqliteStatement, let statement = row.liveStatement,
                let index = statement._withUnsafeGuaranteedRef({ $0.index(ofKey: key) })
            else { return nil }
            return V.fromStatement(sqliteStatement, atUncheckedIndex: CInt(index))
        }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeColumn(Bool.self, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeColumn(String.self, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeColumn(Double.self, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeColumn(Float.self, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeColumn(Int.self, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeColumn(Int8.self, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeColumn(Int16.self, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeColumn(Int32.self, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeColumn(Int64.self, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeColumn(UInt.self, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeColumn(UInt8.self, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeColumn(UInt16.self, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeColumn(UInt32.self, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeColumn(UInt64.self, forKey: key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try decodeColumn(Bool?.self, forKey: key)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decodeColumn(String?.self, forKey: key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try decodeColumn(Double?.self, forKey: key)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try decodeColumn(Float?.self, forKey: key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try decodeColumn(Int?.self, forKey: key)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try decodeColumn(Int8?.self, forKey: key)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try decodeColumn(Int16?.self, forKey: key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try decodeColumn(Int32?.self, forKey: key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try decodeColumn(Int64?.self, forKey: key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try decodeColumn(UInt?.self, forKey: key)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try decodeColumn(UInt8?.self, forKey: key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try decodeColumn(UInt16?.self, forKey: key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try decodeColumn(UInt32?.self, forKey: key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try decodeColumn(UInt64?.self, forKey: key)
    }

    // MARK: - Other values

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try general.decode(T.self, forKey: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try general.decodeIfPresent(T.self, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try general.nestedContainer(keyedBy: NestedKey.self, forKey: key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try general.nestedUnkeyedContainer(forKey: key)
    }

    func superDecoder() throws -> any Decoder {
        try general.superDecoder()
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try general.superDecoder(forKey: key)
    }
}
