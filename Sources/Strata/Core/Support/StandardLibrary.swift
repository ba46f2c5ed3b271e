import Foundation

// Conversions of the standard library's scalar types. Each reads straight from
// the statement column (`StatementColumnConvertible`) on fetch hot paths.

// MARK: - Bool

extension Bool: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as INTEGER 1 or 0.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }

    /// Any number decodes: zero is false, everything else is true.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
        switch dbValue.storage {
        case .int64(let v): return v != 0
        case .double(let v): return v != 0
        default: return nil
        }
    }

    /// Reads the column as an integer: zero is false. Wraps `sqlite3_column_int64`.
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self = sqlite3_column_int64(sqliteStatement, index) != 0
    }

    /// Binds 1 or 0. Wraps `sqlite3_bind_int`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int(sqliteStatement, index, self ? 1 : 0)
    }
}

// MARK: - Integers

/// Shared implementation of the integer conversions: values out of range do not convert.
@usableFromInline
protocol _DatabaseInteger: FixedWidthInteger {}

extension _DatabaseInteger {
    /// Doubles within Int64 are truncated like SQLite does; larger ones, such
    /// as the REAL that stores a `UInt64` above `Int64.max`, convert only
    /// when they are exact.
    @inlinable
    static func _fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        switch dbValue.storage {
        case .int64(let v):
            return Self(exactly: v)
        case .double(let v):
            guard v.isFinite else { return nil }
            guard v >= -9.223372036854775808e18, v < 9.223372036854775808e18 else { return Self(exactly: v) }
            return Self(exactly: Int64(v))
        default:
            return nil
        }
    }

    /// The value of a column that `sqlite3_column_int64` reads as
    /// `Int64.max`: that integer, or a REAL that SQLite saturated, which
    /// converts only when it is exact (as in ``_fromDatabaseValue(_:)``).
    @inlinable
    static func _fromSaturatedColumn(_ sqliteStatement: SQLiteStatement, _ index: CInt) -> Self? {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_FLOAT {
            return _fromDatabaseValue(DatabaseValue(storage: .double(sqlite3_column_double(sqliteStatement, index))))
        }
        return Self(exactly: Int64.max)
    }
}

extension Int: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column with `sqlite3_column_int64`; nil for NULL, or when out of range.
    /// Checks the column type only for zero, the value SQLite returns for NULL.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int? {
        let v = sqlite3_column_int64(sqliteStatement, index)
        if v == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return Int(exactly: v)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int? { _fromDatabaseValue(dbValue) }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let v = Int(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = v
    }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
}

extension Int8: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column with `sqlite3_column_int64`; nil for NULL, or when out of range.
    /// Checks the column type only for zero, the value SQLite returns for NULL.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int8? {
        let v = sqlite3_column_int64(sqliteStatement, index)
        if v == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return Int8(exactly: v)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int8? { _fromDatabaseValue(dbValue) }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let v = Int8(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = v
    }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
}

extension Int16: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column with `sqlite3_column_int64`; nil for NULL, or when out of range.
    /// Checks the column type only for zero, the value SQLite returns for NULL.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int16? {
        let v = sqlite3_column_int64(sqliteStatement, index)
        if v == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return Int16(exactly: v)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int16? { _fromDatabaseValue(dbValue) }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let v = Int16(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = v
    }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
}

extension Int32: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column with `sqlite3_column_int64`; nil for NULL, or when out of range.
    /// Checks the column type only for zero, the value SQLite returns for NULL.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int32? {
        let v = sqlite3_column_int64(sqliteStatement, index)
        if v == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return Int32(exactly: v)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int32? { _fromDatabaseValue(dbValue) }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let v = Int32(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = v
    }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
}

