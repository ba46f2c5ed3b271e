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
            case .int64(let v): return v
            case .double(let v): return v
            case .string(let v): return v
            case .blob(let v): return v
            }
        }
    }

    /// The storage of this value.
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
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_NULL:
            storage = .null
        case SQLITE_INTEGER:
            storage = .int64(sqlite3_column_int64(sqliteStatement, index))
        case SQLITE_FLOAT:
            storage = .double(sqlite3_column_double(sqliteStatement, index))
        case SQLITE_TEXT:
            storage = .string(String(sqliteStatement: sqliteStatement, index: index))
        case SQLITE_BLOB:
            storage = .blob(Data(sqliteStatement: sqliteStatement, index: index))
        default:
            storage = .null
        }
    }

    /// Reads an `sqlite3_value` (function arguments).
    init(sqliteValue: OpaquePointer) {
        switch sqlite3_value_type(sqliteValue) {
        case SQLITE_NULL:
            storage = .null
        case SQLITE_INTEGER:
            storage = .int64(sqlite3_value_int64(sqliteValue))
        case SQLITE_FLOAT:
            storage = .double(sqlite3_value_double(sqliteValue))
        case SQLITE_TEXT:
            if let text = sqlite3_value_text(sqliteValue) {
                let count = Int(sqlite3_value_bytes(sqliteValue))
                storage = .string(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            } else {
                storage = .string("")
            }
        case SQLITE_BLOB:
            if let bytes = sqlite3_value_blob(sqliteValue) {
                storage = .blob(Data(bytes: bytes, count: Int(sqlite3_value_bytes(sqliteValue))))
            } else {
                storage = .blob(Data())
            }
        default:
            storage = .null
        }
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
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.int64(a), .int64(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.blob(a), .blob(b)): return a == b
        default: return false
        }
    }
}

extension DatabaseValue: CustomStringConvertible {
    /// An SQL-like literal: `NULL`, `1`, `1.5`, `"text"`, `Data(3 bytes)`.
    public var description: String {
        switch storage {
        case .null: return "NULL"
        case .int64(let v): return String(v)
        case .double(let v): return String(v)
        case .string(let v): return String(reflecting: v)
        case .blob(let v): return v.description
        }
    }
}

extension DatabaseValue: DatabaseValueConvertible, StatementColumnConvertible {
    /// Returns self.
    public var databaseValue: DatabaseValue { self }

    /// The value as an SQL expression (bound as a statement argument).
    public var sqlExpression: SQLExpression { .init(impl: .databaseValue(self)) }

    /// Returns the value itself: reading a `DatabaseValue` never fails.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseValue? {
        dbValue
    }

    /// Reads the column, NULL included: reading a `DatabaseValue` never fails.
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt)
        -> DatabaseValue?
    {
        DatabaseValue(sqliteStatement: sqliteStatement, index: index)
    }

    /// Binds the value to a statement parameter. Wraps the `sqlite3_bind_*` functions.
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        switch storage {
        case .null: return sqlite3_bind_null(sqliteStatement, index)
        case .int64(let v): return v.bind(to: sqliteStatement, at: index)
        case .double(let v): return v.bind(to: sqliteStatement, at: index)
        case .string(let v): return v.bind(to: sqliteStatement, at: index)
        case .blob(let v): return v.bind(to: sqliteStatement, at: index)
        }
    }
}

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
