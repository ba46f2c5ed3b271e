import Foundation

// UUIDs are stored as 16-byte blobs, the compact form, and also read from
// their usual string form.

extension UUID: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as a 16-byte BLOB.
    public var databaseValue: DatabaseValue {
        var uuid = self.uuid
        return DatabaseValue(storage: .blob(withUnsafeBytes(of: &uuid) { Data($0) }))
    }

    /// Decodes 16-byte blobs and strings such as
    /// `"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"` (any letter case).
    /// Other values give nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UUID? {
        switch dbValue.storage {
        case .blob(let data):
            return data.withUnsafeBytes { UUID._fromBytes($0) }
        case .string(var string):
            return string.withUTF8 { UUID._fromUUIDString($0) }
        case .null, .int64, .double:
            return nil
        }
    }

    /// Reads a UUID straight from a statement column: a 16-byte blob or a
    /// UUID string, read in place.
    /// Wraps `sqlite3_column_type`, `sqlite3_column_blob` and `sqlite3_column_text`.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_BLOB:
            let bytes = sqlite3_column_blob(sqliteStatement, index)
            let count = Int(sqlite3_column_bytes(sqliteStatement, index))
            guard let uuid = UUID._fromBytes(UnsafeRawBufferPointer(start: bytes, count: count)) else { return nil }
            self = uuid
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(sqliteStatement, index) else { return nil }
            let count = Int(sqlite3_column_bytes(sqliteStatement, index))
            guard let uuid = UUID._fromUUIDString(UnsafeBufferPointer(start: text, count: count)) else { return nil }
            self = uuid
        default:
            return nil
        }
    }
}

extension UUID {
    /// The UUID of exactly 16 bytes, or nil.
    static func _fromBytes(_ bytes: UnsafeRawBufferPointer) -> UUID? {
        guard bytes.count == 16, let base = bytes.baseAddress else { return nil }
        return UUID(uuid: base.loadUnaligned(as: uuid_t.self))
    }

    /// Parses `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` hexadecimal bytes, or
    /// returns nil.
    static func _fromUUIDString(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard text.count == 36 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &uuid) { output -> Bool in
            var i = 0
            var o = 0
            while i < 36 {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    guard text[i] == UInt8(ascii: "-") else { return false }
                    i += 1
                    continue
                }
                guard let high = hexValue(text[i]), let low = hexValue(text[i + 1]) else { return false }
                output[o] = high << 4 | low
                o += 1
                i += 2
            }
            return true
        }
        return ok ? UUID(uuid: uuid) : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
