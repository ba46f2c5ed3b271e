extension SQLQuery {
    /// `DELETE FROM ...` for the rows of the query.
    func deleteSQL(_ context: SQLGenerationContext) throws -> String {
        if selectsRowsThroughSubquery {
            // Delete the rows selected by the full query.
            let sql = try withSQL(context) + "DELETE FROM " + tableName.quotedDatabaseIdentifier
            return try sql + " WHERE " + fastPrimaryKeyInSubquerySQL(context)
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
        if selectsRowsThroughSubquery {
            // The subquery selects the rows: the updated table needs no alias.
            sql += tableName.quotedDatabaseIdentifier + " SET "
            sql += try assignments.map { try $0.sql(context) }.joined(separator: ", ")
            return try sql + " WHERE " + fastPrimaryKeyInSubquerySQL(context)
        }
        sql += try targetSQL() + " SET "
        sql += try assignments.map { try $0.sql(context) }.joined(separator: ", ")
        if let filter = try resolvedFilter(context.db) {
            sql += try " WHERE " + filter.sql(context)
        }
        sql += try orderingAndLimitSQL(context)
        return sql
    }

    /// Whether `DELETE` and `UPDATE` select their rows with a subquery.
    private var selectsRowsThroughSubquery: Bool {
        isDistinct || groups != nil || !havings.isEmpty || !joins.isEmpty
    }

    /// `"id" IN (SELECT "player"."id" FROM ...)`: the rows of the full query,
    /// selected by the fast primary key of the table.
    private func fastPrimaryKeyInSubquerySQL(_ context: SQLGenerationContext) throws -> String {
        let columns = try Self.fastPrimaryKeyColumns(context.db, tableName: tableName)
        var subquery = strippingJoinedSelections()
        subquery.selection = [.value(columns.map { SQLSelection(impl: .expression(Column($0).sqlExpression)) })]
        subquery.ctes = []
        let quoted = columns.map(\.quotedDatabaseIdentifier)
        let lhs = quoted.count == 1 ? quoted[0] : "(" + quoted.joined(separator: ", ") + ")"
        return try lhs + " IN (" + subquery.sql(context) + ")"
    }

    /// The quickest way to identify a row: the INTEGER PRIMARY KEY column,
    /// the primary key of a WITHOUT ROWID table, or the rowid.
    static func fastPrimaryKeyColumns(_ db: Database, tableName: String) throws -> [String] {
        guard try db.tableExists(tableName) else { return ["rowid"] }
        let primaryKey = try db.primaryKey(tableName)
        if let column = primaryKey.rowIDColumn { return [column] }
        if try db.isWithoutRowIDTable(tableName) { return primaryKey.columns }
        return ["rowid"]
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
    /// A view without primary key is ordered by all its columns: `ORDER BY 1, 2, ...`.
    static func primaryKeyOrderings(_ db: Database, tableName: String) throws -> [SQLOrdering] {
        if try db.isViewWithoutPrimaryKey(tableName) {
            let count = try db.columns(in: tableName).count
            return (1...max(count, 1)).map { SQL(sql: String($0)).sqlOrdering }
        }
        return try primaryKeyColumns(db, tableName: tableName).map { Column($0).sqlOrdering }
    }

    /// The primary key columns of a table, or `["rowid"]` (cached schema lookup).
    static func primaryKeyColumns(_ db: Database, tableName: String) throws -> [String] {
        try db.primaryKey(tableName).columns
    }
}
