// Conversions of the standard library's integer types. One internal protocol
// (`_DatabaseInteger`) implements them; each type declares its public members
// and forwards there, so that they are specialized for the type and read
// straight from the statement column on fetch hot paths.

import Foundation

// MARK: - Integers

/// The one implementation of the integer conversions. Each integer type
/// declares its public members, which forward here, so that they are
/// specialized for the type (and are members of the type itself, not of this
/// internal protocol). Values out of range do not convert.
@usableFromInline
protocol _DatabaseInteger: FixedWidthInteger {}

extension _DatabaseInteger {
    /// Whether every value fits an SQLite INTEGER: true but for the unsigned
    /// 64-bit types, whose values above `Int64.max` are stored as REAL.
    /// A constant once specialized.
    @inlinable
    static var _fitsInt64: Bool { isSigned || bitWidth < 64 }

    /// Stored as INTEGER, or as a (lossy) REAL above `Int64.max`.
    @inlinable
    var _databaseValue: DatabaseValue {
        if Self._fitsInt64 { return DatabaseValue(storage: .int64(Int64(truncatingIfNeeded: self))) }
        if let v = Int64(exactly: self) { return DatabaseValue(storage: .int64(v)) }
        return DatabaseValue(storage: .double(Double(self)))
    }

    /// Binds an INTEGER, or a REAL above `Int64.max`. Wraps
    /// `sqlite3_bind_int64` and `sqlite3_bind_double`.
    @inlinable
    func _bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        if Self._fitsInt64 { return sqlite3_bind_int64(sqliteStatement, index, Int64(truncatingIfNeeded: self)) }
        if let v = Int64(exactly: self) { return sqlite3_bind_int64(sqliteStatement, index, v) }
        return sqlite3_bind_double(sqliteStatement, index, Double(self))
    }

    /// Integers and doubles decode when they fit. Doubles within Int64 are
    /// truncated like SQLite does; larger ones, such as the REAL that stores
    /// a `UInt64` above `Int64.max`, convert only when they are exact.
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

    /// The value of a non-NULL column; nil when out of range.
    @inlinable
    init?(_sqliteStatement sqliteStatement: SQLiteStatement, index: CInt) {
        guard let v = Self._fromColumn(sqlite3_column_int64(sqliteStatement, index), sqliteStatement, index)
        else { return nil }
        self = v
    }

    /// Reads the column with `sqlite3_column_int64`; nil for NULL, or when
    /// out of range. Checks the column type only for zero, the value SQLite
    /// returns for NULL.
    @inlinable
    @inline(__always)
    static func _fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        let v = sqlite3_column_int64(sqliteStatement, index)
        if v == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return _fromColumn(v, sqliteStatement, index)
    }

    /// Converts the integer `sqlite3_column_int64` read. SQLite saturates a
    /// REAL above `Int64.max` to `Int64.max`: the unsigned 64-bit types
    /// then read the REAL (see ``_fromSaturatedColumn(_:_:)``).
    @inlinable
    @inline(__always)
    static func _fromColumn(_ v: Int64, _ sqliteStatement: SQLiteStatement, _ index: CInt) -> Self? {
        if !_fitsInt64 && v == Int64.max { return _fromSaturatedColumn(sqliteStatement, index) }
        return Self(exactly: v)
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

// The public members of each integer type, which forward to `_DatabaseInteger`.
// `Int64`, SQLite's own integer, comes last: it reads a column without a
// range check, so its `init(sqliteStatement:index:)` does not fail.
extension Int: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column; nil for NULL, or when out of range.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int? {
        _fromStatement(sqliteStatement, atUncheckedIndex: index)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { _databaseValue }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int? { _fromDatabaseValue(dbValue) }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        _bind(to: sqliteStatement, at: index)
    }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self.init(_sqliteStatement: sqliteStatement, index: index)
    }
}

