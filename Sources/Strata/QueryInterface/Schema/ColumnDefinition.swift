/// A column of a table being created or altered, configured with chained
/// methods:
///
/// ```swift
/// try db.create(table: "player") { t in
///     t.column("name", .text).notNull().defaults(to: "Anonymous")
/// }
/// ```
public final class ColumnDefinition {
    /// How a generated column is stored.
    public enum GeneratedColumnQualification: Sendable {
        /// Computed when read (`VIRTUAL`).
        case virtual
        /// Computed when written, and stored (`STORED`).
        case stored
    }

    struct PrimaryKeyConstraint {
        var conflictResolution: Database.ConflictResolution?
        var autoincrement: Bool
    }

    struct ForeignKeyConstraint {
        var table: String
        var column: String?
        var deleteAction: Database.ForeignKeyAction?
        var updateAction: Database.ForeignKeyAction?
        var isDeferred: Bool
    }

    enum DefaultValue {
        case expression(SQLExpression)
        case sql(String)
    }

    enum Index {
        case none
        case index
        case uniqueIndex
    }

    let name: String
    let type: Database.ColumnType?
    var primaryKey: PrimaryKeyConstraint?
    /// `.some(nil)`: NOT NULL without conflict clause.
    var notNullConflictResolution: Database.ConflictResolution??
    var uniqueConflictResolution: Database.ConflictResolution??
    var checkConstraints: [SQLExpression] = []
    var defaultValue: DefaultValue?
    var collationName: String?
    /// The foreign keys, in the order they were declared.
    var foreignKeys: [ForeignKeyConstraint] = []
    var index = Index.none
    var generatedColumn: (expression: SQLExpression, qualification: GeneratedColumnQualification)?

    init(name: String, type: Database.ColumnType?) {
        self.name = name
        self.type = type
    }

    /// Adds a PRIMARY KEY constraint.
    @discardableResult
    public func primaryKey(
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        autoincrement: Bool = false
    ) -> Self {
        configure {
            $0.primaryKey = PrimaryKeyConstraint(conflictResolution: conflictResolution, autoincrement: autoincrement)
        }
    }

