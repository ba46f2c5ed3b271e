#if Macros
    import Foundation

    // The code that `@DatabaseRecord` generates calls these declarations. They
    // are public because the generated code is the user's; they start with `_`
    // because nobody calls them by hand.
    //
    // Decoding mirrors `RecordKeyedDecodingContainer` and encoding mirrors
    // `RecordKeyedEncodingContainer`, property by property: the same column
    // lookup (after the column strategies), the same value conversions (dates
    // and data with their strategies, JSON for other values), the same errors.
    // The value type is inferred from the property that the call assigns:
    // the macro does not write it, so that types nested in other types resolve
    // as in the struct. What differs is the speed: each column's index is resolved once per
    // statement, and database values are read straight from the statement.

    /// The column indexes of a record's properties in a row (not for direct
    /// use: `@DatabaseRecord` generates the calls).
    public struct _DatabaseRecordColumns {
        /// For each property, in declaration order, the column index, or -1.
        @usableFromInline let pointer: UnsafePointer<Int>
        /// What keeps the indexes of a row that is not read from a
        /// statement in place; nil for the indexes of a statement, which
        /// live as long as the statement.
        @usableFromInline let owner: DatabaseRecordIndexes?

        @usableFromInline
        init(pointer: UnsafePointer<Int>, owner: DatabaseRecordIndexes?) {
            self.pointer = pointer
            self.owner = owner
        }

        /// The index of the property at `position`, which the generated code
        /// keeps below the number of properties.
        @inlinable
        @inline(__always)
        subscript(position: Int) -> Int {
            pointer[position]
        }
    }

    /// Indexes allocated for one row that is not read from a statement in
    /// place (a copied or adapted row).
    @usableFromInline
    final class DatabaseRecordIndexes {
        let buffer: UnsafeMutableBufferPointer<Int>

        init(_ indexes: [Int]) {
            // At least one element, so that the buffer has an address.
            buffer = .allocate(capacity: Swift.max(indexes.count, 1))
            _ = buffer.initialize(from: indexes)
        }

        deinit {
            buffer.deallocate()
        }
    }

    /// The coding key of a column, for the strategies and the errors.
    @usableFromInline
    struct DatabaseRecordKey: CodingKey {
        @usableFromInline var stringValue: String
        @usableFromInline var intValue: Int? { nil }

        @usableFromInline
        init(_ name: String) {
            stringValue = name
        }

        @usableFromInline
        init(stringValue: String) {
            self.stringValue = stringValue
        }

        @usableFromInline
        init?(intValue: Int) {
            nil
        }
    }

    extension Row {
        /// The column index of each property of a record (not for direct use:
        /// `@DatabaseRecord` generates the calls). Resolved once per statement:
        /// `names` is only called when the statement has not seen the record
        /// type yet, or for a row that is not read from a statement in place.
        @inlinable
        @inline(__always)
        public func _databaseRecordColumns<Record: FetchableRecord>(
            _ record: Record.Type, _ names: () -> [String]
        ) -> _DatabaseRecordColumns {
            if let liveStatement {
                let cached: UnsafePointer<Int>? = liveStatement._withUnsafeGuaranteedRef { statement in
                    statement.recordColumnsType == ObjectIdentifier(Record.self) ? statement.recordColumnIndexes : nil
                }
                if let cached {
                    return _DatabaseRecordColumns(pointer: cached, owner: nil)
                }
            }
            return resolveDatabaseRecordColumns(Record.self, names: names())
        }

        /// Looks the columns up, with the record's column decoding strategy,
        /// and remembers them in the statement of a live row.
        @usableFromInline
        func resolveDatabaseRecordColumns<Record: FetchableRecord>(
            _ record: Record.Type, names: [String]
        ) -> _DatabaseRecordColumns {
            let type = ObjectIdentifier(Record.self)
            if let liveStatement {
                let statement = liveStatement.takeUnretainedValue()
                if let buffer = statement.recordColumnBuffers.first(where: { $0.type == type }) {
                    let pointer = UnsafePointer(buffer.indexes.baseAddress!)
                    statement.recordColumnsType = type
                    statement.recordColumnIndexes = pointer
                    return _DatabaseRecordColumns(pointer: pointer, owner: nil)
                }
            }
            let indexes: [Int]
            if case .useDefaultKeys = Record.databaseColumnDecodingStrategy {
                indexes = names.map { index(forColumn: $0) ?? -1 }
            } else {
                // The leftmost column whose key is the name, as the keyed
                // container of `Decodable` records finds it.
                let strategy = Record.databaseColumnDecodingStrategy
                var keyIndexes: [String: Int] = [:]
                for index in 0..<count {
                    let key = strategy.keyString(forColumn: columnName(atUncheckedIndex: index))
                    if keyIndexes[key] == nil { keyIndexes[key] = index }
                }
                indexes = names.map { keyIndexes[$0] ?? -1 }
            }
            guard let liveStatement else {
                let owner = DatabaseRecordIndexes(indexes)
                return _DatabaseRecordColumns(pointer: UnsafePointer(owner.buffer.baseAddress!), owner: owner)
            }
            // At least one element, so that the buffer has an address.
            let buffer = UnsafeMutableBufferPointer<Int>.allocate(capacity: Swift.max(indexes.count, 1))
            _ = buffer.initialize(from: indexes)
            let pointer = UnsafePointer(buffer.baseAddress!)
            let statement = liveStatement.takeUnretainedValue()
            statement.recordColumnBuffers.append((type: type, indexes: buffer))
            statement.recordColumnsType = type
            statement.recordColumnIndexes = pointer
            return _DatabaseRecordColumns(pointer: pointer, owner: nil)
        }

        // MARK: - Database values read in place

        /// Decodes a database value that a statement reads in place (not for
        /// direct use: `@DatabaseRecord` generates the calls).
        @inlinable
        @inline(__always)
        public func _decodeDatabaseRecordColumn<
            Value: DatabaseValueConvertible & StatementColumnConvertible & Decodable, Record: FetchableRecord
        >(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> Value {
            // Dates and data follow the record's strategies, as in `Decodable` records.
            if Value.self == Date.self || Value.self == Data.self {
                return try decodeDatabaseRecordValue(Value.self, index: columns[position], name: name, Record.self)
            }
            let index = columns[position]
            if index >= 0, let sqliteStatement,
                let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: CInt(truncatingIfNeeded: index))
            {
                return value
            }
            return try decodeDatabaseRecordSlowValue(Value.self, index: index, name: name)
        }

        /// Decodes an optional database value that a statement reads in place
        /// (not for direct use: `@DatabaseRecord` generates the calls).
        @inlinable
        @inline(__always)
        public func _decodeDatabaseRecordColumnIfPresent<
            Value: DatabaseValueConvertible & StatementColumnConvertible & Decodable, Record: FetchableRecord
        >(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> Value? {
            if Value.self == Date.self || Value.self == Data.self {
                return try decodeDatabaseRecordValueIfPresent(
                    Value.self, index: columns[position], name: name, Record.self)
            }
            let index = columns[position]
            if index >= 0, let sqliteStatement,
                let value = Value?.fromStatement(sqliteStatement, atUncheckedIndex: CInt(truncatingIfNeeded: index))
            {
                return value
            }
            return try decodeDatabaseRecordSlowValue(Value?.self, index: index, name: name)
        }

        /// A missing column, a row that is not read in place, or a value that
        /// does not fit: the errors of `Decodable` records.
        @inlinable
        @inline(never)
        func decodeDatabaseRecordSlowValue<Value: DatabaseValueConvertible & StatementColumnConvertible>(
            _ type: Value.Type, index: Int, name: String
        ) throws -> Value {
            guard index >= 0 else {
                if let value = Value.fromMissingColumn() { return value }
                throw columnNotFound(name)
            }
            return try decode(Value.self, atIndex: index)
        }

        // MARK: - Other values

        /// Decodes a `Decodable` value (not for direct use: `@DatabaseRecord`
        /// generates the calls).
        @inlinable
        public func _decodeDatabaseRecordColumn<Value: Decodable, Record: FetchableRecord>(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> Value {
            try decodeDatabaseRecordValue(Value.self, index: columns[position], name: name, Record.self)
        }

        /// Decodes an optional `Decodable` value (not for direct use:
        /// `@DatabaseRecord` generates the calls).
        @inlinable
        public func _decodeDatabaseRecordColumnIfPresent<Value: Decodable, Record: FetchableRecord>(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> Value? {
            try decodeDatabaseRecordValueIfPresent(Value.self, index: columns[position], name: name, Record.self)
        }

        /// Decodes a database value that is `Decodable` too (not for direct
        /// use: `@DatabaseRecord` generates the calls).
        @inlinable
        public func _decodeDatabaseRecordColumn<Value: DatabaseValueConvertible & Decodable, Record: FetchableRecord>(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> Value {
            try decodeDatabaseRecordValue(Value.self, index: columns[position], name: name, Record.self)
        }

        /// Decodes an optional database value that is `Decodable` too (not for
        /// direct use: `@DatabaseRecord` generates the calls).
        @inlinable
        public func _decodeDatabaseRecordColumnIfPresent<
            Value: DatabaseValueConvertible & Decodable, Record: FetchableRecord
        >(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> Value? {
            try decodeDatabaseRecordValueIfPresent(Value.self, index: columns[position], name: name, Record.self)
        }

        /// Decodes a database value that is not `Decodable` (not for direct
        /// use: `@DatabaseRecord` generates the calls).
        @inlinable
        public func _decodeDatabaseRecordColumn<Value: DatabaseValueConvertible, Record: FetchableRecord>(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> Value {
            let index = columns[position]
            guard index >= 0 else {
                if let value = Value.fromMissingColumn() { return value }
                throw columnNotFound(name)
            }
            return try decode(Value.self, atIndex: index)
        }

        /// Decodes an optional database value that is not `Decodable` (not for
        /// direct use: `@DatabaseRecord` generates the calls).
        @inlinable
        public func _decodeDatabaseRecordColumnIfPresent<Value: DatabaseValueConvertible, Record: FetchableRecord>(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> Value? {
            let index = columns[position]
            guard index >= 0 else { return nil }
            return try decode(Value?.self, atIndex: index)
        }

        /// Decodes a record that is not `Decodable`, such as another
        /// `@DatabaseRecord` struct (not for direct use: `@DatabaseRecord`
        /// generates the calls): from the association's scope of the
        /// property's name, or else from the whole row, as a `Decodable`
        /// record's property that is a record.
        @inlinable
        public func _decodeDatabaseRecordColumn<Value: FetchableRecord, Record: FetchableRecord>(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> Value {
            try decodeDatabaseRecordRecord(Value.self, name: name)
        }

        /// Decodes an optional record that is not `Decodable` (not for direct
        /// use: `@DatabaseRecord` generates the calls): nil when the
        /// association's scope is missing or only holds NULLs.
        @inlinable
        public func _decodeDatabaseRecordColumnIfPresent<Value: FetchableRecord, Record: FetchableRecord>(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> Value? {
            try decodeDatabaseRecordRecordIfPresent(Value.self, name: name)
        }

        /// Decodes a record that is `Decodable` too (not for direct use:
        /// `@DatabaseRecord` generates the calls), as a `Decodable` record does.
        @inlinable
        public func _decodeDatabaseRecordColumn<Value: FetchableRecord & Decodable, Record: FetchableRecord>(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> Value {
            try decodeDatabaseRecordValue(Value.self, index: columns[position], name: name, Record.self)
        }

        /// Decodes an optional record that is `Decodable` too (not for
        /// direct use: `@DatabaseRecord` generates the calls).
        @inlinable
        public func _decodeDatabaseRecordColumnIfPresent<
            Value: FetchableRecord & Decodable, Record: FetchableRecord
        >(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> Value? {
            try decodeDatabaseRecordValueIfPresent(Value.self, index: columns[position], name: name, Record.self)
        }

        /// Decodes the records that `including(all:)` prefetched, such as
        /// other `@DatabaseRecord` structs (not for direct use:
        /// `@DatabaseRecord` generates the calls).
        @inlinable
        public func _decodeDatabaseRecordColumn<Element: FetchableRecord, Record: FetchableRecord>(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> [Element] {
            try decodeDatabaseRecordRecords(Element.self, name: name)
        }

        /// Decodes the optional records that `including(all:)` prefetched:
        /// nil without them (not for direct use).
        @inlinable
        public func _decodeDatabaseRecordColumnIfPresent<Element: FetchableRecord, Record: FetchableRecord>(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> [Element]? {
            try decodeDatabaseRecordRecordsIfPresent(Element.self, name: name)
        }

        /// Decodes prefetched records that are `Decodable` too, as a
        /// `Decodable` record does (not for direct use).
        @inlinable
        public func _decodeDatabaseRecordColumn<Element: FetchableRecord & Decodable, Record: FetchableRecord>(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> [Element] {
            try decodeDatabaseRecordValue([Element].self, index: columns[position], name: name, Record.self)
        }

        /// Decodes optional prefetched records that are `Decodable` too
        /// (not for direct use).
        @inlinable
        public func _decodeDatabaseRecordColumnIfPresent<
            Element: FetchableRecord & Decodable, Record: FetchableRecord
        >(
            _ columns: _DatabaseRecordColumns, _ position: Int, _ name: String,
            _ record: Record.Type
        ) throws -> [Element]? {
            try decodeDatabaseRecordValueIfPresent([Element].self, index: columns[position], name: name, Record.self)
        }

        /// The prefetched rows of the name, decoded; the error of a
        /// `Decodable` record without them.
        @usableFromInline
        func decodeDatabaseRecordRecords<Element: FetchableRecord>(_ type: Element.Type, name: String) throws
            -> [Element]
        {
            guard let records = try decodeDatabaseRecordRecordsIfPresent(Element.self, name: name) else {
                throw RowDecodingError.make(.keyNotFound(name), row: self)
            }
            return records
        }

        /// The prefetched rows of the name, decoded; nil without them.
        @usableFromInline
        func decodeDatabaseRecordRecordsIfPresent<Element: FetchableRecord>(
            _ type: Element.Type, name: String
        ) throws -> [Element]? {
            guard let rows = prefetchedRows[name] else { return nil }
            return try rows.map { try Element(row: $0) }
        }

        /// A record from the scope of its name, or from the whole row.
        @usableFromInline
        func decodeDatabaseRecordRecord<Value: FetchableRecord>(_ type: Value.Type, name: String) throws -> Value {
            if !scopes.isEmpty, let scopedRow = scopesTree[name] {
                return try Value(row: scopedRow)
            }
            return try Value(row: self)
        }

        /// An optional record from the scope of its name: nil without the
        /// scope, or when it only holds NULLs (a missing associated record).
        @usableFromInline
        func decodeDatabaseRecordRecordIfPresent<Value: FetchableRecord>(
            _ type: Value.Type, name: String
        ) throws -> Value? {
            guard !scopes.isEmpty, let scopedRow = scopesTree[name], scopedRow.containsNonNullValue else {
                return nil
            }
            return try Value(row: scopedRow)
        }

        /// A `Decodable` value, as `RecordKeyedDecodingContainer.decode` reads it.
        @usableFromInline
        func decodeDatabaseRecordValue<Value: Decodable, Record: FetchableRecord>(
            _ type: Value.Type, index: Int, name: String, _ record: Record.Type
        ) throws -> Value {
            if index >= 0 {
                return try RecordValueDecoding<Record>.decodeColumn(
                    Value.self, row: self, index: index, codingPath: [DatabaseRecordKey(name)])
            }
            // Missing column: scopes, prefetched rows, and the errors.
            return try RecordKeyedDecodingContainer<DatabaseRecordKey, Record>(row: self, codingPath: [])
                .decode(Value.self, forKey: DatabaseRecordKey(name))
        }

        /// An optional `Decodable` value, as
        /// `RecordKeyedDecodingContainer.decodeIfPresent` reads it.
        @usableFromInline
        func decodeDatabaseRecordValueIfPresent<Value: Decodable, Record: FetchableRecord>(
            _ type: Value.Type, index: Int, name: String, _ record: Record.Type
        ) throws -> Value? {
            if index >= 0 {
                if hasNull(atIndex: index) { return nil }
                return try RecordValueDecoding<Record>.decodeColumn(
                    Value.self, row: self, index: index, codingPath: [DatabaseRecordKey(name)])
            }
            return try RecordKeyedDecodingContainer<DatabaseRecordKey, Record>(row: self, codingPath: [])
                .decodeIfPresent(Value.self, forKey: DatabaseRecordKey(name))
        }
    }
#endif
