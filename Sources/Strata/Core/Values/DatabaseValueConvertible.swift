import Foundation

/// A type that can convert itself to and from a single database value.
///
/// Adopt it for types stored in one column:
///
/// ```swift
/// struct EvenInteger: DatabaseValueConvertible {
///     let value: Int
///     var databaseValue: DatabaseValue { value.databaseValue }
///     static func fromDatabaseValue(_ dbValue: DatabaseValue) -> EvenInteger? {
///         guard let value = Int.fromDatabaseValue(dbValue), value.isMultiple(of: 2) else { return nil }
///         return EvenInteger(value: value)
///     }
/// }
/// ```
public protocol DatabaseValueConvertible: SQLExpressible, StatementBinding {
    /// The database value that stores this value. Never fails.
    var databaseValue: DatabaseValue { get }

    /// Returns a value from a database value, or nil when the database value
    /// does not fit (the library then reports a decoding error).
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self?

    /// Returns a value for a column that is missing from a row: nil, but for
    /// optionals which decode a missing column as `.some(nil)`.
    /// Do not customize.
    static func fromMissingColumn() -> Self?

    /// The JSON decoder for `Codable` values stored as JSON. A requirement so
    /// that your own implementation is used (default in `Support/Codable.swift`).
    static func databaseJSONDecoder() -> JSONDecoder

    /// The JSON encoder for `Codable` values stored as JSON. A requirement so
    /// that your own implementation is used (default in `Support/Codable.swift`).
    static func databaseJSONEncoder() -> JSONEncoder
}

extension DatabaseValueConvertible {
    /// Missing columns can't be decoded, but by optionals.
    @inlinable
    public static func fromMissingColumn() -> Self? { nil }

    /// Binds `databaseValue`.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        databaseValue.bind(to: sqliteStatement, at: index)
    }

    /// An SQL expression that holds this value as a statement argument.
    public var sqlExpression: SQLExpression {
        .init(impl: .databaseValue(databaseValue))
    }
}

/// A type that reads its values straight from an SQLite statement column, without
/// building an intermediate ``DatabaseValue``.
///
/// Strata uses this fast path automatically when a fetched type adopts it.
public protocol StatementColumnConvertible {
    /// Reads the non-NULL value at `index` of a statement that has been stepped,
    /// or nil when it does not fit the type.
    init?(sqliteStatement: SQLiteStatement, index: CInt)

    /// Returns nil for NULL, and otherwise calls ``init(sqliteStatement:index:)``.
    /// The index must be valid.
    static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self?
}

extension StatementColumnConvertible {
    /// Returns nil for NULL, and otherwise calls ``init(sqliteStatement:index:)``.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL {
            return nil
        }
        return self.init(sqliteStatement: sqliteStatement, index: index)
    }
}

// MARK: - Optional

extension Optional: StatementBinding where Wrapped: StatementBinding {
    /// Binds NULL for nil.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        switch self {
        case .none: return sqlite3_bind_null(sqliteStatement, index)
        case .some(let value): return value.bind(to: sqliteStatement, at: index)
        }
    }
}

extension Optional: SQLExpressible where Wrapped: SQLExpressible {
    /// The wrapped expression, or the NULL expression.
    public var sqlExpression: SQLExpression {
        switch self {
        case .none: return .null
        case .some(let value): return value.sqlExpression
        }
    }
}

/// An optional expression is an expression too: `Column("a") == optionalColumn`.
/// The condition is `SQLSpecificExpressible`, not `SQLExpressible`: an
/// optional plain value (`Int?`) must not gain the operators of expressions.
extension Optional: SQLSpecificExpressible where Wrapped: SQLSpecificExpressible {}

extension Optional: SQLOrderingTerm where Wrapped: SQLOrderingTerm {
    /// The wrapped ordering, or NULL.
    public var sqlOrdering: SQLOrdering {
        switch self {
        case .none: return SQLOrdering(impl: .expression(.null))
        case .some(let value): return value.sqlOrdering
        }
    }
}

extension Optional: SQLSelectable where Wrapped: SQLSelectable {
    /// The wrapped selection, or NULL.
    public var sqlSelection: SQLSelection {
        switch self {
        case .none: return SQLSelection(impl: .expression(.null))
        case .some(let value): return value.sqlSelection
        }
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// NULL for nil, or the wrapped value's database value.
    @inlinable
    public var databaseValue: DatabaseValue {
        switch self {
        case .none: return .null
        case .some(let value): return value.databaseValue
        }
    }

    /// `.some(value)` when `Wrapped` decodes the value (it is asked first,
    /// NULL included: `DatabaseValue?` decodes NULL as `.some(.null)`),
    /// `.some(nil)` for a NULL that `Wrapped` refuses, and nil otherwise.
    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Optional<Wrapped>? {
        if let value = Wrapped.fromDatabaseValue(dbValue) { return .some(value) }
        return dbValue.isNull ? .some(nil) : nil
    }

    /// A missing column decodes as nil.
    @inlinable
    public static func fromMissingColumn() -> Optional<Wrapped>? { .some(nil) }
}

extension Optional: StatementColumnConvertible where Wrapped: StatementColumnConvertible {
    /// Reads the wrapped value; nil when it does not fit.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Wrapped(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = .some(value)
    }

    /// Like ``fromDatabaseValue(_:)``: `.some(value)` when `Wrapped` reads a
    /// value (it is asked first, NULL included: `DatabaseValue?` reads NULL
    /// as `.some(.null)`), `.some(nil)` for a NULL it refuses, and nil when a
    /// value does not decode. Asking `Wrapped` first spares the column type
    /// of a value that is there: integers, doubles, strings and dates read it
    /// only when their value could be a NULL.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Optional<
        Wrapped
    >? {
        if let value = Wrapped.fromStatement(sqliteStatement, atUncheckedIndex: index) {
            return .some(value)
        }
        return sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL ? .some(nil) : nil
    }
}