    /// Adds a NOT NULL constraint.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        configure { $0.notNullConflictResolution = .some(conflictResolution) }
    }

    /// Adds a UNIQUE constraint.
    @discardableResult
    public func unique(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        configure { $0.uniqueConflictResolution = .some(conflictResolution) }
    }

    /// Adds a CHECK constraint built from the column:
    /// `t.column("score", .integer).check { $0 > 0 }`.
    @discardableResult
    public func check(_ condition: (Column) -> any SQLExpressible) -> Self {
        let expression = condition(Column(name)).sqlExpression
        return configure { $0.checkConstraints.append(expression) }
    }

    /// Adds a CHECK constraint from raw SQL: `t.column("score").check(sql: "score > 0")`.
    @discardableResult
    public func check(sql: String) -> Self {
        configure { $0.checkConstraints.append(SQL(sql: sql).sqlExpression) }
    }

    /// Sets the default value: `DEFAULT 'Anonymous'`.
    @discardableResult
    public func defaults(to value: some DatabaseValueConvertible) -> Self {
        let constant = SQLExpression(impl: .databaseValue(value.databaseValue))
        return configure { $0.defaultValue = .expression(constant) }
    }

    /// Sets the default value from raw SQL: `defaults(sql: "CURRENT_TIMESTAMP")`.
    @discardableResult
    public func defaults(sql: String) -> Self {
        configure { $0.defaultValue = .sql(sql) }
    }

    /// Sets the collation of the column.
    @discardableResult
    public func collate(_ collation: Database.CollationName) -> Self {
        configure { $0.collationName = collation.rawValue }
    }

    /// Sets a custom collation of the column.
    @discardableResult
    public func collate(_ collation: DatabaseCollation) -> Self {
        configure { $0.collationName = collation.name }
    }

    /// Makes the column a generated column, computed from an expression (SQLite 3.31+).
    @discardableResult
    public func generatedAs(
        _ expression: some SQLExpressible,
        _ qualification: GeneratedColumnQualification = .virtual
    ) -> Self {
        let generator = expression.sqlExpression
        return configure { $0.generatedColumn = (generator, qualification) }
    }

    /// Makes the column a generated column, computed from raw SQL (SQLite 3.31+).
    @discardableResult
    public func generatedAs(sql: String, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        generatedAs(SQL(sql: sql), qualification)
    }

    /// Adds a foreign key: `REFERENCES table(column)`. A nil column refers to
    /// the primary key of the table. Each call adds one more foreign key.
    @discardableResult
    public func references(
        _ table: String,
        column: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred isDeferred: Bool = false
    ) -> Self {
        let constraint = ForeignKeyConstraint(
            table: table, column: column, deleteAction: deleteAction, updateAction: updateAction,
            isDeferred: isDeferred)
        return configure { $0.foreignKeys.append(constraint) }
    }

    /// Creates an index on the column, named `<table>_on_<column>`, after
    /// the table is created.
    @discardableResult
    public func indexed() -> Self {
        configure { definition in
            if definition.index == .none { definition.index = .index }
        }
    }

    /// Applies one change to this definition, and returns it for chaining.
    private func configure(_ change: (ColumnDefinition) -> Void) -> Self {
        change(self)
        return self
    }

    /// The column definition SQL: `"name" TEXT NOT NULL DEFAULT 'x'`.
    /// `referencedColumns` gives the columns of a foreign key that names
    /// none (the primary key of the referenced table), or nil to name none.
    func sql(_ db: Database, referencedColumns: (String) throws -> [String]?) throws -> String {
        var chunks = [name.quotedDatabaseIdentifier]
        if let type {
            chunks.append(type.rawValue)
        }
        if let primaryKey {
            chunks.append("PRIMARY KEY")
            if let conflictResolution = primaryKey.conflictResolution {
                chunks.append("ON CONFLICT \(conflictResolution.rawValue)")
            }
            if primaryKey.autoincrement {
                chunks.append("AUTOINCREMENT")
            }
        }
        if let notNullConflictResolution {
            chunks.append("NOT NULL")
            chunks += columnConflictClause(notNullConflictResolution)
        }
        if let uniqueConflictResolution {
            chunks.append("UNIQUE")
            chunks += columnConflictClause(uniqueConflictResolution)
        }
        for check in checkConstraints {
            chunks.append("CHECK (\(try db.ddlSQL(check)))")
        }
        switch defaultValue {
        case .expression(let expression):
            chunks.append("DEFAULT \(try db.ddlSQL(expression))")
        case .sql(let sql):
            chunks.append("DEFAULT \(sql)")
        case nil:
            break
        }
        if let collationName {
            chunks.append("COLLATE \(collationName)")
        }
        for foreignKey in foreignKeys {
            var reference = "REFERENCES \(foreignKey.table.quotedDatabaseIdentifier)"
            if let columns = try foreignKey.column.map({ [$0] }) ?? referencedColumns(foreignKey.table) {
                reference += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            }
            chunks.append(reference)
            chunks += foreignKeyClauses(
                deleteAction: foreignKey.deleteAction, updateAction: foreignKey.updateAction,
                isDeferred: foreignKey.isDeferred)
        }
        if let generatedColumn {
            try db.requireSQLiteFeature(.generatedColumns)
            chunks.append("GENERATED ALWAYS AS (\(try db.ddlSQL(generatedColumn.expression)))")
            switch generatedColumn.qualification {
            case .virtual: chunks.append("VIRTUAL")
            case .stored: chunks.append("STORED")
            }
        }
        return chunks.joined(separator: " ")
    }
}

/// The conflict clause of a NOT NULL or UNIQUE column constraint: none for
/// ABORT, the default.
func columnConflictClause(_ conflictResolution: Database.ConflictResolution?) -> [String] {
    guard let conflictResolution, conflictResolution != .abort else { return [] }
    return ["ON CONFLICT \(conflictResolution.rawValue)"]
}

/// The clauses that follow `REFERENCES`: actions and deferral.
func foreignKeyClauses(
    deleteAction: Database.ForeignKeyAction?,
    updateAction: Database.ForeignKeyAction?,
    isDeferred: Bool
) -> [String] {
    var chunks: [String] = []
    if let deleteAction {
        chunks.append("ON DELETE \(deleteAction.rawValue)")
    }
    if let updateAction {
        chunks.append("ON UPDATE \(updateAction.rawValue)")
    }
    if isDeferred {
        chunks.append("DEFERRABLE INITIALLY DEFERRED")
    }
    return chunks
}
