import Foundation

// Conversions of the standard library's scalar types but the integers (see
// StandardLibrary+Integers.swift): Bool, Double, Float, String and Data. Each
// reads straight from the statement column (`StatementColumnConvertible`) on
// fetch hot paths.

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
    /// Text decodes, and so do blobs that hold valid UTF-8; a blob that is not
    /// UTF-8 gives nil (only the statement column read repairs invalid bytes).
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        switch dbValue.storage {
        case .string(let v): return v
        case .blob(let v): return String(data: v, encoding: .utf8)
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
    /// Nil for NULL, without asking the column's type: SQLite gives no text
    /// for NULL only (and, out of memory, for nothing: nil too, and the
    /// caller's decoding error). Every other value reads as
    /// ``init(sqliteStatement:index:)`` reads it.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> String? {
        guard let p = sqlite3_column_text(sqliteStatement, index) else { return nil }
        let n = Int(sqlite3_column_bytes(sqliteStatement, index))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
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
