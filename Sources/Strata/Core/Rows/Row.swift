import Foundation

/// A database row: an ordered collection of column names and values.
///
/// Read values with subscripts, by index, name or column:
///
/// ```swift
/// let row = try Row.fetchOne(db, sql: "SELECT id, name FROM player")!
/// let id: Int64 = row[0]
/// let name: String = row["name"]
/// let score: Int? = row["score"]   // nil: missing column
/// ```
///
/// Rows of a cursor are reused between steps: keep one with ``copy()``.
public final class Row {
    @usableFromInline
    enum Impl {
        /// The current row of a statement, read in place.
        case statement(Statement)
        /// Copied values.
        case values(names: [String], values: [DatabaseValue])
        /// An unadapted row seen through an adapter. Indirect: the
        /// adapter's existential is 40 bytes, and every row would pay for
        /// them in its `impl`, where the other cases need 16 (an adapted
        /// row allocates its box instead: scopes are rarer than rows).
        indirect case adapted(base: Row, adapter: any _LayoutedRowAdapter)
    }

    @usableFromInline
    let impl: Impl

    /// Whether a `.values` row is the copy of a row fetched from the
    /// database (see ``isFetched``). Declared next to `impl`, whose tag
    /// leaves room for it: `Row.fetchAll` keeps a row per row.
    var isCopyOfFetchedRow = false

    /// The statement of a live, unadapted row, read in place.
    @usableFromInline
    let sqliteStatement: SQLiteStatement?

    /// The number of columns.
    public let count: Int

    /// The statement of a live, unadapted row, unretained: `impl` holds it,
    /// and a retained reference would cost a retain and a release per lookup.
    @usableFromInline
    let liveStatement: Unmanaged<Statement>?

    /// Rows prefetched by associations: those of the row, by key, and
    /// those of its scopes.
    var prefetchStorage = PrefetchedRowsStorage()

    /// The keyed container of the last `Decodable` record decoded from the row.
    @exclusivity(unchecked)
    var recordContainerCache: RecordContainerCache?

    /// A row on the current row of a statement.
    init(statement: Statement) {
        impl = .statement(statement)
        sqliteStatement = statement.sqliteStatement
        liveStatement = Unmanaged.passUnretained(statement)
        count = statement.columnCount
    }

    /// A row from copied values.
    init(names: [String], values: [DatabaseValue]) {
        impl = .values(names: names, values: values)
        sqliteStatement = nil
        liveStatement = nil
        count = names.count
    }

    /// An adapted row; `base` must be unadapted.
    init(base: Row, adapter: any _LayoutedRowAdapter) {
        impl = .adapted(base: base, adapter: adapter)
        sqliteStatement = nil
        liveStatement = nil
        count = adapter._mapping.columns.count
    }

    /// Creates a row without any column.
    public convenience init() {
        self.init(names: [], values: [])
    }

