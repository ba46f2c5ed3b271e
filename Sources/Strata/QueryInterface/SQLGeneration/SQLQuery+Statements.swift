extension SQLQuery {
    /// `DELETE FROM ...` for the rows of the query.
    func deleteSQL(_ context: SQLGenerationContext) throws -> String {
        if isDistinct || groups != nil || !havings.isEmpty || !joins.isEmpty {
            // Delete the rows selected by the full query.
            var subquery = strippingJoinedSelections()
            subquery.selection = [.value([SQLSelection(impl: .expression(Column.rowID.sqlExpression))])]
            subquery.ctes = []
            let sql = try withSQL(context) + "DELETE FROM " + tableName.quotedDatabaseIdentifier
            return try sql + " WHERE \"rowid\" IN (" + subquery.sql(context) + ")"
        }
        var sql = try withSQL(context) + "DELETE FROM " + targetSQL()
        if let filter = try resolvedFilter(context.db) {
            sql += try " WHERE " + filter.sql(context)
        }
        sql += try orderingAndLimitSQL(context)
        return sql
    }

    /// `UPDATE ... SET ...` for the rows of the query.
    func updateSQL(
        _ context: SQLGenerationContext,
        conflictResolution: Database.ConflictResolution?,
        assignments: [ColumnAssignment]
    ) throws -> String {
        var sql = try withSQL(context) + "UPDATE "
        if let conflictResolution, conflictResolution != .abort {
            sql += "OR " + conflictResolution.rawValue + " "
        }
        sql += try targetSQL() + " SET "
        sql += try assignments.map { try $0.sql(context) }.joined(separator: ", ")
        if isDistinct || groups != nil || !havings.isEmpty || !joins.isEmpty {
            var subquery = strippingJoinedSelections()
            subquery.selection = [.value([SQLSelection(impl: .expression(Column.rowID.sqlExpression))])]
            subquery.ctes = []
            return try sql + " WHERE \"rowid\" IN (" + subquery.sql(context) + ")"
        }
        if let filter = try resolvedFilter(context.db) {
            sql += try " WHERE " + filter.sql(context)
        }
        sql += try orderingAndLimitSQL(context)
        return sql
    }

    /// The table of `DELETE` and `UPDATE` statements: `"table"` or `"table" AS "alias"`.
    private func targetSQL() throws -> String {
        var sql = tableName.quotedDatabaseIdentifier
        if let alias = qualifyingAlias {
            let name = try alias.qualifier()
            if name != tableName {
                sql += " AS " + name.quotedDatabaseIdentifier
            }
        }
        return sql
    }

    private func orderingAndLimitSQL(_ context: SQLGenerationContext) throws -> String {
        guard let limit else { return "" }
        return try orderingSQL(context) + " " + limit.sql
    }

    /// The orderings by primary key of a table: its primary key columns, or
    /// the rowid for tables without an explicit primary key.
    static func primaryKeyOrderings(_ db: Database, tableName: String) throws -> [SQLOrdering] {
        try primaryKeyColumns(db, tableName: tableName).map { Column($0).sqlOrdering }
    }

    /// The primary key columns of a table, or `["rowid"]` (cached schema lookup).
    static func primaryKeyColumns(_ db: Database, tableName: String) throws -> [String] {
        try db.primaryKey(tableName).columns
    }
}
