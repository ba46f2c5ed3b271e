/// A value computed from the rows of a to-many association, for each origin
/// row: `Author.books.count`, `Team.players.max(Column("score"))`...
///
/// Aggregates annotate requests, or filter them:
///
/// ```swift
/// // SELECT "team".*, COUNT(DISTINCT "player"."id") AS "playerCount"
/// // FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id"
/// // GROUP BY "team"."id"
/// Team.annotated(with: Team.players.count)
///
/// // ... HAVING COUNT(DISTINCT "player"."id") >= 5
/// Team.having(Team.players.count >= 5)
/// ```
public struct AssociationAggregate<RowDecoder>: Sendable {
    /// The joins the expression needs (left joins, without selection).
    let joins: [SQLJoin]
    /// The aggregate expression, whose columns refer to the joined tables.
    let expression: SQLExpression
    /// The name of the selected column in `annotated(with:)`.
    let key: String?

    init(joins: [SQLJoin], expression: SQLExpression, key: String?) {
        self.joins = joins
        self.expression = expression
        self.key = key
    }

    /// Returns an aggregate selected under the name `key`.
    public func forKey(_ key: String) -> AssociationAggregate<RowDecoder> {
        AssociationAggregate(joins: joins, expression: expression, key: key)
    }

    /// Returns an aggregate selected under the name of the coding key.
    public func forKey(_ key: some CodingKey) -> AssociationAggregate<RowDecoder> {
        forKey(key.stringValue)
    }

    /// An aggregate with another expression built on the same joins, and no
    /// key unless `keepingKey` (`??` and `cast` keep the key).
    func map(keepingKey: Bool = false, _ transform: (SQLExpression) -> SQLExpression) -> AssociationAggregate<
        RowDecoder
    > {
        AssociationAggregate(joins: joins, expression: transform(expression), key: keepingKey ? key : nil)
    }

    /// Combines two aggregates: the joins of both, and no key.
    static func combine(
        _ lhs: AssociationAggregate<RowDecoder>, _ rhs: AssociationAggregate<RowDecoder>,
        _ transform: (SQLExpression, SQLExpression) -> SQLExpression
    ) -> AssociationAggregate<RowDecoder> {
        AssociationAggregate(
            joins: lhs.joins + rhs.joins, expression: transform(lhs.expression, rhs.expression), key: nil)
    }

    var box: _SQLAggregateBox { _SQLAggregateBox(joins: joins, expression: expression, key: key) }
}

/// An aggregate as given to requests (not for direct use).
public struct _SQLAggregateBox: Sendable {
    let joins: [SQLJoin]
    let expression: SQLExpression
    let key: String?

    /// Joins the associated tables, groups by the origin primary key, and
    /// selects the aggregate, or filters the groups with it.
    func apply(to query: inout SQLQuery, having: Bool) {
        for join in joins {
            query.addJoin(join)
        }
        if query.groups == nil {
            let tableName = query.tableName
            query.groups = .deferred { db in
                try db.primaryKey(tableName).columns.map { Column($0).sqlExpression }
            }
        }
        if having {
            query.havings.append(.value(expression))
        } else if let key {
            query.selection.append(.value([expression.aliased(key)]))
        } else {
            query.selection.append(.value([SQLSelection(impl: .expression(expression))]))
        }
    }
}

extension AssociationToMany {
    /// An aggregate on the associated rows; `makeKey` builds the default key
    /// from the singular association key.
    private func aggregate(
        _ makeExpression: (TableAliasBase) -> SQLExpression, key makeKey: (String) -> String?
    ) -> AssociationAggregate<OriginRowDecoder> {
        let (association, alias) = _sqlAssociation.withDestinationAlias()
        let join = association.join(kind: .optional, mode: .none)
        return AssociationAggregate(
            joins: [join], expression: makeExpression(alias), key: makeKey(association.key.singularName))
    }

