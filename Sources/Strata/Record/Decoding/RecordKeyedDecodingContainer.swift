/// The keyed container of `Decodable` records. A key is, in this order:
/// a column (after the column decoding strategy), a scope (an associated
/// record), prefetched rows (associated records of `including(all:)`), or,
/// for a property that is a record, the whole row.
///
/// With the default column strategy, the columns are found with the fast
/// lookup of the row: no dictionary is built per row.
struct RecordKeyedDecodingContainer<Key: CodingKey, Record: FetchableRecord>: KeyedDecodingContainerProtocol {
    /// The rarely needed state, kept out of line: containers are copied at
    /// each decoded property, and a single optional reference is cheap to
    /// copy.
    private final class Extras {
        let codingPath: [any CodingKey]
        /// The column index of each coding key, for strategies other than
        /// ``DatabaseColumnDecodingStrategy/useDefaultKeys``.
        let mappedIndexes: [String: Int]?
        /// The row, when no decoder owns it (scoped rows of nested containers).
        let rowOwner: Row?

        init(codingPath: [any CodingKey], mappedIndexes: [String: Int]?, rowOwner: Row?) {
            self.codingPath = codingPath
            self.mappedIndexes = mappedIndexes
            self.rowOwner = rowOwner
        }
    }

    /// The row, unretained: the decoder that creates the container owns it
    /// for the whole decoding, and containers do not outlive `init(from:)`.
    /// An owned reference would cost a retain and a release per property.
    private let unmanagedRow: Unmanaged<Row>

    var row: Row { unmanagedRow.takeUnretainedValue() }
    private let extras: Extras?
    private typealias Values = RecordValueDecoding<Record>

    var codingPath: [any CodingKey] { extras?.codingPath ?? [] }

    /// Creates a container. Unless `ownsRow` is true, the caller owns the
    /// row during the whole decoding.
    init(row: Row, codingPath: [any CodingKey], ownsRow: Bool = false) {
        self.unmanagedRow = Unmanaged.passUnretained(row)
        let strategy = Record.databaseColumnDecodingStrategy
        var mappedIndexes: [String: Int]? = nil
        if case .useDefaultKeys = strategy {
            // Columns are found with the fast lookup of the row.
        } else {
            var indexes: [String: Int] = [:]
            for index in 0..<row.count {
                let key = strategy.keyString(forColumn: row.columnName(atUncheckedIndex: index))
                if indexes[key] == nil { indexes[key] = index }
            }
            mappedIndexes = indexes
        }
        if codingPath.isEmpty && mappedIndexes == nil && !ownsRow {
            extras = nil
        } else {
            extras = Extras(codingPath: codingPath, mappedIndexes: mappedIndexes, rowOwner: ownsRow ? row : nil)
        }
    }

    @inline(__always)
    private func columnIndex(forKey key: Key) -> Int? {
        if let extras, let mappedIndexes = extras.mappedIndexes {
            return mappedIndexes[key.stringValue]
        }
        return row.index(forColumn: key.stringValue)
    }

    private func scopedRow(forKey key: Key) -> Row? {
        if row.scopes.isEmpty { return nil }
        return row.scopesTree[key.stringValue]
    }

    private func path(_ key: Key) -> [any CodingKey] {
        codingPath + [key]
    }

    // MARK: - Keys

    var allKeys: [Key] {
        var names: [String] = []
        for index in 0..<row.count {
            let column = row.columnName(atUncheckedIndex: index)
            names.append(Record.databaseColumnDecodingStrategy.keyString(forColumn: column))
        }
        names += row.scopesTree.names
        names += row.prefetchedRows.keys
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }.compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool {
        columnIndex(forKey: key) != nil || scopedRow(forKey: key) != nil
            || row.prefetchedRows[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if let index = columnIndex(forKey: key) {
            return row.hasNull(atIndex: index)
        }
        if let scopedRow = scopedRow(forKey: key) {
            return !scopedRow.containsNonNullValue
        }
        return row.prefetchedRows[key.stringValue] == nil
    }

    // MARK: - Database values

    @inline(__always)
    private func decodeColumn<V: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: V.Type, forKey key: Key
    ) throws -> V {
        if let extras, let mappedIndexes = extras.mappedIndexes {
            let column = key.stringValue
            return try ColumnFastDecoding.decode(
                V.self, row: unmanagedRow, index: mappedIndexes[column], column: column)
        }
        return try ColumnFastDecoding.decode(V.self, row: unmanagedRow, column: key.stringValue)
    }

