// SQL generation of `TableDefinition`.

extension TableDefinition {
    /// A `belongsTo` foreign key, once the referenced primary key is known.
    struct ResolvedForeignKey {
        var columns: [(name: String, type: String?)]
        var destinationTable: String
        /// Nil for a hidden rowid primary key.
        var destinationColumns: [String]?
    }

    /// The `CREATE TABLE` statement, and the `CREATE INDEX` statements that follow.
    func sql(_ db: Database) throws -> [String] {
        if options.contains(.strict) {
            try db.requireSQLiteFeature(.strictTables)
        }
        var resolved: [ObjectIdentifier: ResolvedForeignKey] = [:]
        for case .foreignKey(let foreignKey) in columnItems {
            resolved[ObjectIdentifier(foreignKey)] = try resolve(foreignKey, db)
        }

        var items: [String] = []
        var foreignKeyConstraints: [String] = []
        for item in columnItems {
            switch item {
            case .column(let column):
                items.append(
                    try column.sql(db) { table in try referencedColumns(ofTable: table, resolved: resolved, db) })
            case .sql(let sql):
                items.append(sql)
            case .literal(let literal):
                items.append(try db.ddlSQL(literal))
            case .foreignKey(let foreignKey):
                let target = resolved[ObjectIdentifier(foreignKey)]!
                let references = referencesSQL(target, foreignKey)
                for column in target.columns {
                    var chunks = [column.name.quotedDatabaseIdentifier]
                    if let type = column.type, !type.isEmpty { chunks.append(type) }
                    if let conflict = foreignKey.notNullConflictResolution {
                        chunks.append("NOT NULL")
                        chunks += columnConflictClause(conflict)
                    }
                    if target.columns.count == 1 { chunks.append(references) }
                    items.append(chunks.joined(separator: " "))
                }
                if target.columns.count > 1 {
                    let columns = target.columns.map(\.name.quotedDatabaseIdentifier).joined(separator: ", ")
                    foreignKeyConstraints.append("FOREIGN KEY (\(columns)) \(references)")
                }
            }
        }
        // The primary key comes first among table constraints, before
        // foreign keys.
        for constraint in constraints where constraint.isPrimaryKey {
            items.append(try sql(constraint, resolved: resolved, db))
        }
        for constraint in constraints where !constraint.isPrimaryKey {
            items.append(try sql(constraint, resolved: resolved, db))
        }
        items += foreignKeyConstraints

        var sql = "CREATE"
        if options.contains(.temporary) { sql += " TEMPORARY" }
        sql += " TABLE"
        if options.contains(.ifNotExists) { sql += " IF NOT EXISTS" }
        sql += " \(name.quotedDatabaseIdentifier) (\(items.joined(separator: ", ")))"
        var tableOptions: [String] = []
        if options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
        if options.contains(.strict) { tableOptions.append("STRICT") }
        if !tableOptions.isEmpty {
            sql += " " + tableOptions.joined(separator: ", ")
        }

        // Indexes
        let primaryKeyColumns = self.primaryKeyColumns(resolved: resolved).map { $0.lowercased() }
        var statements = [sql]
        for item in columnItems {
            switch item {
            case .column(let column) where column.index != .none:
                statements.append(
                    Database.createIndexSQL(
                        name: Database.automaticIndexName(table: name, columns: [column.name]), table: name,
                        expressions: [column.name.quotedDatabaseIdentifier],
                        unique: column.index == .uniqueIndex, ifNotExists: options.contains(.ifNotExists),
                        condition: nil))
            case .foreignKey(let foreignKey) where foreignKey.isIndexed || foreignKey.isUnique:
                let columns = resolved[ObjectIdentifier(foreignKey)]!.columns.map(\.name)
                let lowercased = columns.map { $0.lowercased() }
                if !foreignKey.isUnique && primaryKeyColumns.starts(with: lowercased) {
                    // The primary key index already serves the foreign key.
                    continue
                }
                statements.append(
                    Database.createIndexSQL(
                        name: Database.automaticIndexName(table: name, columns: columns), table: name,
                        expressions: columns.map(\.quotedDatabaseIdentifier),
                        unique: foreignKey.isUnique, ifNotExists: options.contains(.ifNotExists),
                        condition: nil))
            default:
                break
            }
        }
        return statements
    }

    private func sql(
        _ constraint: Constraint,
        resolved: [ObjectIdentifier: ResolvedForeignKey],
        _ db: Database
    ) throws -> String {
        func conflictClause(_ conflict: Database.ConflictResolution?) -> String {
            conflict.map { " ON CONFLICT \($0.rawValue)" } ?? ""
        }
        func columnList(_ columns: [String]) -> String {
            "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        switch constraint {
        case .primaryKey(let columns, let conflict):
            return "PRIMARY KEY \(columnList(columns))\(conflictClause(conflict))"
        case .primaryKeyItems(let items, let conflict):
            let columns = columnNames(items, resolved: resolved)
            return "PRIMARY KEY \(columnList(columns))\(conflictClause(conflict))"
        case .uniqueKey(let columns, let conflict):
            return "UNIQUE \(columnList(columns))\(conflictClause(conflict))"
        case .foreignKey(
            let columns, let table, let destinationColumns, let deleteAction, let updateAction, let deferred):
            let destinationColumns =
                try destinationColumns ?? referencedColumns(ofTable: table, resolved: resolved, db)
            var sql = "FOREIGN KEY \(columnList(columns)) REFERENCES \(table.quotedDatabaseIdentifier)"
            if let destinationColumns {
                sql += columnList(destinationColumns)
            }
            let clauses = foreignKeyClauses(
                deleteAction: deleteAction, updateAction: updateAction, isDeferred: deferred)
            if !clauses.isEmpty {
                sql += " " + clauses.joined(separator: " ")
            }
            return sql
        case .check(let expression):
            return "CHECK (\(try db.ddlSQL(expression)))"
        case .sql(let sql):
            return sql
        case .literal(let literal):
            return try db.ddlSQL(literal)
        }
    }