    /// A row from a dictionary of values (nil is NULL), in dictionary order.
    public convenience init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        self.init(names: Array(dictionary.keys), values: dictionary.values.map { $0?.databaseValue ?? .null })
    }

    /// A row from untrusted values: nil when a key is not a string or a value is
    /// not database-convertible.
    public convenience init?(_ dictionary: [AnyHashable: Any]) {
        var names: [String] = []
        var values: [DatabaseValue] = []
        for (key, value) in dictionary {
            guard let name = key.base as? String, let dbValue = DatabaseValue(value: value) else { return nil }
            names.append(name)
            values.append(dbValue)
        }
        self.init(names: names, values: values)
    }

    /// Returns an immutable copy: rows of cursors change at each step.
    public func copy() -> Row {
        let result: Row
        switch impl {
        case .statement(let statement):
            result = Row(
                names: statement.columnNames,
                values: (0..<CInt(count)).map { DatabaseValue(sqliteStatement: statement.sqliteStatement, index: $0) })
        case .values:
            result = Row(impl: impl, count: count)
        case .adapted(let base, let adapter):
            result = Row(base: base.copy(), adapter: adapter)
        }
        result.prefetchStorage = prefetchStorage
        result.isCopyOfFetchedRow = isFetched
        return result
    }

    private init(impl: Impl, count: Int) {
        self.impl = impl
        self.sqliteStatement = nil
        self.liveStatement = nil
        self.count = count
    }

    /// The statement the row comes from, if any.
    /// Whether the row was fetched from the database (or copied from such
    /// a row), as opposed to a row built from values. A ``Record`` built
    /// from a fetched row tracks its changes from it.
    var isFetched: Bool {
        switch impl {
        case .statement: true
        case .values: isCopyOfFetchedRow
        case .adapted(let base, _): base.isFetched
        }
    }

    var statement: Statement? {
        switch impl {
        case .statement(let statement): return statement
        case .values: return nil
        case .adapted(let base, _): return base.statement
        }
    }

    // MARK: - Raw access

    /// The value at a valid index.
    @usableFromInline
    func databaseValue(atUncheckedIndex index: Int) -> DatabaseValue {
        switch impl {
        case .statement(let statement):
            return DatabaseValue(sqliteStatement: statement.sqliteStatement, index: CInt(index))
        case .values(_, let values):
            return values[index]
        case .adapted(let base, let adapter):
            return base.databaseValue(atUncheckedIndex: adapter._mapping.baseIndex(at: index))
        }
    }

    /// The name of the column at a valid index.
    func columnName(atUncheckedIndex index: Int) -> String {
        switch impl {
        case .statement(let statement):
            return statement.columnNames[index]
        case .values(let names, _):
            return names[index]
        case .adapted(_, let adapter):
            return adapter._mapping.columns[index].1
        }
    }

    /// The index of the leftmost column with this name (case-insensitive).
    @inlinable
    @inline(__always)
    func index(forColumn name: String) -> Int? {
        if let liveStatement {
            return liveStatement._withUnsafeGuaranteedRef { $0.index(ofColumn: name) }
        }
        return slowIndex(forColumn: name)
    }

    @usableFromInline
    func slowIndex(forColumn name: String) -> Int? {
        switch impl {
        case .statement(let statement):
            return statement.index(ofColumn: name)
        case .values(let names, _):
            let lowercased = name.lowercased()
            return names.firstIndex { $0 == name || $0.lowercased() == lowercased }
        case .adapted(_, let adapter):
            return adapter._mapping._layoutIndex(ofColumn: name)
        }
    }

    /// The live statement and base index of a column, when the row reads a statement in place.
    @usableFromInline
    func liveLocation(ofIndex index: Int) -> (SQLiteStatement, CInt)? {
        switch impl {
        case .statement(let statement):
            return (statement.sqliteStatement, CInt(index))
        case .values:
            return nil
        case .adapted(let base, let adapter):
            return base.liveLocation(ofIndex: adapter._mapping.baseIndex(at: index))
        }
    }

    @inlinable
    @inline(__always)
    func checkIndex(_ index: Int) {
        if index < 0 || index >= count {
            Row.indexOutOfRange(index, count: count)
        }
    }

    @usableFromInline
    static func indexOutOfRange(_ index: Int, count: Int) -> Never {
        fatalError("Row index out of range: \(index) (row has \(count) columns)")
    }

    // MARK: - Information

    /// True when the row has a column with this name (case-insensitive).
    public func hasColumn(_ columnName: String) -> Bool {
        index(forColumn: columnName) != nil
    }

    /// True when the value at the index is NULL.
    public func hasNull(atIndex index: Int) -> Bool {
        checkIndex(index)
        if let (sqliteStatement, baseIndex) = liveLocation(ofIndex: index) {
            return sqlite3_column_type(sqliteStatement, baseIndex) == SQLITE_NULL
        }
        return databaseValue(atUncheckedIndex: index).isNull
    }

    /// True when at least one value is not NULL, in the row or its scopes.
    public var containsNonNullValue: Bool {
        for i in 0..<count where !hasNull(atIndex: i) {
            return true
        }
        for (_, scope) in scopes where scope.containsNonNullValue {
            return true
        }
        return false
    }

    /// The column names, in order.
    public var columnNames: LazyMapCollection<Row, String> {
        lazy.map { $0.0 }
    }

    /// The values, in order.
    public var databaseValues: LazyMapCollection<Row, DatabaseValue> {
        lazy.map { $0.1 }
    }

    /// The row without its adapter: all the columns of the fetched statement.
    public var unadapted: Row {
        if case .adapted(let base, _) = impl { return base }
        return self
    }

    /// The row without its scopes, nor its prefetched rows.
    public var unscoped: Row {
        if case .adapted(let base, let adapter) = impl, !adapter._scopes.isEmpty {
            return Row(base: base, adapter: adapter._mapping)
        }
        if !prefetchStorage.isEmpty {
            let result = copy()
            result.prefetchStorage = PrefetchedRowsStorage()
            return result
        }
        return self
    }
}

// MARK: - Collection

extension Row: RandomAccessCollection {
    /// A position in a row.
    public struct Index: Comparable, Strideable, Sendable {
        let index: Int

        init(_ index: Int) { self.index = index }

