import Foundation

/// A value stored in a database table: NULL, an integer, a double, a string or a blob.
///
/// Values come from conversions such as `1.databaseValue`; there is no public raw initializer
/// apart from ``init(value:)`` which accepts untrusted values.
public struct DatabaseValue: Sendable {
    /// The storage of a database value, one case per SQLite storage class.
    @frozen
    public enum Storage: Sendable {
        /// The NULL storage class.
        case null
        /// The INTEGER storage class, wrapping an Int64.
        case int64(Int64)
        /// The REAL storage class, wrapping a Double.
        case double(Double)
        /// The TEXT storage class, wrapping a String.
        case string(String)
        /// The BLOB storage class, wrapping Data.
        case blob(Data)

        /// The wrapped value, or nil for NULL.
        public var value: (any DatabaseValueConvertible)? {
            switch self {
            case .null: return nil
            case .int64(let integer): return integer
            case .double(let real): return real
            case .string(let text): return text
            case .blob(let bytes): return bytes
            }
        }
    }

    /// The SQLite storage class of the value, with its payload: switch on it to read any value.
    public let storage: Storage

    /// The NULL database value.
    public static let null = DatabaseValue(storage: .null)

    @usableFromInline
    init(storage: Storage) {
        self.storage = storage
    }

    /// Creates a database value from any value, or nil when the value is not
    /// database-convertible. NSNull and nil give ``null``.
    public init?(value: Any) {
        switch value {
        case let v as DatabaseValue:
            self = v
        case let v as any DatabaseValueConvertible:
            self = v.databaseValue
        case Optional<Any>.none:
            self = .null
        case is NSNull:
            self = .null
        default:
            if let opt = value as? any _OptionalProtocol {
                guard let wrapped = opt._wrappedAny else {
                    self = .null
                    return
                }
                self.init(value: wrapped)
                return
            }
            return nil
        }
    }

    /// True when the value is NULL.
    @inlinable
    public var isNull: Bool {
        if case .null = storage { return true }
        return false
    }

    /// Reads the value of a column of a statement that has been stepped.
    ///
    /// Wraps `sqlite3_column_type` and the matching `sqlite3_column_*` function.
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        storage =
            switch sqlite3_column_type(sqliteStatement, index) {
            case SQLITE_INTEGER: .int64(sqlite3_column_int64(sqliteStatement, index))
            case SQLITE_FLOAT: .double(sqlite3_column_double(sqliteStatement, index))
            case SQLITE_TEXT: .string(String(sqliteStatement: sqliteStatement, index: index))
            case SQLITE_BLOB: .blob(Data(sqliteStatement: sqliteStatement, index: index))
            default: .null  // SQLITE_NULL
            }
    }

    /// Reads an `sqlite3_value` (function arguments).
    init(sqliteValue: OpaquePointer) {
        storage =
            switch sqlite3_value_type(sqliteValue) {
            case SQLITE_INTEGER: .int64(sqlite3_value_int64(sqliteValue))
            case SQLITE_FLOAT: .double(sqlite3_value_double(sqliteValue))
            case SQLITE_TEXT: .string(Self.text(of: sqliteValue))
            case SQLITE_BLOB: .blob(Self.bytes(of: sqliteValue))
            default: .null  // SQLITE_NULL
            }
    }

    /// The UTF-8 text of an `sqlite3_value` ("" when SQLite gives no pointer).
    private static func text(of sqliteValue: OpaquePointer) -> String {
        guard let utf8 = sqlite3_value_text(sqliteValue) else { return "" }
        let length = Int(sqlite3_value_bytes(sqliteValue))
        return String(decoding: UnsafeBufferPointer(start: utf8, count: length), as: UTF8.self)
    }

    /// The bytes of an `sqlite3_value` (empty when SQLite gives no pointer).
    private static func bytes(of sqliteValue: OpaquePointer) -> Data {
        guard let start = sqlite3_value_blob(sqliteValue) else { return Data() }
        return Data(bytes: start, count: Int(sqlite3_value_bytes(sqliteValue)))
    }
}

extension DatabaseValue: Hashable {
    /// A key under which equal values (in SQLite's sense) are identical:
    /// integers, and doubles that hold an integer, become the same number.
    private enum ComparisonKey: Hashable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case bytes(Data)
    }

    private var comparisonKey: ComparisonKey {
        switch storage {
        case .null: .null
        case .int64(let int): .integer(int)
        case .double(let double): Int64(exactly: double).map(ComparisonKey.integer) ?? .real(double)
        case .string(let string): .text(string)
        case .blob(let data): .bytes(data)
        }
    }

    /// Values compare like SQLite: integers and doubles compare by numeric value.
    public static func == (lhs: DatabaseValue, rhs: DatabaseValue) -> Bool {
        lhs.comparisonKey == rhs.comparisonKey
    }

    /// Hashes consistently with ``==(_:_:)``: integral doubles hash like integers.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(comparisonKey)
    }
}

extension DatabaseValue.Storage: Equatable {
    /// Storages are equal when they have the same case and the same wrapped value.
    public static func == (lhs: DatabaseValue.Storage, rhs: DatabaseValue.Storage) -> Bool {
        switch lhs {
        case .null:
            if case .null = rhs { return true }
        case .int64(let left):
            if case .int64(let right) = rhs { return left == right }
        case .double(let left):
            if case .double(let right) = rhs { return left == right }
        case .string(let left):
            if case .string(let right) = rhs { return left == right }
        case .blob(let left):
            if case .blob(let right) = rhs { return left == right }
        }
        return false
    }
}

extension DatabaseValue: CustomStringConvertible {
    /// An SQL-like literal: `NULL`, `1`, `1.5`, `"text"`, `Data(3 bytes)`.
    public var description: String {
        switch storage {
        case .null: "NULL"
        case .int64(let integer): String(integer)
        case .double(let real): String(real)
        case .string(let text): String(reflecting: text)
        case .blob(let bytes): "Data(\(bytes.count) bytes)"
        }
    }
}

extension DatabaseValue: DatabaseValueConvertible {
    /// Returns self.
    public var databaseValue: DatabaseValue { self }

    /// The value as an SQL expression (bound as a statement argument).
    public var sqlExpression: SQLExpression { .init(impl: .databaseValue(self)) }

    /// Returns the value itself: reading a `DatabaseValue` never fails.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseValue? {
        dbValue
    }

    /// Binds the value to a statement parameter. Wraps the `sqlite3_bind_*` functions.
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        switch storage {
        case .null: sqlite3_bind_null(sqliteStatement, index)
        case .int64(let integer): integer.bind(to: sqliteStatement, at: index)
        case .double(let real): real.bind(to: sqliteStatement, at: index)
        case .string(let text): text.bind(to: sqliteStatement, at: index)
        case .blob(let bytes): bytes.bind(to: sqliteStatement, at: index)
        }
    }
}

/// A value is an expression wherever the query interface takes one:
/// `Player.filter(true.databaseValue)`, `"abc".databaseValue.collating(.nocase)`.
extension DatabaseValue: SQLSpecificExpressible {}

/// Lets `DatabaseValue(value:)` unwrap optionals hidden in `Any`.
protocol _OptionalProtocol {
    var _wrappedAny: Any? { get }
}

extension Optional: _OptionalProtocol {
    var _wrappedAny: Any? {
        switch self {
        case .none: return nil
        case .some(let w): return w
        }
    }
}
