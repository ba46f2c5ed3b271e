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

    /// Calls ``init(sqliteStatement:index:)``, which gives nil for NULL: the
    /// column's type is read once.
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Decimal? {
        Decimal(sqliteStatement: sqliteStatement, index: index)
    }
}

extension Decimal {
    /// The decimal built from a finite double by `Decimal(_: Double)`, as
    /// `NSDecimalNumber(value:)` builds it, so that such numbers round-trip
    /// equal. Nil for non-finite doubles.
    static func _fromDouble(_ double: Double) -> Decimal? {
        guard double.isFinite else { return nil }
        if let integer = Int64(exactly: double) { return Decimal(integer) }
        #if canImport(FoundationEssentials)
            if let decimal = _fromFractionalDouble(double) { return decimal }
        #endif
        return Decimal(double)
    }

    #if canImport(FoundationEssentials)
        /// The same decimal as swift-foundation's `Decimal(_: Double)`, bit for
        /// bit, without its cost (about 18,000 instructions a value, spent
        /// removing trailing zeros through heap-allocated arrays): the double is
        /// scaled by tens to just below 2^64 with the same floating-point steps,
        /// truncated to a 64-bit significand, and its trailing zeros are removed
        /// with integer arithmetic. Nil (the caller then asks Foundation) for
        /// zero and for magnitudes whose exponent leaves `-99...99`.
        ///
        /// Only where Foundation is swift-foundation (Linux): Apple's older
        /// Foundation builds decimals its own way. `DecimalTests` compares
        /// both, byte for byte, over half a million doubles.
        static func _fromFractionalDouble(_ double: Double) -> Decimal? {
            guard double != 0 else { return nil }
            let twoToThe64 = 18_446_744_073_709_551_616.0
            var magnitude = double.magnitude
            var exponent = 0
            while magnitude < twoToThe64 {
                if exponent <= -99 { return nil }
                magnitude *= 10
                exponent -= 1
            }
            while magnitude >= twoToThe64 {
                if exponent >= 99 { return nil }
                magnitude /= 10
                exponent += 1
            }
            var significand = UInt64(magnitude)
            while significand % 10 == 0 {
                significand /= 10
                exponent += 1
            }
            return Decimal(
                sign: double < 0 ? .minus : .plus,
                exponent: exponent,
                significand: Decimal(significand))
        }
    #endif

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
