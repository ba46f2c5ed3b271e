/// A relationship between two tables, used to join, include, annotate and
/// prefetch associated rows. Associations are refinable like requests:
///
/// ```swift
/// extension Book: TableRecord {
///     static let author = belongsTo(Author.self)
/// }
/// // Books with their Italian author
/// let request = Book.including(required: Book.author.filter(Column("countryCode") == "IT"))
/// ```
public protocol Association: DerivableRequest, Sendable {
    /// The type of the origin records.
    associatedtype OriginRowDecoder

    /// The description of the association (not for direct use).
    var _sqlAssociation: _SQLAssociation { get set }

    /// Returns an association whose key is `key`: the name of the row scope
    /// and of the decoded property.
    func forKey(_ key: String) -> Self
}

extension Association {
    func mapDestination(_ update: (inout SQLQuery) -> Void) -> Self {
        var result = self
        result._sqlAssociation = _sqlAssociation.mapDestination(update)
        return result
    }

    /// The name of the destination table.
    public var databaseTableName: String { _sqlAssociation.destination.tableName }

    /// Returns an association whose key is `key`.
    public func forKey(_ key: String) -> Self {
        var result = self
        result._sqlAssociation = _sqlAssociation.forKey(key)
        return result
    }

    /// Returns an association whose key is the coding key's string value.
    public func forKey(_ codingKey: some CodingKey) -> Self {
        forKey(codingKey.stringValue)
    }

    /// Returns an association whose associated rows are filtered by a
    /// predicate built once a connection is available.
    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        mapDestination { $0.filters.append(.deferred { try predicate($0).sqlExpression }) }
    }

    /// Returns an association whose associated rows are sorted; previous
    /// orderings are replaced.
    public func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self
    {
        mapDestination {
            $0.orderings = [.deferred { try orderings($0).map(\.sqlOrdering) }]
            $0.isReversed = false
        }
    }

    /// Returns an association with reversed orderings.
    public func reversed() -> Self {
        mapDestination { $0.isReversed.toggle() }
    }

    /// Returns an association without any ordering, in its joined tables too.
    public func unordered() -> Self {
        mapDestination { $0.removeAllOrderings() }
    }

    /// Returns an association whose orderings of each table end with the
    /// primary key of that table.
    public func withStableOrder() -> Self {
        mapDestination { $0.appendPrimaryKeyOrderings() }
    }

    /// Returns an association whose selected columns are built once a
    /// connection is available; the previous selection is replaced.
    public func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self {
        mapDestination { $0.selection = [.deferred { try selection($0).map(\.sqlSelection) }] }
    }

    /// Returns an association whose selection is extended once a connection is available.
    public func annotatedWhenConnected(
        with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]
    ) -> Self {
        mapDestination { $0.selection.append(.deferred { try selection($0).map(\.sqlSelection) }) }
    }

    /// Returns an association grouped by expressions (used by prefetched rows).
    public func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible])
        -> Self
    {
        mapDestination { $0.groups = .deferred { try expressions($0).map(\.sqlExpression) } }
    }

    /// Returns an association whose groups are filtered (used by prefetched rows).
    public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        mapDestination { $0.havings.append(.deferred { try predicate($0).sqlExpression }) }
    }

    /// Returns an association whose table can be referred to with the alias.
    public func _aliased(_ alias: TableAliasBase) -> Self {
        alias.setTableName(databaseTableName)
        return mapDestination { $0.alias = alias }
    }

    /// Returns an association without duplicate rows (used by prefetched rows).
    public func distinct() -> Self {
        mapDestination { $0.isDistinct = true }
    }

    /// Returns an association that embeds a common table expression.
    public func with<RowDecoder>(_ cte: CommonTableExpression<RowDecoder>) -> Self {
        mapDestination { query in
            query.ctes.removeAll { $0.tableName.lowercased() == cte.tableName.lowercased() }
            query.ctes.append(cte.cte)
        }
    }

    /// Adds a join to the destination table (nested `including` and `joining`).
    public func _joining(_ join: _SQLJoinBox) -> Self {
        mapDestination { $0.addJoin(join.join) }
    }

    /// Adds prefetched rows to the destination table (nested `including(all:)`).
    public func _prefetching(_ prefetch: _SQLPrefetchBox) -> Self {
        mapDestination { $0.addPrefetch(prefetch.prefetch) }
    }

    /// Adds aggregate annotations to the destination table.
    public func _annotating(_ aggregate: _SQLAggregateBox) -> Self {
        mapDestination { aggregate.apply(to: &$0, having: false) }
    }

    /// Adds an aggregate condition to the destination table.
    public func _having(_ aggregate: _SQLAggregateBox) -> Self {
        mapDestination { aggregate.apply(to: &$0, having: true) }
    }
}

/// An association to one row: `belongsTo`, `hasOne`, `hasOne(through:)`, and joins.
public protocol AssociationToOne: Association {}

/// An association to many rows: `hasMany`, `hasMany(through:)`. They can be
/// prefetched with `including(all:)`, and aggregated (`Author.books.count`).
public protocol AssociationToMany: Association {}

extension AssociationToOne {
    /// Returns an association whose key is `key`.
    public func forKey(_ key: String) -> Self {
        var result = self
        result._sqlAssociation = _sqlAssociation.forKey(key)
        return result
    }
}

extension AssociationToMany {
    /// Returns an association whose key is `key`.
    public func forKey(_ key: String) -> Self {
        var result = self
        result._sqlAssociation = _sqlAssociation.forKey(key)
        return result
    }
}