extension Int64: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column with `sqlite3_column_int64`; nil for NULL, or when out of range.
    /// Checks the column type only for zero, the value SQLite returns for NULL.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int64? {
        let v = sqlite3_column_int64(sqliteStatement, index)
        if v == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return v
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self)) }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int64? { _fromDatabaseValue(dbValue) }
    /// Reads the column with `sqlite3_column_int64`.
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self = sqlite3_column_int64(sqliteStatement, index)
    }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, self)
    }
}

extension UInt: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column with `sqlite3_column_int64`; nil for NULL, or when out of range.
    /// Checks the column type only for zero, the value SQLite returns for NULL.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt? {
        let v = sqlite3_column_int64(sqliteStatement, index)
        if v == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        if v == Int64.max { return _fromSaturatedColumn(sqliteStatement, index) }
        return UInt(exactly: v)
    }
    /// Stored as INTEGER; values above `Int64.max` can't be stored and are stored as
    /// a double, which is lossy.
    @inlinable
    public var databaseValue: DatabaseValue {
        if let v = Int64(exactly: self) { return DatabaseValue(storage: .int64(v)) }
        return DatabaseValue(storage: .double(Double(self)))
    }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt? { _fromDatabaseValue(dbValue) }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        let v = sqlite3_column_int64(sqliteStatement, index)
        guard let value = v == Int64.max ? Self._fromSaturatedColumn(sqliteStatement, index) : UInt(exactly: v)
        else { return nil }
        self = value
    }
    /// Binds an integer, or a double above `Int64.max`. Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        if let v = Int64(exactly: self) { return sqlite3_bind_int64(sqliteStatement, index, v) }
        return sqlite3_bind_double(sqliteStatement, index, Double(self))
    }
}

extension UInt8: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column with `sqlite3_column_int64`; nil for NULL, or when out of range.
    /// Checks the column type only for zero, the value SQLite returns for NULL.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt8? {
        let v = sqlite3_column_int64(sqliteStatement, index)
        if v == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return UInt8(exactly: v)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt8? { _fromDatabaseValue(dbValue) }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let v = UInt8(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = v
    }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
}

extension UInt16: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column with `sqlite3_column_int64`; nil for NULL, or when out of range.
    /// Checks the column type only for zero, the value SQLite returns for NULL.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt16? {
        let v = sqlite3_column_int64(sqliteStatement, index)
        if v == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return UInt16(exactly: v)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt16? { _fromDatabaseValue(dbValue) }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let v = UInt16(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = v
    }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
}

extension UInt32: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column with `sqlite3_column_int64`; nil for NULL, or when out of range.
    /// Checks the column type only for zero, the value SQLite returns for NULL.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt32? {
        let v = sqlite3_column_int64(sqliteStatement, index)
        if v == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return UInt32(exactly: v)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt32? { _fromDatabaseValue(dbValue) }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let v = UInt32(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = v
    }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
}

extension UInt64: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column with `sqlite3_column_int64`; nil for NULL, or when out of range.
    /// Checks the column type only for zero, the value SQLite returns for NULL.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt64? {
        let v = sqlite3_column_int64(sqliteStatement, index)
        if v == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        if v == Int64.max { return _fromSaturatedColumn(sqliteStatement, index) }
        return UInt64(exactly: v)
    }
    /// Stored as INTEGER; values above `Int64.max` are stored as a double, which is lossy.
    @inlinable
    public var databaseValue: DatabaseValue {
        if let v = Int64(exactly: self) { return DatabaseValue(storage: .int64(v)) }
        return DatabaseValue(storage: .double(Double(self)))
    }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt64? { _fromDatabaseValue(dbValue) }
    /// Reads the column with `sqlite3_column_int64`; nil when negative.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        let v = sqlite3_column_int64(sqliteStatement, index)
        guard let value = v == Int64.max ? Self._fromSaturatedColumn(sqliteStatement, index) : UInt64(exactly: v)
        else { return nil }
        self = value
    }
    /// Binds an integer, or a double above `Int64.max`. Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        if let v = Int64(exactly: self) { return sqlite3_bind_int64(sqliteStatement, index, v) }
        return sqlite3_bind_double(sqliteStatement, index, Double(self))
    }
}