    @inline(__always)
    private func decodeColumnIfPresent<V: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: V.Type, forKey key: Key
    ) throws -> V? {
        if let extras, let mappedIndexes = extras.mappedIndexes {
            let column = key.stringValue
            return try ColumnFastDecoding.decode(
                V?.self, row: unmanagedRow, index: mappedIndexes[column], column: column)
        }
        return try ColumnFastDecoding.decode(V?.self, row: unmanagedRow, column: key.stringValue)
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
        try decodeColumnIfPresent(Bool.self, forKey: key)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decodeColumnIfPresent(String.self, forKey: key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try decodeColumnIfPresent(Double.self, forKey: key)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try decodeColumnIfPresent(Float.self, forKey: key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try decodeColumnIfPresent(Int.self, forKey: key)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try decodeColumnIfPresent(Int8.self, forKey: key)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try decodeColumnIfPresent(Int16.self, forKey: key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try decodeColumnIfPresent(Int32.self, forKey: key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try decodeColumnIfPresent(Int64.self, forKey: key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try decodeColumnIfPresent(UInt.self, forKey: key)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try decodeColumnIfPresent(UInt8.self, forKey: key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try decodeColumnIfPresent(UInt16.self, forKey: key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try decodeColumnIfPresent(UInt32.self, forKey: key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try decodeColumnIfPresent(UInt64.self, forKey: key)
    }

    // MARK: - Other values

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if let index = columnIndex(forKey: key) {
            return try Values.decodeColumn(T.self, row: row, index: index, codingPath: path(key))
        }
        if let valueType = T.self as? any DatabaseValueConvertible.Type {
            if let value = valueType.fromMissingColumn() { return value as! T }
            throw row.columnNotFound(key.stringValue)
        }
        if let scopedRow = scopedRow(forKey: key) {
            return try Values.decodeRow(T.self, from: scopedRow, codingPath: path(key))
        }
        if let rows = row.prefetchedRows[key.stringValue] {
            return try T(from: PrefetchedRowsDecoder<Record>(rows: rows, codingPath: path(key)))
        }
        if let recordType = T.self as? any FetchableRecord.Type {
            // A record property without a scope: `var book: Book` in a
            // `BookInfo` decoded from `Book.including(required: Book.author)`.
            return try recordType.init(row: row) as! T
        }
        throw RowDecodingError.make(.keyNotFound(key.stringValue), row: row)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if let index = columnIndex(forKey: key) {
            if row.hasNull(atIndex: index) { return nil }
            return try Values.decodeColumn(T.self, row: row, index: index, codingPath: path(key))
        }
        if let scopedRow = scopedRow(forKey: key) {
            if !scopedRow.containsNonNullValue { return nil }
            return try Values.decodeRow(T.self, from: scopedRow, codingPath: path(key))
        }
        if let rows = row.prefetchedRows[key.stringValue] {
            return try T(from: PrefetchedRowsDecoder<Record>(rows: rows, codingPath: path(key)))
        }
        return nil
    }

    // MARK: - Nested containers and decoders

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        guard let scopedRow = scopedRow(forKey: key) else {
            throw RowDecodingError.make(.keyNotFound(key.stringValue), row: row)
        }
        return KeyedDecodingContainer(
            RecordKeyedDecodingContainer<NestedKey, Record>(row: scopedRow, codingPath: path(key), ownsRow: true))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        guard let rows = row.prefetchedRows[key.stringValue] else {
            throw RowDecodingError.make(.keyNotFound(key.stringValue), row: row)
        }
        return PrefetchedRowsUnkeyedContainer<Record>(rows: rows, codingPath: path(key))
    }

    func superDecoder() throws -> any Decoder {
        RecordRowDecoder<Record>(row: row, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        if let index = columnIndex(forKey: key) {
            return ColumnDecoder<Record>(row: row, index: index, codingPath: path(key))
        }
        if let scopedRow = scopedRow(forKey: key) {
            return RecordRowDecoder<Record>(row: scopedRow, codingPath: path(key))
        }
        if let rows = row.prefetchedRows[key.stringValue] {
            return PrefetchedRowsDecoder<Record>(rows: rows, codingPath: path(key))
        }
        throw RowDecodingError.make(.keyNotFound(key.stringValue), row: row)
    }
}

/// The decoding of the primitive properties of `Decodable` records, out of
/// the generic context of the containers so that it is optimized like
/// hand-written records.
enum ColumnFastDecoding {
    /// The value of the column with this name; a missing column is nil for
    /// optionals, and an error otherwise.
    @inline(never)
    static func decode<V: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: V.Type, row unmanagedRow: Unmanaged<Row>, column: String
    ) throws -> V {
        if let value = liveValue(V.self, row: unmanagedRow, column: column) {
            return value
        }
        // Other rows, and errors.
        return try unmanagedRow._withUnsafeGuaranteedRef { try $0.decode(V.self, forColumn: column) }
    }

    /// The value of a live row, when the column is found and the value fits.
    /// The row and its statement are borrowed, without retain.
    @inline(__always)
    static func liveValue<V: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: V.Type, row unmanagedRow: Unmanaged<Row>, column: String
    ) -> V? {
        unmanagedRow._withUnsafeGuaranteedRef { row in
            guard let sqliteStatement = row.sqliteStatement, let statement = row.liveStatement,
                let index = statement._withUnsafeGuaranteedRef({ $0.index(ofColumn: column) })
            else { return nil }
            return V.fromStatement(sqliteStatement, atUncheckedIndex: CInt(index))
        }
    }

    /// The value at the index; a nil index (missing column) is nil for
    /// optionals, and an error otherwise.
    @inline(never)
    static func decode<V: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: V.Type, row unmanagedRow: Unmanaged<Row>, index: Int?, column: String
    ) throws -> V {
        try unmanagedRow._withUnsafeGuaranteedRef { row in
            guard let index else {
                if let value = V.fromMissingColumn() { return value }
                throw row.columnNotFound(column)
            }
            return try row.decode(V.self, atIndex: index)
        }
    }
}
