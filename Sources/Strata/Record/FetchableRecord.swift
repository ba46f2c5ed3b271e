import Foundation

/// A type that can be decoded from a database row.
///
/// ```swift
/// struct Player: FetchableRecord {
///     var id: Int64
///     var name: String
///     init(row: Row) throws {
///         id = row["id"]
///         name = row["name"]
///     }
/// }
/// let players = try Player.fetchAll(db, sql: "SELECT * FROM player")
/// ```
public protocol FetchableRecord {
    /// Decodes a record from a row. The row may be reused after the call:
    /// copy it (``Row/copy()``) to keep it.
    ///
    /// `Decodable` records get a ready-made implementation.
    init(row: Row) throws

    /// The `userInfo` of the decoder of `Decodable` records. Empty by default.
    ///
    /// Declare it with its explicit type, `[CodingUserInfoKey: Any]`, or the
    /// compiler may not see it as the implementation of this requirement.
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The JSON decoder of the properties of `Decodable` records that are
    /// stored as JSON in the column. The default decoder reads `Data` as
    /// base64, `Date` as milliseconds since 1970, and throws on
    /// non-conforming floats.
    static func databaseJSONDecoder(for column: String) -> JSONDecoder

    /// How `Decodable` records decode their `Date` properties stored in the
    /// column. The default is ``DatabaseDateDecodingStrategy/deferredToDate``.
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy

    /// How `Decodable` records decode their `Data` properties stored in the
    /// column. The default is ``DatabaseDataDecodingStrategy/deferredToData``.
    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy

    /// How `Decodable` records map column names to coding keys. The default
    /// is ``DatabaseColumnDecodingStrategy/useDefaultKeys``.
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { get }
}

/// A cursor of records, decoded from a reused row.
public final class RecordCursor<Record: FetchableRecord>: DatabaseCursor {
    /// Each element is a record decoded from the current row, and independent of it.
    public typealias Element = Record

    /// The statement this cursor steps; used by the shared `DatabaseCursor` code, apps do not read it.
    public let _statement: Statement
    /// Set once the statement returned its last row; bookkeeping for `DatabaseCursor`, apps do not touch it.
    @exclusivity(unchecked)
    public var _isDone = false
    /// The run of the statement that this cursor iterates.
    private var execution = 0
    @usableFromInline let row: Row

    @usableFromInline
    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)?) throws {
        _statement = statement
        if let arguments {
            try statement.setArguments(arguments)
        }
        let live = Row(statement: statement)
        if let adapter {
            row = Row(base: live, adapter: try adapter._layoutedAdapter(from: statement))
        } else {
            row = live
        }
        try statement.prepareExecution()
        execution = statement.executionCount
    }

    deinit {
        _resetUnfinishedStatement(execution: execution)
    }

    /// Decodes a record from the reused row at each step; called by `next()`, apps do not call it.
    @inlinable
    public func _element(sqliteStatement: SQLiteStatement) throws -> Record {
        try Record(row: row)
    }
}

extension FetchableRecord {
    // MARK: From statements