// MARK: - Floating point

extension Double: DatabaseValueConvertible, StatementColumnConvertible {
    /// Reads the column with `sqlite3_column_double`; nil for NULL.
    /// Checks the column type only for zero, the value SQLite returns for NULL.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Double? {
        let v = sqlite3_column_double(sqliteStatement, index)
        if v == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return v
    }
    /// Stored as REAL.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(self)) }
    /// Integers and doubles decode.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
        switch dbValue.storage {
        case .int64(let v): return Double(v)
        case .double(let v): return v
        default: return nil
        }
    }
    /// Wraps `sqlite3_column_double`.
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self = sqlite3_column_double(sqliteStatement, index)
    }
    /// Wraps `sqlite3_bind_double`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_double(sqliteStatement, index, self)
    }
}

extension Float: DatabaseValueConvertible, StatementColumnConvertible {
    /// Reads the column with `sqlite3_column_double`; nil for NULL.
    /// Checks the column type only for zero, the value SQLite returns for NULL.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Float? {
        let v = sqlite3_column_double(sqliteStatement, index)
        if v == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return Float(v)
    }
    /// Stored as REAL.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }
    /// Integers and doubles decode.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
        switch dbValue.storage {
        case .int64(let v): return Float(v)
        case .double(let v): return Float(v)
        default: return nil
        }
    }
    /// Wraps `sqlite3_column_double`.
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self = Float(sqlite3_column_double(sqliteStatement, index))
    }
    /// Wraps `sqlite3_bind_double`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_double(sqliteStatement, index, Double(self))
    }
}

// MARK: - String

extension String: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as TEXT.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }
    /// Text decodes, and so do blobs, as UTF-8 (invalid bytes are repaired,
    /// as when the string is read straight from the statement).
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        switch dbValue.storage {
        case .string(let v): return v
        case .blob(let v): return String(decoding: v, as: UTF8.self)
        default: return nil
        }
    }
    /// Reads the column text in place, repairing invalid UTF-8.
    /// Wraps `sqlite3_column_text` and `sqlite3_column_bytes`.
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let p = sqlite3_column_text(sqliteStatement, index) else {
            self = ""
            return
        }
        let n = Int(sqlite3_column_bytes(sqliteStatement, index))
        self = String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }
    /// Binds a copy of the UTF-8 bytes. Wraps `sqlite3_bind_text`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        var copy = self
        return copy.withUTF8 { buffer in
            sqlite3_bind_text(
                sqliteStatement, index,
                UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer<UInt8>(bitPattern: 1)!)
                    .assumingMemoryBound(to: CChar.self),
                CInt(buffer.count), SQLITE_TRANSIENT)
        }
    }

    /// The string as a quoted SQL identifier: `"name"`, with inner double quotes doubled.
    public var quotedDatabaseIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

// MARK: - Data

extension Data: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as BLOB.
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(self)) }
    /// Blobs decode, and so does text, as its UTF-8 bytes.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Data? {
        switch dbValue.storage {
        case .blob(let v): return v
        case .string(let v): return Data(v.utf8)
        default: return nil
        }
    }
    /// Copies the column bytes. Wraps `sqlite3_column_blob` and `sqlite3_column_bytes`.
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        if let bytes = sqlite3_column_blob(sqliteStatement, index) {
            self.init(bytes: bytes, count: Int(sqlite3_column_bytes(sqliteStatement, index)))
        } else {
            self.init()
        }
    }
    /// Binds a copy of the bytes. Wraps `sqlite3_bind_blob`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        withUnsafeBytes { buffer in
            sqlite3_bind_blob(
                sqliteStatement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
                CInt(buffer.count), SQLITE_TRANSIENT)
        }
    }
}