        /// Compares positions.
        public static func < (lhs: Index, rhs: Index) -> Bool { lhs.index < rhs.index }
        /// Compares positions.
        public static func == (lhs: Index, rhs: Index) -> Bool { lhs.index == rhs.index }
        /// The position `n` columns away.
        public func advanced(by n: Int) -> Index { Index(index + n) }
        /// The number of columns to another position.
        public func distance(to other: Index) -> Int { other.index - index }
    }

    /// The position of the first column.
    public var startIndex: Index { Index(0) }

    /// The position after the last column.
    public var endIndex: Index { Index(count) }

    /// The column name and value at a position.
    public subscript(position: Index) -> (String, DatabaseValue) {
        checkIndex(position.index)
        return (columnName(atUncheckedIndex: position.index), databaseValue(atUncheckedIndex: position.index))
    }
}

// MARK: - Equality

extension Row: Hashable {
    /// Rows are equal when they have the same columns, values, scopes and prefetched rows.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        if lhs === rhs { return true }
        guard lhs.count == rhs.count else { return false }
        for i in 0..<lhs.count {
            if lhs.columnName(atUncheckedIndex: i) != rhs.columnName(atUncheckedIndex: i) { return false }
            if lhs.databaseValue(atUncheckedIndex: i) != rhs.databaseValue(atUncheckedIndex: i) { return false }
        }
        let lhsScopes = lhs.scopes
        let rhsScopes = rhs.scopes
        guard Set(lhsScopes.names) == Set(rhsScopes.names) else { return false }
        for name in lhsScopes.names where lhsScopes[name] != rhsScopes[name] {
            return false
        }
        // The prefetched rows of scopes were compared with the scopes.
        return lhs.prefetchStorage.rows == rhs.prefetchStorage.rows
    }

    /// Hashes the column names and values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for i in 0..<count {
            hasher.combine(columnName(atUncheckedIndex: i))
            hasher.combine(databaseValue(atUncheckedIndex: i))
        }
    }
}

// MARK: - Literals and descriptions

extension Row: ExpressibleByDictionaryLiteral {
    /// A row from a literal, in literal order: `["name": "Arthur", "score": nil]`.
    public convenience init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        self.init(names: elements.map(\.0), values: elements.map { $0.1?.databaseValue ?? .null })
    }
}

extension Row: CustomStringConvertible, CustomDebugStringConvertible {
    /// `[id:1 name:"Arthur"]`.
    public var description: String {
        "[" + map { "\($0.0):\($0.1)" }.joined(separator: " ") + "]"
    }

    /// The description, with the unadapted row, scopes and prefetched rows,
    /// as GRDB lays them out. Only the top row has the `▿` marker; a row
    /// also lists the rows prefetched in its scopes:
    ///
    /// ```
    /// ▿ [id:1 title:"Inferno"]
    ///   unadapted: [id:1 title:"Inferno" id:1 name:"Dante"]
    ///   - author: [id:1 name:"Dante"]
    ///     + awards: 2 rows
    ///   + awards: 2 rows
    /// ```
    public var debugDescription: String {
        debugDescription(level: 0)
    }

    private func debugDescription(level: Int) -> String {
        let unadapted = level == 0 ? self.unadapted : self
        let scopes = self.scopes
        // The rows prefetched by this row and by its scopes, at any depth.
        let prefetched = prefetchedRows
        let prefetchedKeys = prefetched.keys
        let showsUnadapted = level == 0 && !sameColumnsAndValues(unadapted)
        if !showsUnadapted && scopes.isEmpty && prefetchedKeys.isEmpty {
            return description
        }
        let indent = String(repeating: "  ", count: level + 1)
        var result = (level == 0 ? "▿ " : "") + description
        if showsUnadapted {
            result += "\n" + indent + "unadapted: " + unadapted.description
        }
        for name in scopes.names.sorted() {
            result += "\n" + indent + "- " + name + ": " + scopes[name]!.debugDescription(level: level + 1)
        }
        for key in prefetchedKeys.sorted() {
            let count = prefetched[key]?.count ?? 0
            result += "\n" + indent + "+ " + key + ": \(count) row" + (count > 1 ? "s" : "")
        }
        return result
    }

    /// True when both rows have the same columns and values (scopes aside).
    private func sameColumnsAndValues(_ other: Row) -> Bool {
        if self === other { return true }
        guard count == other.count else { return false }
        for i in 0..<count {
            if columnName(atUncheckedIndex: i) != other.columnName(atUncheckedIndex: i) { return false }
            if databaseValue(atUncheckedIndex: i) != other.databaseValue(atUncheckedIndex: i) { return false }
        }
        return true
    }
}