    /// Returns a cursor of the records of a statement.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access. Each record is decoded from one reused row: no row is copied.
    ///   An adapter is applied once, to the columns of the statement.
    public static func fetchCursor(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> RecordCursor<Self> {
        try RecordCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the records of a statement.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its records, O(*n*) for *n*
    ///   rows. Each record is decoded from one reused row: no row is copied.
    ///   An adapter is applied once, to the columns of the statement.
    @inlinable
    public static func fetchAll(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> [Self] {
        let cursor = try RecordCursor<Self>(statement: statement, arguments: arguments, adapter: adapter)
        var records: [Self] = []
        try cursor.appendElements(to: &records)
        return records
    }

    /// Returns the first record of a statement, or nil.
    ///
    /// - Complexity: Runs one SQL statement, reads its first row only, and decodes one record.
    ///   The statement is reset afterwards, so that it can run again.
    @inlinable
    public static func fetchOne(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> Self? {
        let cursor = try RecordCursor<Self>(statement: statement, arguments: arguments, adapter: adapter)
        let record = try cursor.next()
        statement.reset()
        return record
    }

    // MARK: From SQL

    /// Returns a cursor of the records of an SQL query.
    ///
    /// - Complexity: Compiles the SQL at each call (use ``Database/cachedStatement(sql:)`` and the
    ///   statement variant to run it often), then runs it; a step per element, as the
    ///   cursor is iterated inside the database access. Each record is decoded from one reused row.
    public static func fetchCursor(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> RecordCursor<Self> {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns an array of the records of an SQL query.
    ///
    /// - Complexity: Compiles the SQL at each call (use ``Database/cachedStatement(sql:)`` and the
    ///   statement variant to run it often), then runs it; allocates the array and its
    ///   records, O(*n*) for *n* rows. Each record is decoded from one reused row.
    @inlinable
    public static func fetchAll(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> [Self] {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Returns the first record of an SQL query, or nil.
    ///
    /// - Complexity: Compiles the SQL at each call (use ``Database/cachedStatement(sql:)`` and the
    ///   statement variant to run it often), then runs it; reads its first row only.
    @inlinable
    public static func fetchOne(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> Self? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    // MARK: From requests

    /// Returns a cursor of the records of a request.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access. Each record is decoded from one reused row: no row is copied.
    ///   The request's SQL is generated at each call; a query interface request (or an
    ///   `SQLRequest` made with `cached: true`) reuses a cached statement for it.
    ///   A cursor does not run the prefetch statements of `including(all:)`: fetch such a request
    ///   with `fetchAll`, `fetchSet` or `fetchOne`.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RecordCursor<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchCursor(prepared.statement, adapter: prepared.adapter)
    }

    /// Returns an array of the records of a request.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its records, O(*n*) for *n*
    ///   rows. Each record is decoded from one reused row: no row is copied.
    ///   The request's SQL is generated at each call; a query interface request (or an
    ///   `SQLRequest` made with `cached: true`) reuses a cached statement for it.
    ///   With prefetched associations (`including(all:)`), one more statement per association,
    ///   and the rows are copied before their records are decoded.
    ///
    /// Inlined, as the fetches of statements and SQL are: the caller's copy
    /// is specialized for the record type, where a generic copy would look
    /// up the metadata of `[Self]` at each row.
    @inlinable
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        if prepared.supplementaryFetch != nil {
            return try fetchAllWithSupplementaryFetch(db, request)
        }
        return try fetchAll(prepared.statement, adapter: prepared.adapter)
    }

    /// The records of a request with prefetched associations, decoded from
    /// copied rows. Out of line: the rows' prefetches cost more than a
    /// generic decoding loop.
    @usableFromInline
    static func fetchAllWithSupplementaryFetch(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try Row.fetchAll(db, request).map { try Self(row: $0) }
    }

    /// Returns the first record of a request, or nil.
    ///
    /// - Complexity: Runs one SQL statement, reads its first row only, and decodes one record.
    ///   The request's SQL is generated at each call; a query interface request (or an
    ///   `SQLRequest` made with `cached: true`) reuses a cached statement for it.
    ///   With prefetched associations (`including(all:)`), one more statement per association,
    ///   and the rows are copied before their records are decoded.
    @inlinable
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let prepared = try request.makePreparedRequest(db, forSingleResult: true)
        if prepared.supplementaryFetch != nil {
            return try fetchOneWithSupplementaryFetch(db, request)
        }
        return try fetchOne(prepared.statement, adapter: prepared.adapter)
    }

    /// The first record of a request with prefetched associations.
    @usableFromInline
    static func fetchOneWithSupplementaryFetch(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try Row.fetchOne(db, request).map { try Self(row: $0) }
    }
}

extension FetchableRecord where Self: Hashable {
    /// Returns a set of the records of a statement.
    ///
    /// - Complexity: Runs one SQL statement; allocates an array of the records, then the set,
    ///   O(*n*) for *n* rows. Each record is decoded from one reused row: no row is copied.
    @inlinable
    public static func fetchSet(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil
    ) throws -> Set<Self> {
        try Set(fetchAll(statement, arguments: arguments, adapter: adapter))
    }

    /// Returns a set of the records of an SQL query.
    ///
    /// - Complexity: Compiles the SQL at each call (use ``Database/cachedStatement(sql:)`` and the
    ///   statement variant to run it often), then runs it; allocates an array of the
    ///   records, then the set, O(*n*) for *n* rows.
    @inlinable
    public static func fetchSet(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil
    ) throws -> Set<Self> {
        try Set(fetchAll(db, sql: sql, arguments: arguments, adapter: adapter))
    }

    /// Returns a set of the records of a request.
    ///
    /// - Complexity: Runs one SQL statement; allocates an array of the records, then the set,
    ///   O(*n*) for *n* rows. Each record is decoded from one reused row: no row is copied.
    ///   The request's SQL is generated at each call; a query interface request (or an
    ///   `SQLRequest` made with `cached: true`) reuses a cached statement for it.
    ///   With prefetched associations (`including(all:)`), one more statement per association,
    ///   and the rows are copied before their records are decoded.
    @inlinable
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        try Set(fetchAll(db, request))
    }
}

extension FetchRequest where RowDecoder: FetchableRecord {
    /// Returns a cursor of the records of the request.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access. Each record is decoded from one reused row: no row is copied.
    ///   The request's SQL is generated at each call; a query interface request (or an
    ///   `SQLRequest` made with `cached: true`) reuses a cached statement for it.
    ///   A cursor does not run the prefetch statements of `including(all:)`: fetch such a request
    ///   with `fetchAll`, `fetchSet` or `fetchOne`.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try RowDecoder.fetchCursor(db, self) }
    /// Returns an array of the records of the request.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its records, O(*n*) for *n*
    ///   rows. Each record is decoded from one reused row: no row is copied.
    ///   The request's SQL is generated at each call; a query interface request (or an
    ///   `SQLRequest` made with `cached: true`) reuses a cached statement for it.
    ///   With prefetched associations (`including(all:)`), one more statement per association,
    ///   and the rows are copied before their records are decoded.
    @inlinable
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try RowDecoder.fetchAll(db, self) }
    /// Returns the first record of the request, or nil.
    ///
    /// - Complexity: Runs one SQL statement, reads its first row only, and decodes one record.
    ///   The request's SQL is generated at each call; a query interface request (or an
    ///   `SQLRequest` made with `cached: true`) reuses a cached statement for it.
    ///   With prefetched associations (`including(all:)`), one more statement per association,
    ///   and the rows are copied before their records are decoded.
    @inlinable
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try RowDecoder.fetchOne(db, self) }
}

extension FetchRequest where RowDecoder: FetchableRecord & Hashable {
    /// Returns a set of the records of the request.
    ///
    /// - Complexity: Runs one SQL statement; allocates an array of the records, then the set,
    ///   O(*n*) for *n* rows. Each record is decoded from one reused row: no row is copied.
    ///   The request's SQL is generated at each call; a query interface request (or an
    ///   `SQLRequest` made with `cached: true`) reuses a cached statement for it.
    ///   With prefetched associations (`including(all:)`), one more statement per association,
    ///   and the rows are copied before their records are decoded.
    @inlinable
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try RowDecoder.fetchSet(db, self) }
}

// MARK: - Records in rows

extension Row {
    /// Decodes the record of a scope. A missing scope is a fatal error.
    public subscript<Record: FetchableRecord>(_ scope: String) -> Record {
        do { return try decode(Record.self, forKey: scope) } catch { Row.fatal(error) }
    }

    /// Decodes the record of a scope; nil when the scope is missing or all NULL.
    public subscript<Record: FetchableRecord>(_ scope: String) -> Record? {
        do { return try decodeIfPresent(Record.self, forKey: scope) } catch { Row.fatal(error) }
    }

    /// Decodes the prefetched records of an association key.
    public subscript<Records: RangeReplaceableCollection>(_ key: String) -> Records
    where Records.Element: FetchableRecord {
        do { return try decode(Records.self, forKey: key) } catch { Row.fatal(error) }
    }

    /// Decodes the prefetched records of an association key.
    public subscript<Record: FetchableRecord & Hashable>(_ key: String) -> Set<Record> {
        do { return try decode(Set<Record>.self, forKey: key) } catch { Row.fatal(error) }
    }

    /// Decodes the record of a scope, or throws ``RowDecodingError``.
    public func decode<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey scope: String) throws
        -> Record
    {
        guard let scopedRow = scopesTree[scope] else {
            throw RowDecodingError.make(.keyNotFound(scope), row: self)
        }
        return try Record(row: scopedRow)
    }

    /// Decodes the record of a scope; nil when the scope is missing or all NULL.
    public func decodeIfPresent<Record: FetchableRecord>(
        _ type: Record.Type = Record.self, forKey scope: String
    ) throws -> Record? {
        guard let scopedRow = scopesTree[scope], scopedRow.containsNonNullValue else { return nil }
        return try Record(row: scopedRow)
    }

    /// Decodes the prefetched records of an association key.
    public func decode<Collection: RangeReplaceableCollection>(
        _ type: Collection.Type = Collection.self, forKey key: String
    ) throws -> Collection where Collection.Element: FetchableRecord {
        guard let rows = prefetchedRows[key] else {
            throw RowDecodingError.make(.keyNotFound(key), row: self)
        }
        var result = Collection()
        result.reserveCapacity(rows.count)
        for row in rows {
            result.append(try Collection.Element(row: row))
        }
        return result
    }

    /// Decodes the prefetched records of an association key, as a set.
    public func decode<Record: FetchableRecord & Hashable>(
        _ type: Set<Record>.Type = Set<Record>.self, forKey key: String
    ) throws -> Set<Record> {
        guard let rows = prefetchedRows[key] else {
            throw RowDecodingError.make(.keyNotFound(key), row: self)
        }
        return try Set(rows.map { try Record(row: $0) })
    }
}
