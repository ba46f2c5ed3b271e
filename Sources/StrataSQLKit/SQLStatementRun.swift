#if SQLKit
    import Strata

    /// One statement of SQLKit, on the connection that runs it.
    struct SQLStatementRun: Sendable {
        let sql: String
        let arguments: StatementArguments
        let decoder: StrataSQLDataDecoder

        /// Whether the statement may only read, from its first keyword: a
        /// reader prepares it, and hands it to the writer unless SQLite
        /// says it is read-only.
        var mayRead: Bool {
            let keyword = sql.drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "(" }.prefix(6).uppercased()
            return keyword.hasPrefix("SELECT") || keyword.hasPrefix("WITH") || keyword.hasPrefix("VALUES")
        }

        func rows(_ db: Database) throws -> [StrataSQLRow] {
            try rows(of: db.cachedStatement(sql: sql))
        }

        /// The rows, or nil when the statement would write.
        func rowsIfReadOnly(_ db: Database) throws -> [StrataSQLRow]? {
            let statement = try db.cachedStatement(sql: sql)
            guard statement.isReadonly else { return nil }
            return try rows(of: statement)
        }

        private func rows(of statement: Statement) throws -> [StrataSQLRow] {
            let columns = StrataSQLRow.Columns(statement.columnNames)
            var rows: [StrataSQLRow] = []
            let cursor = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try cursor.next() {
                rows.append(StrataSQLRow(columns: columns, values: Array(row.databaseValues), decoder: decoder))
            }
            return rows
        }
    }
#endif
