/// A type that knows the database region it reads.
public protocol DatabaseRegionConvertible: Sendable {
    /// The tables, columns and rows this value reads: what an observation of it tracks.
    func databaseRegion(_ db: Database) throws -> DatabaseRegion
}

extension DatabaseRegionConvertible where Self == DatabaseRegion {
    /// The region of every table (``DatabaseRegion/fullDatabase``), spelled `.fullDatabase` where a
    /// `DatabaseRegionConvertible` is expected.
    public static var fullDatabase: DatabaseRegion { DatabaseRegion.fullDatabase }
}

extension DatabaseRegion: DatabaseRegionConvertible {}

/// A request that fetches values of type `RowDecoder`: rows, values or records.
///
/// `SQLRequest` and the query interface requests are fetch requests.
public protocol FetchRequest<RowDecoder>: DatabaseRegionConvertible, SQLSubqueryable {
    /// What the fetch methods return: `Row`, a value type, or a record type. It chooses which
    /// `fetchAll` and friends apply.
    associatedtype RowDecoder

    /// Compiles the request. `singleResult` tells that one row only is needed.
    func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest

    /// The number of rows the request fetches.
    func fetchCount(_ db: Database) throws -> Int
}

extension FetchRequest {
    /// The region read by the compiled request.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try makePreparedRequest(db, forSingleResult: false).statement.databaseRegion
    }

    /// Returns a request whose rows are adapted by the adapter built by the closure.
    public func adapted(_ adapter: @escaping @Sendable (Database) throws -> any RowAdapter) -> AdaptedFetchRequest<Self>
    {
        AdaptedFetchRequest(self, adapter)
    }

    /// Default count: `SELECT COUNT(*) FROM (request)`.
    func defaultFetchCount(_ db: Database) throws -> Int {
        let sql: SQL = "SELECT COUNT(*) FROM (\(self))"
        return try Int.fetchOne(db, sql: sql.build(db).sql, arguments: sql.build(db).arguments) ?? 0
    }
}

extension FetchRequest where RowDecoder == Row {
    /// Returns a cursor of rows.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access. A cursor does not run the prefetch statements of `including(all:)`:
    ///   fetch such a request with `fetchAll`, `fetchSet` or `fetchOne`.
    public func fetchCursor(_ db: Database) throws -> RowCursor { try Row.fetchCursor(db, self) }
    /// Returns an array of rows.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows. Plus one per prefetched association (`including(all:)`).
    public func fetchAll(_ db: Database) throws -> [Row] { try Row.fetchAll(db, self) }
    /// Returns a set of rows.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows. Plus one per prefetched association (`including(all:)`).
    public func fetchSet(_ db: Database) throws -> Set<Row> { try Row.fetchSet(db, self) }
    /// Returns the first row, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only. Plus one per prefetched
    ///   association (`including(all:)`).
    public func fetchOne(_ db: Database) throws -> Row? { try Row.fetchOne(db, self) }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    /// Returns a cursor of values.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> {
        try RowDecoder.fetchCursor(db, self)
    }
    /// Returns an array of values.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try RowDecoder.fetchAll(db, self) }
    /// Returns the first value, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    @inlinable
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try RowDecoder.fetchOne(db, self) }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & Hashable {
    /// Returns a set of values.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try RowDecoder.fetchSet(db, self) }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// Returns a cursor of values, read straight from the statement.
    ///
    /// - Complexity: Runs one SQL statement, a step per element, as the cursor is iterated inside
    ///   the database access.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> {
        try RowDecoder.fetchCursor(db, self)
    }
    /// Returns an array of values, read straight from the statement.
    ///
    /// - Complexity: Runs one SQL statement; allocates the array and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try RowDecoder.fetchAll(db, self) }
    /// Returns the first value, or nil.
    ///
    /// - Complexity: Runs one SQL statement, and reads its first row only.
    @inlinable
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try RowDecoder.fetchOne(db, self) }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// Returns a set of values, read straight from the statement.
    ///
    /// - Complexity: Runs one SQL statement; allocates the set and its elements, O(*n*) for *n*
    ///   rows.
    @inlinable
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try RowDecoder.fetchSet(db, self) }
}

/// A compiled request: a statement, and an optional adapter.
public struct PreparedRequest {
    /// The compiled statement, with its arguments.
    public var statement: Statement