    private func columnAggregate(
        _ function: (SQLExpression) -> SQLExpression, _ expression: SQLExpression,
        key makeKey: @escaping (String, String) -> String
    ) -> AssociationAggregate<OriginRowDecoder> {
        aggregate({ function(expression.qualified(with: $0)) }) { name in
            guard case .column(let column) = expression.impl else { return nil }
            return makeKey(name, column)
        }
    }

    /// The number of associated rows: `COUNT(DISTINCT "book"."id")`, keyed `bookCount`.
    public var count: AssociationAggregate<OriginRowDecoder> {
        aggregate({ Strata.count(distinct: SQLExpression(impl: .aliasPrimaryKey($0))) }) { $0 + "Count" }
    }

    /// Whether there is no associated row: `COUNT(DISTINCT "book"."id") = 0`, keyed `hasNoBook`.
    public var isEmpty: AssociationAggregate<OriginRowDecoder> {
        aggregate({ SQLExpression.isZero(Strata.count(distinct: SQLExpression(impl: .aliasPrimaryKey($0)))) }) {
            "hasNo" + capitalized($0)
        }
    }

    /// The average of an expression on the associated rows, keyed `averageBookPrice` for a column.
    public func average(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        columnAggregate({ Strata.average($0) }, expression.sqlExpression) {
            "average" + capitalized($0) + capitalized($1)
        }
    }

    /// The average of an expression built from the associated columns.
    public func average(_ expression: (DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows
        -> AssociationAggregate<OriginRowDecoder> where RowDecoder: TableRecord
    {
        try average(expression(RowDecoder.databaseComponents))
    }

    /// The maximum of an expression on the associated rows, keyed `maxBookYear` for a column.
    public func max(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        columnAggregate({ Strata.max($0) }, expression.sqlExpression) { "max" + capitalized($0) + capitalized($1) }
    }

    /// The maximum of an expression built from the associated columns.
    public func max(_ expression: (DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows
        -> AssociationAggregate<OriginRowDecoder> where RowDecoder: TableRecord
    {
        try max(expression(RowDecoder.databaseComponents))
    }

    /// The minimum of an expression on the associated rows, keyed `minBookYear` for a column.
    public func min(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        columnAggregate({ Strata.min($0) }, expression.sqlExpression) { "min" + capitalized($0) + capitalized($1) }
    }

    /// The minimum of an expression built from the associated columns.
    public func min(_ expression: (DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows
        -> AssociationAggregate<OriginRowDecoder> where RowDecoder: TableRecord
    {
        try min(expression(RowDecoder.databaseComponents))
    }

    /// The sum of an expression on the associated rows (`SUM`), keyed `bookPriceSum` for a column.
    public func sum(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        columnAggregate({ Strata.sum($0) }, expression.sqlExpression) { $0 + capitalized($1) + "Sum" }
    }

    /// The sum of an expression built from the associated columns.
    public func sum(_ expression: (DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows
        -> AssociationAggregate<OriginRowDecoder> where RowDecoder: TableRecord
    {
        try sum(expression(RowDecoder.databaseComponents))
    }

    /// The total of an expression on the associated rows (`TOTAL`, 0.0 when
    /// there is no row), keyed `bookPriceSum` for a column.
    public func total(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        columnAggregate({ Strata.total($0) }, expression.sqlExpression) { $0 + capitalized($1) + "Sum" }
    }

    /// The total of an expression built from the associated columns.
    public func total(_ expression: (DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows
        -> AssociationAggregate<OriginRowDecoder> where RowDecoder: TableRecord
    {
        try total(expression(RowDecoder.databaseComponents))
    }
}

extension AssociationToMany where RowDecoder: TableRecord {
    /// The columns of the associated record type, given to aggregate closures.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents
}

/// `name` with an uppercase first letter.
private func capitalized(_ name: String) -> String {
    name.prefix(1).uppercased() + name.dropFirst()
}
