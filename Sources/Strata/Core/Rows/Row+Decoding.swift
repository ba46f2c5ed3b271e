import Foundation

// MARK: - Errors

extension Row {
    @usableFromInline
    func valueMismatch<Value>(_ type: Value.Type, atIndex index: Int) -> RowDecodingError {
        RowDecodingError.make(
            .valueMismatch(type: Row.typeName(Value.self), dbValue: databaseValue(atUncheckedIndex: index)),
            row: self, columnIndex: index)
    }

    /// The name of a decoded type, without the optional layers that fetching
    /// methods add: `fetchOne` of `Int` decodes an `Int?`.
    static func typeName(_ type: Any.Type) -> String {
        var name = String(describing: type)
        while name.hasPrefix("Optional<") && name.hasSuffix(">") {
            name = String(name.dropFirst("Optional<".count).dropLast())
        }
        return name
    }

    @usableFromInline
    func columnNotFound(_ name: String) -> RowDecodingError {
        RowDecodingError.make(.columnNotFound, row: self, columnName: name)
    }

    @usableFromInline
    static func fatal(_ error: any Error) -> Never {
        fatalError("\(error)")
    }
}

// MARK: - Untyped subscripts

extension Row {
    /// The value at the index, as its raw type (`Int64`, `Double`, `String`,
    /// `Data`), or nil for NULL. Index 0 is the leftmost column.
    public subscript(_ index: Int) -> (any DatabaseValueConvertible)? {
        checkIndex(index)
        return databaseValue(atUncheckedIndex: index).storage.value
    }

    /// The value of the leftmost column with this name, or nil for NULL or a
    /// missing column.
    public subscript(_ columnName: String) -> (any DatabaseValueConvertible)? {
        guard let index = index(forColumn: columnName) else { return nil }
        return databaseValue(atUncheckedIndex: index).storage.value
    }

    /// The value of the column, or nil for NULL or a missing column.
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        self[column.name]
    }
}

// MARK: - Typed subscripts (fatal errors)

extension Row {
    /// The value at the index. A NULL or a value that doesn't fit the type is
    /// a fatal error: use `decode(_:atIndex:)` for untrusted data.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        do { return try decode(Value.self, atIndex: index) } catch { Row.fatal(error) }
    }

    /// The value at the index, read straight from the statement. Inlined,
    /// so that reading a column costs no call besides SQLite's.
    @inlinable
    @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ index: Int) -> Value {
        do { return try decode(Value.self, atIndex: index) } catch { Row.fatal(error) }
    }

    /// The value of the leftmost column with this name. A missing column is
    /// nil for optionals, and a fatal error otherwise.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ columnName: String) -> Value {
        do { return try decode(Value.self, forColumn: columnName) } catch { Row.fatal(error) }
    }

    /// The value of the leftmost column with this name, read straight from
    /// the statement. Inlined, so that reading a column costs no call
    /// besides SQLite's.
    @inlinable
    @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ columnName: String) -> Value {
        do { return try decode(Value.self, forColumn: columnName) } catch { Row.fatal(error) }
    }

    /// The value of the leftmost column with the name of `column`. A missing column is nil for
    /// optionals, and a fatal error otherwise.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value {
        do { return try decode(Value.self, forColumn: column.name) } catch { Row.fatal(error) }
    }

    /// The value of the column, read straight from the statement.
    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ column: some ColumnExpression
    ) -> Value {
        do { return try decode(Value.self, forColumn: column.name) } catch { Row.fatal(error) }
    }
}

// MARK: - Throwing decoding