    /// The columns of a foreign key to `table` that names none: the primary
    /// key of `table` (of the table being defined for a self reference),
    /// `rowid` when it has no explicit primary key, and nil when the table
    /// does not exist yet.
    private func referencedColumns(
        ofTable table: String,
        resolved: [ObjectIdentifier: ResolvedForeignKey],
        _ db: Database
    ) throws -> [String]? {
        if table.lowercased() == name.lowercased() {
            let columns = primaryKeyColumns(resolved: resolved)
            return columns.isEmpty ? ["rowid"] : columns
        }
        return try db.referencedColumns(ofTable: table)
    }

    private func referencesSQL(_ target: ResolvedForeignKey, _ foreignKey: ForeignKeyDefinition) -> String {
        var sql = "REFERENCES \(target.destinationTable.quotedDatabaseIdentifier)"
        if let destinationColumns = target.destinationColumns {
            sql += "(" + destinationColumns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        let clauses = foreignKeyClauses(
            deleteAction: foreignKey.deleteAction, updateAction: foreignKey.updateAction,
            isDeferred: foreignKey.isDeferred)
        if !clauses.isEmpty {
            sql += " " + clauses.joined(separator: " ")
        }
        return sql
    }

    /// The names of the columns defined by column items (raw SQL items excluded).
    private func columnNames(_ items: [ColumnItem], resolved: [ObjectIdentifier: ResolvedForeignKey]) -> [String] {
        items.flatMap { item -> [String] in
            switch item {
            case .column(let column): return [column.name]
            case .foreignKey(let foreignKey): return resolved[ObjectIdentifier(foreignKey)]?.columns.map(\.name) ?? []
            case .sql, .literal: return []
            }
        }
    }

    /// The primary key columns of the table being defined, with their types.
    private func primaryKeyColumnsWithTypes(
        resolved: [ObjectIdentifier: ResolvedForeignKey]
    ) -> [(name: String, type: String?)] {
        func type(of columnName: String) -> String? {
            for case .column(let column) in columnItems where column.name.lowercased() == columnName.lowercased() {
                return column.type?.rawValue
            }
            for case .foreignKey(let foreignKey) in columnItems {
                if let column = resolved[ObjectIdentifier(foreignKey)]?.columns.first(where: {
                    $0.name.lowercased() == columnName.lowercased()
                }) {
                    return column.type
                }
            }
            return nil
        }
        for case .column(let column) in columnItems where column.primaryKey != nil {
            return [(column.name, column.type?.rawValue)]
        }
        for constraint in constraints {
            switch constraint {
            case .primaryKey(let columns, _):
                return columns.map { ($0, type(of: $0)) }
            case .primaryKeyItems(let items, _):
                return columnNames(items, resolved: resolved).map { ($0, type(of: $0)) }
            default:
                continue
            }
        }
        return []
    }

    private func primaryKeyColumns(resolved: [ObjectIdentifier: ResolvedForeignKey]) -> [String] {
        primaryKeyColumnsWithTypes(resolved: resolved).map(\.name)
    }

    /// The table referenced by `belongsTo(name)` without `inTable:`: the
    /// table named `name` if it exists (or is the one being defined), else
    /// its plural. Throws "no such table" when neither exists.
    private func destinationTable(named name: String, _ db: Database) throws -> String {
        if name.lowercased() == self.name.lowercased() {
            return name
        }
        if try db.tableExists(name) {
            return name
        }
        let plural = Inflections.default.pluralize(name)
        if plural.lowercased() == self.name.lowercased() {
            return plural
        }
        if try db.tableExists(plural) {
            return plural
        }
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(name)")
    }

    /// Finds the primary key referenced by a `belongsTo` foreign key.
    private func resolve(_ foreignKey: ForeignKeyDefinition, _ db: Database) throws -> ResolvedForeignKey {
        let destinationTable = try foreignKey.table ?? destinationTable(named: foreignKey.name, db)
        var destination: [(name: String, type: String?)]
        var isHiddenRowID = false
        if destinationTable.lowercased() == name.lowercased() {
            // Self reference: the primary key of the table being defined.
            destination = primaryKeyColumnsWithTypes(resolved: [:])
            if destination.isEmpty {
                destination = [("rowid", "INTEGER")]
                isHiddenRowID = true
            }
        } else {
            let primaryKey = try db.primaryKey(destinationTable)
            let columns = try db.columns(in: destinationTable)
            if primaryKey.isRowID && primaryKey.rowIDColumn == nil {
                destination = [("rowid", "INTEGER")]
                isHiddenRowID = true
            } else {
                destination = primaryKey.columns.map { name in
                    (name, columns.first { $0.name.lowercased() == name.lowercased() }?.type)
                }
            }
        }
        let columns = destination.map { column -> (name: String, type: String?) in
            let suffix = column.name.lowercased() == "rowid" ? "Id" : column.name.uppercasingFirstCharacter
            return (foreignKey.name + suffix, column.type)
        }
        return ResolvedForeignKey(
            columns: columns,
            destinationTable: destinationTable,
            destinationColumns: isHiddenRowID ? nil : destination.map(\.name))
    }
}

extension String {
    /// "id" → "Id".
    var uppercasingFirstCharacter: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
