import Foundation

/// The decoding of row values into the properties of `Decodable` records,
/// with the strategies of `Record`.
enum RecordValueDecoding<Record: FetchableRecord> {
    /// Decodes the value of the column at a valid index: database values
    /// (with the date and data strategies), or other `Decodable` values from
    /// a single value or from JSON.
    static func decodeColumn<T: Decodable>(
        _ type: T.Type, row: Row, index: Int, codingPath: @autoclosure () -> [any CodingKey]
    ) throws -> T {
        if T.self == Date.self {
            return try decodeDate(row: row, index: index) as! T
        }
        if T.self == Date?.self {
            if row.hasNull(atIndex: index) { return Date?.none as! T }
            return try decodeDate(row: row, index: index) as! T
        }
        if T.self == Data.self {
            return try decodeData(row: row, index: index) as! T
        }
        if T.self == Data?.self {
            if row.hasNull(atIndex: index) { return Data?.none as! T }
            return try decodeData(row: row, index: index) as! T
        }
        if let fastType = T.self as? any (DatabaseValueConvertible & StatementColumnConvertible).Type {
            return try decodeFast(fastType, row: row, index: index) as! T
        }
        if let valueType = T.self as? any DatabaseValueConvertible.Type {
            return try decodeValue(valueType, row: row, index: index) as! T
        }
        return try decodeNonDatabaseValue(T.self, row: row, index: index, codingPath: codingPath())
    }

    private static func decodeFast<V: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: V.Type, row: Row, index: Int
    ) throws -> V {
        try row.decode(V.self, atIndex: index)
    }

    private static func decodeValue<V: DatabaseValueConvertible>(_ type: V.Type, row: Row, index: Int) throws -> V {
        try row.decode(V.self, atIndex: index)
    }

    /// A date, with the date decoding strategy of the column.
    static func decodeDate(row: Row, index: Int) throws -> Date {
        let strategy = Record.databaseDateDecodingStrategy(for: row.columnName(atUncheckedIndex: index))
        if case .deferredToDate = strategy {
            return try row.decode(Date.self, atIndex: index)
        }
        let dbValue = row.databaseValue(atUncheckedIndex: index)
        if case .custom = strategy {
            if let date = strategy.decode(dbValue) { return date }
        } else if !dbValue.isNull, let date = strategy.decode(dbValue) {
            return date
        }
        throw row.valueMismatch(Date.self, atIndex: index)
    }

    /// Data, with the data decoding strategy of the column.
    static func decodeData(row: Row, index: Int) throws -> Data {
        switch Record.databaseDataDecodingStrategy(for: row.columnName(atUncheckedIndex: index)) {
        case .deferredToData:
            return try row.decode(Data.self, atIndex: index)
        case .custom(let decode):
            if let data = decode(row.databaseValue(atUncheckedIndex: index)) { return data }
            throw row.valueMismatch(Data.self, atIndex: index)
        }
    }

    /// A value that is not a database value: decoded from the single value of
    /// the column (a `String`-backed enum, for example), or from JSON.
    static func decodeNonDatabaseValue<T: Decodable>(
        _ type: T.Type, row: Row, index: Int, codingPath: [any CodingKey]
    ) throws -> T {
        do {
            return try T(from: ColumnDecoder<Record>(row: row, index: index, codingPath: codingPath))
        } catch is JSONRequiredError {
            return try decodeJSON(T.self, row: row, index: index)
        } catch is DecodingError {
            throw row.valueMismatch(T.self, atIndex: index)
        } catch is RowDecodingError {
            throw row.valueMismatch(T.self, atIndex: index)
        }
    }

    /// A value decoded from the JSON text or blob of the column, with the
    /// JSON decoder of the column.
    static func decodeJSON<T: Decodable>(_ type: T.Type, row: Row, index: Int) throws -> T {
        let data: Data
        switch row.databaseValue(atUncheckedIndex: index).storage {
        case .string(let string): data = Data(string.utf8)
        case .blob(let blob): data = blob
        case .null, .int64, .double: throw row.valueMismatch(T.self, atIndex: index)
        }
        let decoder = Record.databaseJSONDecoder(for: row.columnName(atUncheckedIndex: index))
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw row.valueMismatch(T.self, atIndex: index)
        }
    }

    /// A value decoded from a whole row (a scope, or a prefetched row):
    /// records with their own `init(row:)`, database values from the
    /// leftmost column, other values with a row decoder.
    static func decodeRow<T: Decodable>(_ type: T.Type, from row: Row, codingPath: [any CodingKey]) throws -> T {
        if let recordType = T.self as? any FetchableRecord.Type {
            return try recordType.init(row: row) as! T
        }
        if T.self is any DatabaseValueConvertible.Type {
            guard row.count > 0 else {
                throw RowDecodingError.make(.columnNotFound, row: row, columnName: "")
            }
            return try decodeColumn(T.self, row: row, index: 0, codingPath: codingPath)
        }
        return try T(from: RecordRowDecoder<Record>(row: row, codingPath: codingPath))
    }
}

/// Thrown by ``ColumnDecoder`` when a value needs a keyed or unkeyed
/// container: the value is then decoded from JSON.
struct JSONRequiredError: Error {}
