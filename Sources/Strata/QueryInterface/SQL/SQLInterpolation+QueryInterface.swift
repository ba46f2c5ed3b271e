extension SQLInterpolation {
    /// Appends the quoted table name of a record type: `\(Player.self)` gives `"player"`.
    public mutating func appendInterpolation(_ table: (some TableRecord).Type) {
        appendLiteral(table.databaseTableName.quotedDatabaseIdentifier)
    }

    /// Appends the quoted table name of a record type.
    public mutating func appendInterpolation(_ table: any TableRecord.Type) {
        appendLiteral(table.databaseTableName.quotedDatabaseIdentifier)
    }

    /// Appends the quoted table name of a record: `\(tableOf: player)` gives `"player"`.
    public mutating func appendInterpolation(tableOf record: some TableRecord) {
        appendLiteral(type(of: record).databaseTableName.quotedDatabaseIdentifier)
    }

    /// Appends the quoted table name of a record.
    public mutating func appendInterpolation(tableOf record: any TableRecord) {
        appendLiteral(type(of: record).databaseTableName.quotedDatabaseIdentifier)
    }

    /// Appends the quoted name of a table: `\(Table("player"))` gives `"player"`.
    public mutating func appendInterpolation<T>(_ table: Table<T>) {
        appendLiteral(table.tableName.quotedDatabaseIdentifier)
    }

    /// Appends the quoted name of a common table expression.
    public mutating func appendInterpolation(_ cte: CommonTableExpression<some Any>) {
        appendLiteral(cte.tableName.quotedDatabaseIdentifier)
    }

    /// Appends the definition of a common table expression, for a `WITH` clause:
    /// `"name"("a", "b") AS (SELECT ...)`.
    public mutating func appendInterpolation(definitionFor cte: CommonTableExpression<some Any>) {
        var prefix = cte.tableName.quotedDatabaseIdentifier
        if let columns = cte.cte.columns, !columns.isEmpty {
            prefix += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        appendLiteral(prefix + " AS (")
        elements.append(.subquery(cte.cte.subquery))
        appendLiteral(")")
    }

    /// Appends the columns selected by a record type, qualified by the table
    /// name or the alias: `\(columnsOf: Player.self)` gives `"player".*`.
    public mutating func appendInterpolation(columnsOf recordType: (some TableRecord).Type, tableAlias: String? = nil) {
        let alias = TableAliasBase(name: tableAlias, tableName: recordType.databaseTableName)
        for (index, selectable) in recordType.databaseSelection.enumerated() {
            if index > 0 { appendLiteral(", ") }
            elements.append(.selection(alias.qualifiedSelection(selectable.sqlSelection)))
        }
    }
}

extension ColumnExpression where Self == Column {
    /// The hidden `rowid` column.
    public static var rowID: Column { Column("rowid") }
}
