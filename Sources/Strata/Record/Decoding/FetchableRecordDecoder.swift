/// Decodes `Decodable` records from database rows, with the decoding
/// strategies of the record type.
///
/// ```swift
/// let row = try Row.fetchOne(db, sql: "SELECT * FROM player")!
/// let player = try FetchableRecordDecoder().decode(Player.self, from: row)
/// ```
public class FetchableRecordDecoder {
    /// Creates a decoder.
    public init() {}

    /// Decodes a record from a row, with its `Decodable` implementation. A
    /// value that can't be decoded throws ``RowDecodingError``.
    public func decode<T: FetchableRecord & Decodable>(_ type: T.Type, from row: Row) throws -> T {
        try T(from: RecordRowDecoder<T>(row: row, codingPath: []))
    }
}