    /// The adapter applied to fetched rows.
    public var adapter: (any RowAdapter)?

    /// Completes fetched rows (prefetched associations).
    @usableFromInline
    var supplementaryFetch: ((_ rows: [Row], _ db: Database) throws -> Void)?

    init(
        statement: Statement,
        adapter: (any RowAdapter)?,
        supplementaryFetch: ((_ rows: [Row], _ db: Database) throws -> Void)? = nil
    ) {
        self.statement = statement
        self.adapter = adapter
        self.supplementaryFetch = supplementaryFetch
    }

    func fetchRows(_ rows: [Row], _ db: Database) throws -> [Row] {
        try supplementaryFetch?(rows, db)
        return rows
    }
}

/// A type-erased fetch request.
public struct AnyFetchRequest<RowDecoder>: FetchRequest {
    private let _makePreparedRequest: @Sendable (Database, Bool) throws -> PreparedRequest
    private let _fetchCount: @Sendable (Database) throws -> Int
    private let _subquery: SQLSubquery

    /// Wraps a request.
    public init(_ request: some FetchRequest<RowDecoder>) {
        _makePreparedRequest = { try request.makePreparedRequest($0, forSingleResult: $1) }
        _fetchCount = { try request.fetchCount($0) }
        _subquery = request.sqlSubquery
    }

    private init(
        makePreparedRequest: @escaping @Sendable (Database, Bool) throws -> PreparedRequest,
        fetchCount: @escaping @Sendable (Database) throws -> Int,
        subquery: SQLSubquery
    ) {
        _makePreparedRequest = makePreparedRequest
        _fetchCount = fetchCount
        _subquery = subquery
    }

    /// The same request, fetching another type.
    public func asRequest<T>(of type: T.Type) -> AnyFetchRequest<T> {
        AnyFetchRequest<T>(makePreparedRequest: _makePreparedRequest, fetchCount: _fetchCount, subquery: _subquery)
    }

    /// Compiles the request.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws
        -> PreparedRequest
    {
        try _makePreparedRequest(db, singleResult)
    }

    /// The number of fetched rows.
    ///
    /// - Complexity: Runs one SQL statement that counts in the database; allocates nothing per row.
    public func fetchCount(_ db: Database) throws -> Int { try _fetchCount(db) }

    /// The request as a subquery.
    public var sqlSubquery: SQLSubquery { _subquery }
}

/// A request whose rows are adapted. See ``FetchRequest/adapted(_:)``.
public struct AdaptedFetchRequest<Base: FetchRequest>: FetchRequest {
    /// Fetches the same type as the base request.
    public typealias RowDecoder = Base.RowDecoder

    let base: Base
    let adapter: @Sendable (Database) throws -> any RowAdapter

    init(_ base: Base, _ adapter: @escaping @Sendable (Database) throws -> any RowAdapter) {
        self.base = base
        self.adapter = adapter
    }

    /// Compiles the base request and composes its adapter with this one.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws
        -> PreparedRequest
    {
        var prepared = try base.makePreparedRequest(db, forSingleResult: singleResult)
        let adapter = try self.adapter(db)
        if let baseAdapter = prepared.adapter {
            prepared.adapter = ChainedAdapter(first: baseAdapter, second: adapter)
        } else {
            prepared.adapter = adapter
        }
        return prepared
    }

    /// The number of fetched rows (adapters don't change it).
    ///
    /// - Complexity: Runs one SQL statement that counts in the database; allocates nothing per row.
    public func fetchCount(_ db: Database) throws -> Int { try base.fetchCount(db) }
}

extension AdaptedFetchRequest {
    /// The base request as a subquery (adapters don't change the SQL).
    public var sqlSubquery: SQLSubquery { base.sqlSubquery }
}

/// Applies an adapter, then another on the adapted columns.
struct ChainedAdapter: RowAdapter {
    let first: any RowAdapter
    let second: any RowAdapter

    func _layoutedAdapter(from layout: any _RowLayout) throws -> any _LayoutedRowAdapter {
        let firstLayouted = try first._layoutedAdapter(from: layout)
        let secondLayouted = try second._layoutedAdapter(from: firstLayouted._mapping)
        return LayoutedScopedAdapter(
            _mapping: secondLayouted._mapping,
            _scopes: firstLayouted._scopes.merging(secondLayouted._scopes) { _, new in new })
    }
}
