/// A request that knows the type of its fetched values.
public protocol TypedRequest<RowDecoder> {
    /// The type of fetched values.
    associatedtype RowDecoder
}

/// A request that can be filtered: `filter`, `none`...
public protocol FilteredRequest {
    /// Returns a request filtered by a predicate built once a connection is available.
    func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
}

extension FilteredRequest {
    /// Returns a request filtered by a predicate; repeated filters are joined with AND.
    public func filter(_ predicate: some SQLSpecificExpressible) -> Self {
        let expression = predicate.sqlExpression
        return filterWhenConnected { _ in expression }
    }

    /// Returns a request filtered by an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> Self {
        filter(sqlLiteral)
    }

    /// Returns a request filtered by raw SQL and its arguments.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQL(sql: sql, arguments: arguments))
    }

    /// Returns the request itself.
    public func all() -> Self { self }

    /// Returns a request that fetches no row: `WHERE ?`, with `false` as
    /// argument.
    public func none() -> Self {
        filter(SQLExpression.falseValue)
    }
}

extension FilteredRequest where Self: TypedRequest, RowDecoder: TableRecord {
    /// The columns of the record type, given to closures.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Returns a request filtered by a predicate built from the record columns:
    /// `Player.all().filter { $0.score > 1000 }`.
    public func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> Self {
        let expression = try predicate(RowDecoder.databaseComponents).sqlExpression
        return filterWhenConnected { _ in expression }
    }
}

/// A request that can be sorted: `order`, `reversed`...
public protocol OrderedRequest {
    /// Returns a request sorted by orderings built once a connection is available.
    func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self

    /// Returns a request with reversed orderings (no effect when unordered).
    func reversed() -> Self

    /// Returns a request without any ordering.
    func unordered() -> Self

    /// Returns a request whose ordering is completed with the primary key,
    /// so that the order of fetched rows is stable.
    func withStableOrder() -> Self
}

extension OrderedRequest {
    /// Returns a request sorted by the orderings; each call replaces the previous orderings.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// Returns a request sorted by the orderings; each call replaces the previous orderings.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        let orderings = orderings.map(\.sqlOrdering)
        return orderWhenConnected { _ in orderings }
    }

    /// Returns a request sorted by an SQL literal.
    public func order(literal sqlLiteral: SQL) -> Self {
        order(SQLOrdering(impl: .literal(sqlLiteral)))
    }

    /// Returns a request sorted by raw SQL and its arguments.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        order(literal: SQL(sql: sql, arguments: arguments))
    }
}

extension OrderedRequest where Self: TypedRequest, RowDecoder: TableRecord {
    /// The columns of the record type, given to closures.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Returns a request sorted by an ordering built from the record columns.
    public func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        try order([ordering(RowDecoder.databaseComponents)])
    }

    /// Returns a request sorted by orderings built from the record columns.
    public func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
        try order(orderings(RowDecoder.databaseComponents))
    }
}

/// A request whose selection can change: `select`, `annotated`.
public protocol SelectionRequest {
    /// Returns a request whose selection is built once a connection is available.
    func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self

    /// Returns a request whose selection is extended once a connection is available.
    func annotatedWhenConnected(with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable])
        -> Self
}

extension SelectionRequest {
    /// Returns a request that selects the given columns or expressions.
    public func select(_ selection: any SQLSelectable...) -> Self {
        select(selection)
    }

    /// Returns a request that selects the given columns or expressions.
    public func select(_ selection: [any SQLSelectable]) -> Self {
        let selection = selection.map(\.sqlSelection)
        return selectWhenConnected { _ in selection }
    }

    /// Returns a request that selects an SQL literal.
    public func select(literal sqlLiteral: SQL) -> Self {
        select(SQLSelection(impl: .literal(sqlLiteral)))
    }

    /// Returns a request that selects raw SQL.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        select(literal: SQL(sql: sql, arguments: arguments))
    }

    /// Returns a request whose selection is extended: `SELECT *, expression`.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }

    /// Returns a request whose selection is extended: `SELECT *, expression`.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        let selection = selection.map(\.sqlSelection)
        return annotatedWhenConnected { _ in selection }
    }
}