extension Int8: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column; nil for NULL, or when out of range.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int8? {
        _fromStatement(sqliteStatement, atUncheckedIndex: index)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { _databaseValue }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int8? { _fromDatabaseValue(dbValue) }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        _bind(to: sqliteStatement, at: index)
    }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self.init(_sqliteStatement: sqliteStatement, index: index)
    }
}

extension Int16: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column; nil for NULL, or when out of range.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int16? {
        _fromStatement(sqliteStatement, atUncheckedIndex: index)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { _databaseValue }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int16? { _fromDatabaseValue(dbValue) }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        _bind(to: sqliteStatement, at: index)
    }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self.init(_sqliteStatement: sqliteStatement, index: index)
    }
}

extension Int32: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column; nil for NULL, or when out of range.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int32? {
        _fromStatement(sqliteStatement, atUncheckedIndex: index)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { _databaseValue }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int32? { _fromDatabaseValue(dbValue) }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        _bind(to: sqliteStatement, at: index)
    }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self.init(_sqliteStatement: sqliteStatement, index: index)
    }
}

extension UInt: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column; nil for NULL, or when out of range.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt? {
        _fromStatement(sqliteStatement, atUncheckedIndex: index)
    }
    /// Stored as INTEGER, or as a (lossy) REAL above `Int64.max`.
    @inlinable
    public var databaseValue: DatabaseValue { _databaseValue }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt? { _fromDatabaseValue(dbValue) }
    /// Wraps `sqlite3_bind_int64`, or `sqlite3_bind_double` above `Int64.max`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        _bind(to: sqliteStatement, at: index)
    }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self.init(_sqliteStatement: sqliteStatement, index: index)
    }
}

extension UInt8: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column; nil for NULL, or when out of range.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt8? {
        _fromStatement(sqliteStatement, atUncheckedIndex: index)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { _databaseValue }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt8? { _fromDatabaseValue(dbValue) }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        _bind(to: sqliteStatement, at: index)
    }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self.init(_sqliteStatement: sqliteStatement, index: index)
    }
}

extension UInt16: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column; nil for NULL, or when out of range.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt16? {
        _fromStatement(sqliteStatement, atUncheckedIndex: index)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { _databaseValue }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt16? { _fromDatabaseValue(dbValue) }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        _bind(to: sqliteStatement, at: index)
    }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self.init(_sqliteStatement: sqliteStatement, index: index)
    }
}

extension UInt32: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column; nil for NULL, or when out of range.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt32? {
        _fromStatement(sqliteStatement, atUncheckedIndex: index)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { _databaseValue }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt32? { _fromDatabaseValue(dbValue) }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        _bind(to: sqliteStatement, at: index)
    }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self.init(_sqliteStatement: sqliteStatement, index: index)
    }
}

extension UInt64: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column; nil for NULL, or when out of range.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UInt64? {
        _fromStatement(sqliteStatement, atUncheckedIndex: index)
    }
    /// Stored as INTEGER, or as a (lossy) REAL above `Int64.max`.
    @inlinable
    public var databaseValue: DatabaseValue { _databaseValue }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt64? { _fromDatabaseValue(dbValue) }
    /// Wraps `sqlite3_bind_int64`, or `sqlite3_bind_double` above `Int64.max`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        _bind(to: sqliteStatement, at: index)
    }
    /// Reads the column with `sqlite3_column_int64`; nil when out of range.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self.init(_sqliteStatement: sqliteStatement, index: index)
    }
}

extension Int64: DatabaseValueConvertible, StatementColumnConvertible, _DatabaseInteger {
    /// Reads the column; nil for NULL, or when out of range.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int64? {
        _fromStatement(sqliteStatement, atUncheckedIndex: index)
    }
    /// Stored as INTEGER.
    @inlinable
    public var databaseValue: DatabaseValue { _databaseValue }
    /// Integers and doubles decode when they fit.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int64? { _fromDatabaseValue(dbValue) }
    /// Wraps `sqlite3_bind_int64`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        _bind(to: sqliteStatement, at: index)
    }
    /// Reads the column with `sqlite3_column_int64`.
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: CInt) { self = sqlite3_column_int64(sqliteStatement, index) }
}
