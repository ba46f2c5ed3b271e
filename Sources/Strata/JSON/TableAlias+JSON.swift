extension TableAliasBase {
    /// The JSON expression, where columns refer to the aliased table.
    public subscript(expression: some SQLJSONExpressible) -> AnySQLJSONExpressible {
        AnySQLJSONExpressible(sqlExpression: expression.sqlExpression.qualified(with: self))
    }
}

extension TableAlias where RowDecoder: TableRecord {
    /// A JSON column of the record type, qualified by the alias.
    public subscript<T>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>) -> AnySQLJSONExpressible
    where T: SQLJSONExpressible {
        self[RowDecoder.databaseComponents[keyPath: keyPath]]
    }
}
