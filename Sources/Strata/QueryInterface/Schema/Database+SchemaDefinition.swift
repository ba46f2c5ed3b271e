// Schema definition: tables, indexes, views.

extension Database {
    // MARK: - Tables

    /// Creates a table:
    ///
    /// ```swift
    /// // CREATE TABLE "place" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT)
    /// try db.create(table: "place") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.column("title", .text)
    /// }
    /// ```
    public func create(
        table name: String,
        options: TableOptions = [],
        body: (TableDefinition) throws -> Void
    ) throws {
        let definition = TableDefinition(name: name, options: options)
        try body(definition)
        try executeSchemaStatements(definition.sql(self))
    }

    /// Creates a table (legacy spelling of ``create(table:options:body:)``).
    public func create(
        table name: String,
        temporary: Bool = false,
        ifNotExists: Bool = false,
        withoutRowID: Bool = false,
        body: (TableDefinition) throws -> Void
    ) throws {
        var options: TableOptions = []
        if temporary { options.insert(.temporary) }
        if ifNotExists { options.insert(.ifNotExists) }
        if withoutRowID { options.insert(.withoutRowID) }
        try create(table: name, options: options, body: body)
    }

    /// Renames a table: `ALTER TABLE ... RENAME TO ...`.
    public func rename(table name: String, to newName: String) throws {
        try execute(sql: "ALTER TABLE \(name.quotedDatabaseIdentifier) RENAME TO \(newName.quotedDatabaseIdentifier)")
    }

    /// Modifies a table: adds, renames, or drops columns.
    public func alter(table name: String, body: (TableAlteration) -> Void) throws {
        let alteration = TableAlteration(name: name)
        body(alteration)
        try executeSchemaStatements(alteration.sql(self))
    }

    /// Drops a table: `DROP TABLE ...`.
    public func drop(table name: String) throws {
        try execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
    }

    // MARK: - Views

    /// Creates a view from a request:
    ///
    /// ```swift
    /// try db.create(view: "captain", as: SQLRequest(sql: "SELECT * FROM player WHERE isCaptain"))
    /// ```
    ///
    /// Values of the request are written as SQL literals.
    public func create(
        view name: String,
        options: ViewOptions = [],
        columns: [String]? = nil,
        as request: any SQLSubqueryable
    ) throws {
        let subquery = request.sqlSubquery
        let selectSQL = try ddlSQL { try subquery.sql($0) }
        try execute(sql: createViewSQL(name: name, options: options, columns: columns) + selectSQL)
    }

    /// Creates a view from an SQL literal, whose values are written as SQL literals.
    public func create(
        view name: String,
        options: ViewOptions = [],
        columns: [String]? = nil,
        asLiteral sqlLiteral: SQL
    ) throws {
        let selectSQL = try ddlSQL(sqlLiteral)
        try execute(sql: createViewSQL(name: name, options: options, columns: columns) + selectSQL)
    }

    /// Drops a view: `DROP VIEW ...`.
    public func drop(view name: String) throws {
        try execute(sql: "DROP VIEW \(name.quotedDatabaseIdentifier)")
    }