extension Row {
    /// Decodes the value at the index, or throws ``RowDecodingError``.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self,
        atIndex index: Int
    ) throws -> Value {
        checkIndex(index)
        if let value = Value.fromDatabaseValue(databaseValue(atUncheckedIndex: index)) {
            return value
        }
        throw valueMismatch(Value.self, atIndex: index)
    }

    /// Decodes the value at the index, read straight from the statement, or
    /// throws ``RowDecodingError``. Inlined, so that records read their
    /// columns without a call per column.
    @inlinable
    @inline(__always)
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self,
        atIndex index: Int
    ) throws -> Value {
        checkIndex(index)
        if let sqliteStatement {
            if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: CInt(index)) {
                return value
            }
        } else if let (sqliteStatement, baseIndex) = liveLocation(ofIndex: index) {
            if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: baseIndex) {
                return value
            }
        } else if let value = Value.fromDatabaseValue(databaseValue(atUncheckedIndex: index)) {
            return value
        }
        throw valueMismatch(Value.self, atIndex: index)
    }

    /// Decodes the value of the leftmost column with this name. A missing
    /// column decodes as nil for optionals, and throws otherwise.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self,
        forColumn columnName: String
    ) throws -> Value {
        guard let index = index(forColumn: columnName) else {
            if let value = Value.fromMissingColumn() { return value }
            throw columnNotFound(columnName)
        }
        return try decode(Value.self, atIndex: index)
    }

    /// Decodes the value of the leftmost column with this name, read straight
    /// from the statement. Inlined, so that records read their columns by
    /// name without a call per column.
    @inlinable
    @inline(__always)
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self,
        forColumn columnName: String
    ) throws -> Value {
        if let liveStatement, let sqliteStatement {
            // A live row: the statement's lookup returns one of its columns,
            // which needs no bounds check, and fits a `CInt`.
            if let index = liveStatement._withUnsafeGuaranteedRef({ $0.index(ofColumn: columnName) }) {
                if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: CInt(truncatingIfNeeded: index)) {
                    return value
                }
                throw valueMismatch(Value.self, atIndex: index)
            }
        } else if let index = slowIndex(forColumn: columnName) {
            return try decode(Value.self, atIndex: index)
        }
        if let value = Value.fromMissingColumn() { return value }
        throw columnNotFound(columnName)
    }

    /// Decodes the value of the column.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self,
        forColumn column: some ColumnExpression
    ) throws -> Value {
        try decode(Value.self, forColumn: column.name)
    }

    /// Decodes the value of the column, read straight from the statement.
    @inlinable
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self,
        forColumn column: some ColumnExpression
    ) throws -> Value {
        try decode(Value.self, forColumn: column.name)
    }

    /// The first non-NULL value of the columns, or nil.
    public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<String>) -> T? {
        for name in columns {
            guard let index = index(forColumn: name) else { continue }
            let dbValue = databaseValue(atUncheckedIndex: index)
            if !dbValue.isNull { return T.fromDatabaseValue(dbValue) }
        }
        return nil
    }

    /// The first non-NULL value of the columns, or nil.
    public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<any ColumnExpression>) -> T? {
        coalesce(columns.map(\.name))
    }
}

// MARK: - Data without copy

extension Row {
    /// The blob at the index, sharing SQLite's memory: only valid until the
    /// cursor steps again. Nil for NULL.
    public func dataNoCopy(atIndex index: Int) -> Data? {
        checkIndex(index)
        if let (sqliteStatement, baseIndex) = liveLocation(ofIndex: index) {
            switch sqlite3_column_type(sqliteStatement, baseIndex) {
            case SQLITE_NULL:
                return nil
            case SQLITE_BLOB, SQLITE_TEXT:
                let pointer =
                    sqlite3_column_type(sqliteStatement, baseIndex) == SQLITE_BLOB
                    ? sqlite3_column_blob(sqliteStatement, baseIndex)
                    : UnsafeRawPointer(sqlite3_column_text(sqliteStatement, baseIndex))
                let count = Int(sqlite3_column_bytes(sqliteStatement, baseIndex))
                guard let pointer, count > 0 else { return Data() }
                return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: pointer), count: count, deallocator: .none)
            default:
                return Data.fromDatabaseValue(databaseValue(atUncheckedIndex: index))
            }
        }
        let dbValue = databaseValue(atUncheckedIndex: index)
        if dbValue.isNull { return nil }
        return Data.fromDatabaseValue(dbValue)
    }

    /// The blob of the column with this name, sharing SQLite's memory.
    public func dataNoCopy(named columnName: String) -> Data? {
        guard let index = index(forColumn: columnName) else { return nil }
        return dataNoCopy(atIndex: index)
    }

    /// The blob of the column, sharing SQLite's memory.
    public func dataNoCopy(_ column: some ColumnExpression) -> Data? {
        dataNoCopy(named: column.name)
    }

    /// Calls `body` with the blob at the index, without copy. The data must
    /// not escape the closure.
    public func withUnsafeData<T>(atIndex index: Int, _ body: (Data?) throws -> T) throws -> T {
        try body(dataNoCopy(atIndex: index))
    }

    /// Calls `body` with the blob of the column with this name, without
    /// copy: nil for NULL or a missing column. Only `body` throws.
    public func withUnsafeData<T>(named columnName: String, _ body: (Data?) throws -> T) throws -> T {
        try body(dataNoCopy(named: columnName))
    }

    /// Calls `body` with the blob of the column, without copy: nil for NULL
    /// or a missing column. Only `body` throws.
    public func withUnsafeData<T>(at column: some ColumnExpression, _ body: (Data?) throws -> T) throws -> T {
        try withUnsafeData(named: column.name, body)
    }
}
