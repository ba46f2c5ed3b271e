import Foundation

extension Database {
    /// Prints the results of SQL statements, by default to the standard output.
    ///
    /// ```swift
    /// try db.dumpSQL("SELECT type, sql FROM sqlite_schema WHERE tbl_name='player'")
    /// ```
    public func dumpSQL(
        _ sql: SQL,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil
    ) throws {
        var stream = DumpStream(stream)
        var format = format
        let statements = try allStatements(literal: sql)
        // Results of successive statements follow each other.
        while let statement = try statements.next() {
            try dump(statement, format: &format, to: &stream)
        }
    }

    /// Prints the rows of a request, by default to the standard output.
    ///
    /// ```swift
    /// try db.dumpRequest(Player.order(Column("score").desc).limit(3))
    /// ```
    public func dumpRequest(
        _ request: some FetchRequest,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil
    ) throws {
        var stream = DumpStream(stream)
        var format = format
        let preparedRequest = try request.makePreparedRequest(self, forSingleResult: false)
        try dump(preparedRequest.statement, format: &format, to: &stream)
        guard preparedRequest.supplementaryFetch != nil else { return }

        // Prefetched rows (`including(all:)`): after an empty line, the key
        // of the association, then the rows of its query.
        let rows = try Row.fetchAll(preparedRequest.statement, adapter: preparedRequest.adapter)
        var prefetches: [([String], any FetchRequest<Row>)] = []
        let observer = prefetchQueryObserver
        prefetchQueryObserver = { keyPath, request in prefetches.append((keyPath, request)) }
        defer { prefetchQueryObserver = observer }
        _ = try preparedRequest.fetchRows(rows, self)
        prefetchQueryObserver = observer
        var previousKeyPath: [String]? = nil
        for (keyPath, request) in prefetches {
            if keyPath != previousKeyPath {
                stream.margin()
                stream.write(keyPath.joined(separator: ".") + "\n")
                previousKeyPath = keyPath
            }
            // The hidden columns that hold the keys of the origin rows are
            // not printed.
            var dumped: any FetchRequest<Row> = request
            if let request = request as? QueryInterfaceRequest<Row> {
                dumped = request.map { $0.trailingSelection = [] }
            }
            let prefetch = try dumped.makePreparedRequest(self, forSingleResult: false)
            try dump(prefetch.statement, format: &format, to: &stream)
        }
    }

    /// Prints the rows of tables and views, each under its name when there
    /// are several, by default to the standard output. Table rows are sorted
    /// by primary key; with `stableOrder`, view rows are sorted by all their
    /// columns.
    ///
    /// ```swift
    /// try db.dumpTables(["team", "player"])
    /// // team
    /// // 1|Reds
    /// //
    /// // player
    /// // 1|Arthur|1
    /// ```
    public func dumpTables(
        _ tables: [String],
        format: some DumpFormat = .debug(),
        tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false,
        to stream: (any TextOutputStream)? = nil
    ) throws {
        var stream = DumpStream(stream)
        var format = format
        let printsHeader = tableHeader == .always || tables.count > 1
        for table in tables {
            let sql = try dumpTableSQL(table, stableOrder: stableOrder)
            if printsHeader {
                stream.write(table + "\n")
            }
            try dump(makeStatement(sql: sql), format: &format, to: &stream)
            stream.margin()
        }
    }

    /// Prints the schema: the SQL of tables, indexes, triggers and views,
    /// by default to the standard output.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        var stream = DumpStream(stream)
        try dumpSchema(to: &stream)
    }

    /// Prints the schema, then the rows of all tables sorted by primary key,
    /// by default to the standard output.
    public func dumpContent(
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil
    ) throws {
        var stream = DumpStream(stream)
        var format = format
        try dumpSchema(to: &stream)
        let hidden = try hiddenDumpTables()
        let tables = try String.fetchAll(
            self,
            sql: """
                SELECT name FROM sqlite_master
                WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                ORDER BY name COLLATE NOCASE
                """
        ).filter { !hidden.contains($0.lowercased()) }
        for table in tables {
            stream.margin()
            stream.write(table + "\n")
            try dump(makeStatement(sql: dumpTableSQL(table, stableOrder: true)), format: &format, to: &stream)
        }
    }

    // MARK: - Helpers

    private func dumpSchema(to stream: inout DumpStream) throws {
        stream.write("sqlite_master\n")
        let hidden = try hiddenDumpTables()
        let rows = try Row.fetchAll(
            self,
            sql: """
                SELECT sql || ';', tbl_name FROM sqlite_master
                WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                ORDER BY tbl_name COLLATE NOCASE,
                  CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'trigger' THEN 2 ELSE 3 END,
                  name COLLATE NOCASE
                """)
        for row in rows {
            let table: String = row[1]
            if hidden.contains(table.lowercased()) { continue }
            stream.write((row[0] as String) + "\n")
        }
    }

    /// The lowercased names of the tables that dumps leave out: Strata's own
    /// `grdb_` tables, and the shadow tables of virtual tables (those of
    /// full-text tables), which `PRAGMA table_list` reports.
    private func hiddenDumpTables() throws -> Set<String> {
        var hidden = Set<String>()
        for row in try Row.fetchAll(self, sql: "PRAGMA main.table_list") {
            let name: String = row["name"]
            let type: String = row["type"]
            if type == "shadow" || name.lowercased().hasPrefix("grdb_") {
                hidden.insert(name.lowercased())
            }
        }
        return hidden
    }

    /// `SELECT * FROM table ORDER BY ...`, or an error for an unknown table.
    private func dumpTableSQL(_ table: String, stableOrder: Bool) throws -> String {
        let quotedTable = table.quotedDatabaseIdentifier
        if try tableExists(table) {
            let primaryKey = try self.primaryKey(table)
            let orderings = primaryKey.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            return "SELECT * FROM \(quotedTable) ORDER BY \(orderings)"
        }
        if try viewExists(table) {
            guard stableOrder else { return "SELECT * FROM \(quotedTable)" }
            let count = try makeStatement(sql: "SELECT * FROM \(quotedTable)").columnCount
            let orderings = (1...max(count, 1)).map(String.init).joined(separator: ", ")
            return "SELECT * FROM \(quotedTable) ORDER BY \(orderings)"
        }
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
    }

    /// Steps the statement and writes its rows.
    private func dump(_ statement: Statement, format: inout some DumpFormat, to stream: inout DumpStream) throws {
        try statement.prepareExecution()
        while true {
            switch sqlite3_step(statement.sqliteStatement) {
            case SQLITE_ROW:
                try format.writeRow(self, statement: statement, to: &stream)
            case SQLITE_DONE:
                statement.didFinishStepping()
                if statement.columnCount > 0 {
                    format.finalize(self, statement: statement, to: &stream)
                }
                return
            case let code:
                try statement.didFailStepping(code)
            }
        }
    }
}
