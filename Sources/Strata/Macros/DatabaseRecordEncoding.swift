#if Macros
    import Foundation

    // What the `encode(to:)` and `_bindDatabaseRecordColumns(to:)` that
    // `@DatabaseRecord` generates call: each column, in declaration order,
    // goes to a writer (the record's container, or the parameters of its
    // INSERT statement) with the value that `RecordKeyedEncodingContainer`
    // would store. Also the checks that warn about a record protocol that
    // the struct adopts where the macro does not see it.

    /// Where the code that `@DatabaseRecord` writes puts the columns of a
    /// record, in declaration order: a ``PersistenceContainer``, or the
    /// parameters of an INSERT statement (not for direct use).
    public protocol _DatabaseRecordColumnWriter {
        /// Writes a database value to the column (not for direct use).
        mutating func _write(_ value: some StatementBinding & DatabaseValueConvertible, column: String)
    }

    extension PersistenceContainer: _DatabaseRecordColumnWriter {
        /// Sets the column (not for direct use).
        @inlinable
        @inline(__always)
        public mutating func _write(_ value: some StatementBinding & DatabaseValueConvertible, column: String) {
            setDatabaseValue(value.databaseValue, forColumn: column)
        }
    }

    extension _DatabaseRecordBinder: _DatabaseRecordColumnWriter {
        /// Binds the next parameter: the INSERT statement names the columns
        /// (not for direct use).
        @inlinable
        @inline(__always)
        public mutating func _write(_ value: some StatementBinding & DatabaseValueConvertible, column: String) {
            bind(value)
        }
    }

    /// Writes the columns of a record (not for direct use: `@DatabaseRecord`
    /// generates the calls). Reads the record's column encoding strategy once
    /// per record.
    public struct _DatabaseRecordEncoding<Record: EncodableRecord> {
        /// Whether the columns are the names (the default strategy).
        @usableFromInline let usesDefaultKeys: Bool

        /// Reads the record's column encoding strategy (not for direct use).
        @inlinable
        public init(_ record: Record.Type) {
            usesDefaultKeys = Self.readsDefaultKeys()
        }

        @usableFromInline
        static func readsDefaultKeys() -> Bool {
            if case .useDefaultKeys = Record.databaseColumnEncodingStrategy { return true }
            return false
        }

        @inlinable
        @inline(__always)
        func column(_ name: String) -> String {
            usesDefaultKeys ? name : mappedColumn(name)
        }

        @usableFromInline
        func mappedColumn(_ name: String) -> String {
            Record.databaseColumnEncodingStrategy.column(forKey: DatabaseRecordKey(name))
        }

        /// Writes a database value that is `Encodable` too (not for direct use).
        @inlinable
        @inline(__always)
        public func encode<Value: DatabaseValueConvertible & Encodable>(
            _ value: Value, _ name: String, to writer: inout some _DatabaseRecordColumnWriter
        ) throws {
            // Dates, UUIDs and data follow the record's strategies, as in `Encodable` records.
            if Value.self == Date.self || Value.self == UUID.self || Value.self == Data.self {
                try encodeEncodable(value, name, to: &writer)
            } else {
                writer._write(value, column: column(name))
            }
        }

        /// Writes an `Encodable` value (not for direct use).
        @inlinable
        public func encode<Value: Encodable>(
            _ value: Value, _ name: String, to writer: inout some _DatabaseRecordColumnWriter
        ) throws {
            try encodeEncodable(value, name, to: &writer)
        }

        /// Writes a database value that is not `Encodable` (not for direct use).
        @inlinable
        public func encode<Value: DatabaseValueConvertible>(
            _ value: Value, _ name: String, to writer: inout some _DatabaseRecordColumnWriter
        ) throws {
            writer._write(value, column: column(name))
        }

        /// Writes an optional database value that is `Encodable` too (not for
        /// direct use).
        @inlinable
        @inline(__always)
        public func encodeIfPresent<Value: DatabaseValueConvertible & Encodable>(
            _ value: Value?, _ name: String, to writer: inout some _DatabaseRecordColumnWriter
        ) throws {
            guard let value else { return writeNull(name, to: &writer) }
            try encode(value, name, to: &writer)
        }

        /// Writes an optional `Encodable` value (not for direct use).
        @inlinable
        public func encodeIfPresent<Value: Encodable>(
            _ value: Value?, _ name: String, to writer: inout some _DatabaseRecordColumnWriter
        ) throws {
            guard let value else { return writeNull(name, to: &writer) }
            try encode(value, name, to: &writer)
        }

        /// Writes an optional database value that is not `Encodable` (not for
        /// direct use).
        @inlinable
        public func encodeIfPresent<Value: DatabaseValueConvertible>(
            _ value: Value?, _ name: String, to writer: inout some _DatabaseRecordColumnWriter
        ) throws {
            guard let value else { return writeNull(name, to: &writer) }
            try encode(value, name, to: &writer)
        }

        /// NULL, for a nil optional.
        @inlinable
        func writeNull(_ name: String, to writer: inout some _DatabaseRecordColumnWriter) {
            writer._write(DatabaseValue.null, column: column(name))
        }

        /// An `Encodable` value, as `RecordKeyedEncodingContainer` stores it.
        @usableFromInline
        func encodeEncodable<Value: Encodable>(
            _ value: Value, _ name: String, to writer: inout some _DatabaseRecordColumnWriter
        ) throws {
            let column = column(name)
            let value = try RecordEncoder<Record>.databaseValue(of: value, key: DatabaseRecordKey(name), column: column)
            writer._write(value?.databaseValue ?? .null, column: column)
        }
    }

    // The checks of `_databaseRecordCheckConformances()`, which
    // `@DatabaseRecord` writes for a struct that does not name
    // `FetchableRecord`, or a protocol that writes columns, where the macro
    // sees it. The compiler picks the constrained overload for a type that
    // adopts the protocol anyway (in another extension, or through a
    // protocol of the app), and warns.

    /// Nothing: the type is not a `FetchableRecord` (not for direct use).
    @inlinable
    public func _databaseRecordInitRowCheck<T>(_ type: T.Type) {}

    /// Warns that `@DatabaseRecord` wrote no `init(row:)` (not for direct use).
    @available(
        *, deprecated,
        message: """
            the struct adopts FetchableRecord where @DatabaseRecord does not see it, and the macro wrote no \
            init(row:): adopt FetchableRecord on the struct
            """
    )
    @inlinable
    public func _databaseRecordInitRowCheck<T: FetchableRecord>(_ type: T.Type) {}

    /// Nothing: the type is not an `EncodableRecord` (not for direct use).
    @inlinable
    public func _databaseRecordEncodeCheck<T>(_ type: T.Type) {}

    /// Warns that `@DatabaseRecord` wrote no `encode(to:)` (not for direct use).
    @available(
        *, deprecated,
        message: """
            the struct adopts EncodableRecord, PersistableRecord or MutablePersistableRecord where \
            @DatabaseRecord does not see it, and the macro wrote no encode(to:): adopt it on the struct
            """
    )
    @inlinable
    public func _databaseRecordEncodeCheck<T: EncodableRecord>(_ type: T.Type) {}
#endif