extension SelectionRequest where Self: TypedRequest, RowDecoder: TableRecord {
    /// The columns of the record type, given to closures.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Returns a request that selects an expression built from the record columns.
    public func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try select([selection(RowDecoder.databaseComponents)])
    }

    /// Returns a request that selects expressions built from the record columns.
    public func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try select(selection(RowDecoder.databaseComponents))
    }

    /// Returns a request extended with an expression built from the record columns.
    public func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try annotated(with: [selection(RowDecoder.databaseComponents)])
    }

    /// Returns a request extended with expressions built from the record columns.
    public func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try annotated(with: selection(RowDecoder.databaseComponents))
    }
}

/// A request that can group rows: `group`, `having`.
public protocol AggregatingRequest {
    /// Returns a request grouped by expressions built once a connection is available.
    func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self

    /// Returns a request whose groups are filtered by a predicate built once a
    /// connection is available.
    func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
}

extension AggregatingRequest {
    /// Returns a request grouped by the expressions; each call replaces the previous groups.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// Returns a request grouped by the expressions; each call replaces the previous groups.
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        let expressions = expressions.map(\.sqlExpression)
        return groupWhenConnected { _ in expressions }
    }

    /// Returns a request grouped by an SQL literal.
    public func group(literal sqlLiteral: SQL) -> Self {
        group([sqlLiteral.sqlExpression])
    }

    /// Returns a request grouped by raw SQL.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group(literal: SQL(sql: sql, arguments: arguments))
    }

    /// Returns a request whose groups are filtered; repeated calls are joined with AND.
    public func having(_ predicate: some SQLExpressible) -> Self {
        let expression = predicate.sqlExpression
        return havingWhenConnected { _ in expression }
    }

    /// Returns a request whose groups are filtered by an SQL literal.
    public func having(literal sqlLiteral: SQL) -> Self {
        having(sqlLiteral)
    }

    /// Returns a request whose groups are filtered by raw SQL.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(literal: SQL(sql: sql, arguments: arguments))
    }
}

extension AggregatingRequest where Self: TypedRequest, RowDecoder: TableRecord {
    /// The columns of the record type, given to closures.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Returns a request grouped by an expression built from the record columns.
    public func group(_ expression: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        try group([expression(RowDecoder.databaseComponents)])
    }

    /// Returns a request grouped by expressions built from the record columns.
    public func group(_ expressions: (DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> Self {
        try group(expressions(RowDecoder.databaseComponents))
    }

    /// Returns a request whose groups are filtered by a predicate built from the record columns.
    public func having(_ predicate: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        let expression = try predicate(RowDecoder.databaseComponents).sqlExpression
        return havingWhenConnected { _ in expression }
    }
}

/// A request on a database table: keys, aliases, primary key ordering.
public protocol TableRequest {
    /// The name of the queried table.
    var databaseTableName: String { get }

    /// Returns a request whose table is named by the alias (internal requirement).
    func _aliased(_ alias: TableAliasBase) -> Self
}

extension TableRequest where Self: TypedRequest {
    /// Returns a request whose table can be referred to with the alias.
    public func aliased(_ alias: TableAlias<Void>) -> Self {
        _aliased(alias)
    }

    /// Returns a request whose table can be referred to with the alias.
    public func aliased(_ alias: TableAlias<RowDecoder>) -> Self {
        _aliased(alias)
    }
}

/// A request that can be refined in all the ways of the query interface.
///
/// Write reusable refinements in extensions:
///
/// ```swift
/// extension DerivableRequest<Player> {
///     func orderedByScore() -> Self { order(Column("score").desc) }
/// }
/// ```
public protocol DerivableRequest<RowDecoder>:
    AggregatingRequest, FilteredRequest, JoinableRequest, OrderedRequest, SelectionRequest, TableRequest
{
    /// Returns a request that removes duplicate rows: `SELECT DISTINCT`.
    func distinct() -> Self

    /// Returns a request that embeds a common table expression: `WITH ...`.
    func with<RowDecoder>(_ cte: CommonTableExpression<RowDecoder>) -> Self
}
