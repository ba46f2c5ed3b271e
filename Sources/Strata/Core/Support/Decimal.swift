import Foundation

// Decimal is stored as text, because SQLite has no decimal storage class and
// doubles would lose precision.

extension Decimal: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as TEXT, such as `"10.5"` or `"-100"`.
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(description))
    }

    /// Decodes integers, doubles, and strings that hold a decimal number
    /// (`"-12.5"`, `"1e-3"`). Other strings, infinite doubles, and blobs give nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Decimal? {
        switch dbValue.storage {
        case .int64(let v):
            return Decimal(v)
        case .double(let v):
            return Decimal._fromDouble(v)
        case .string(let string):
            return Decimal._fromDecimalString(string)
        case .null, .blob:
            return nil
        }
    }

    /// Reads a decimal straight from a statement column.
    /// Wraps `sqlite3_column_type`, `sqlite3_column_int64`, `sqlite3_column_double`
    /// and `sqlite3_column_text`.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER:
            self.init(sqlite3_column_int64(sqliteStatement, index))
        case SQLITE_FLOAT:
            guard let decimal = Decimal._fromDouble(sqlite3_column_double(sqliteStatement, index)) else {
                return nil
            }
            self = decimal
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(sqliteStatement, index) else { return nil }
            let buffer = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(sqliteStatement, index)))
            guard Decimal._isDecimalNumber(buffer),
                let decimal = Decimal(string: String(decoding: buffer, as: UTF8.self))
            else { return nil }
            self = decimal
        default:
            return nil
        }
    }
}

extension Decimal {
    /// The decimal built from a finite double by `Decimal(_: Double)`, as
    /// `NSDecimalNumber(value:)` builds it, so that such numbers round-trip
    /// equal. Nil for non-finite doubles.
    static func _fromDouble(_ double: Double) -> Decimal? {
        guard double.isFinite else { return nil }
        if let integer = Int64(exactly: double) { return Decimal(integer) }
        return Decimal(double)
    }

    /// Whether the bytes are a whole decimal number: an optional sign, digits
    /// with an optional dot, and an optional exponent. `Decimal(string:)` alone
    /// would accept prefixes such as `"12abc"`.
    static func _isDecimalNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        func isDigit(_ i: Int) -> Bool { i < n && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") }
        if i < n && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
        var mantissaDigits = 0
        while isDigit(i) {
            i += 1
            mantissaDigits += 1
        }
        if i < n && bytes[i] == UInt8(ascii: ".") {
            i += 1
            while isDigit(i) {
                i += 1
                mantissaDigits += 1
            }
        }
        guard mantissaDigits > 0 else { return false }
        if i < n && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < n && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard isDigit(i) else { return false }
            while isDigit(i) { i += 1 }
        }
        return i == n
    }

    /// Parses a whole decimal number string, or returns nil.
    static func _fromDecimalString(_ string: String) -> Decimal? {
        var string = string
        guard string.withUTF8({ _isDecimalNumber($0) }) else { return nil }
        return Decimal(string: string)
    }
}