    private func createViewSQL(name: String, options: ViewOptions, columns: [String]?) -> String {
        var sql = "CREATE"
        if options.contains(.temporary) { sql += " TEMPORARY" }
        sql += " VIEW"
        if options.contains(.ifNotExists) { sql += " IF NOT EXISTS" }
        sql += " \(name.quotedDatabaseIdentifier)"
        if let columns {
            sql += " (" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        return sql + " AS "
    }

    // MARK: - Indexes

    /// Creates an index:
    ///
    /// ```swift
    /// // CREATE UNIQUE INDEX "byEmail" ON "player"("email")
    /// try db.create(index: "byEmail", on: "player", columns: ["email"], options: .unique)
    /// ```
    ///
    /// A `condition` makes a partial index (`WHERE ...`).
    public func create(
        index name: String,
        on table: String,
        columns: [String],
        options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil
    ) throws {
        try create(
            index: name, on: table, indexedSQL: columns.map(\.quotedDatabaseIdentifier), options: options,
            condition: condition)
    }

    /// Creates an index (legacy spelling of ``create(index:on:columns:options:condition:)``).
    public func create(
        index name: String,
        on table: String,
        columns: [String],
        unique: Bool = false,
        ifNotExists: Bool = false,
        condition: (any SQLExpressible)? = nil
    ) throws {
        var options: IndexOptions = []
        if unique { options.insert(.unique) }
        if ifNotExists { options.insert(.ifNotExists) }
        try create(index: name, on: table, columns: columns, options: options, condition: condition)
    }

    /// Creates an index on expressions, such as `Column("score") + Column("bonus")`.
    public func create(
        index name: String,
        on table: String,
        expressions: [any SQLExpressible],
        options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil
    ) throws {
        let indexedSQL = try expressions.map { try ddlSQL($0.sqlExpression) }
        try create(index: name, on: table, indexedSQL: indexedSQL, options: options, condition: condition)
    }

    /// Creates an index named `index_<table>_on_<columns>`:
    ///
    /// ```swift
    /// // CREATE INDEX "index_player_on_email" ON "player"("email")
    /// try db.create(indexOn: "player", columns: ["email"])
    /// ```
    public func create(
        indexOn table: String,
        columns: [String],
        options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil
    ) throws {
        try create(
            index: Database.defaultIndexName(table: table, columns: columns), on: table, columns: columns,
            options: options, condition: condition)
    }

    /// Drops an index: `DROP INDEX ...`.
    public func drop(index name: String) throws {
        try execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
    }

    /// Drops the index on exactly these columns of the table, whatever its
    /// name (names are case-insensitive). Does nothing when there is no such
    /// index; throws when the table does not exist.
    ///
    /// - Complexity: Reads the indexes of the table, then runs `DROP INDEX` if one matches.
    public func drop(indexOn table: String, columns: [String]) throws {
        let wanted = columns.map { $0.lowercased() }
        let matches = try indexes(on: table).filter { index in
            index.origin == .createIndex && index.columns.map { $0.lowercased() } == wanted
        }
        // Among several indexes on these columns, the one of create(indexOn:) first.
        let defaultName = Database.defaultIndexName(table: table, columns: columns).lowercased()
        if let index = matches.first(where: { $0.name.lowercased() == defaultName }) ?? matches.first {
            try drop(index: index.name)
        }
    }

    private func create(
        index name: String,
        on table: String,
        indexedSQL: [String],
        options: IndexOptions,
        condition: (any SQLExpressible)?
    ) throws {
        let conditionSQL = try condition.map { try ddlSQL($0.sqlExpression) }
        try execute(
            sql: Database.createIndexSQL(
                name: name, table: table, expressions: indexedSQL, unique: options.contains(.unique),
                ifNotExists: options.contains(.ifNotExists), condition: conditionSQL))
    }

    // MARK: - Helpers

    /// `index_<table>_on_<column1>_<column2>`.
    static func defaultIndexName(table: String, columns: [String]) -> String {
        "index_\(table)_on_\(columns.joined(separator: "_"))"
    }

    /// `<table>_on_<column1>_<column2>`: the name of the indexes that a table
    /// definition creates by itself (`indexed()`, single-column `belongsTo`).
    /// Composite foreign keys keep the name of ``create(indexOn:columns:options:condition:)``.
    static func automaticIndexName(table: String, columns: [String]) -> String {
        if columns.count == 1 {
            return "\(table)_on_\(columns[0])"
        }
        return defaultIndexName(table: table, columns: columns)
    }

    /// `CREATE [UNIQUE] INDEX [IF NOT EXISTS] "name" ON "table"(expressions) [WHERE condition]`.
    static func createIndexSQL(
        name: String,
        table: String,
        expressions: [String],
        unique: Bool,
        ifNotExists: Bool,
        condition: String?
    ) -> String {
        var sql = "CREATE"
        if unique { sql += " UNIQUE" }
        sql += " INDEX"
        if ifNotExists { sql += " IF NOT EXISTS" }
        sql += " \(name.quotedDatabaseIdentifier) ON \(table.quotedDatabaseIdentifier)"
        sql += "(" + expressions.joined(separator: ", ") + ")"
        if let condition {
            sql += " WHERE \(condition)"
        }
        return sql
    }

    /// Runs schema statements one after the other, as they come: outside
    /// of a transaction, a failure leaves the earlier ones applied.
    func executeSchemaStatements(_ statements: [String]) throws {
        for statement in statements {
            try execute(sql: statement)
        }
    }
}
