extension _SQLAssociation {
    /// The destination relation of a record type: its table and default selection.
    static func relation<T>(_ type: T.Type, tableName: String) -> SQLQuery {
        let selection = (T.self as? any TableRecord.Type)?.databaseSelection ?? [AllColumns()]
        return SQLQuery(tableName: tableName, selection: selection)
    }

    /// The destination relation of a common table expression.
    static func relation<T>(_ cte: CommonTableExpression<T>) -> SQLQuery {
        var query = SQLQuery(tableName: cte.tableName, selection: [AllColumns()])
        query.ctes = [cte.cte]
        return query
    }

    /// A to-one association through a foreign key of the origin table.
    static func belongsTo(
        origin: String, destination: SQLQuery, key: String?, foreignKey: ForeignKey?
    ) -> _SQLAssociation {
        _SQLAssociation(
            key: key.map(SQLAssociationKey.fixed) ?? .inflected(destination.tableName), isToMany: false,
            condition: SQLJoinCondition(
                impl: .foreignKey(
                    foreignKey, leftTable: origin, rightTable: destination.tableName, foreignKeyOnLeft: true)),
            relation: destination)
    }

    /// An association through a foreign key of the destination table.
    static func has(
        origin: String, destination: SQLQuery, key: String?, foreignKey: ForeignKey?, toMany: Bool
    ) -> _SQLAssociation {
        _SQLAssociation(
            key: key.map(SQLAssociationKey.fixed) ?? .inflected(destination.tableName), isToMany: toMany,
            condition: SQLJoinCondition(
                impl: .foreignKey(
                    foreignKey, leftTable: origin, rightTable: destination.tableName, foreignKeyOnLeft: false)),
            relation: destination)
    }

    /// An association without condition: every pair of rows is joined.
    static func join(origin: String, destination: SQLQuery) -> _SQLAssociation {
        _SQLAssociation(
            key: .inflected(destination.tableName), isToMany: false, condition: SQLJoinCondition(impl: .none),
            relation: destination)
    }

    /// An association with an explicit condition.
    static func join<Origin, Destination>(
        origin: String, destination: SQLQuery,
        on condition: @Sendable (TableAlias<Origin>, TableAlias<Destination>) -> any SQLExpressible
    ) -> _SQLAssociation {
        let left = TableAlias<Origin>()
        left.setTableName(origin)
        let right = TableAlias<Destination>()
        right.setTableName(destination.tableName)
        let expression = condition(left, right).sqlExpression
        return _SQLAssociation(
            key: .inflected(destination.tableName), isToMany: false,
            condition: SQLJoinCondition(impl: .expression(left: left, right: right, expression)), relation: destination)
    }
}
