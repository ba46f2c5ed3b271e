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
    var foreignKey: ForeignKeyConstraint?
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
        primaryKey = PrimaryKeyConstraint(conflictResolution: conflictResolution, autoincrement: autoincrement)
        return self
    }

    /// Adds a NOT NULL constraint.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullConflictResolution = .some(conflictResolution)
        return self
    }

    /// Adds a UNIQUE constraint.
    @discardableResult
    public func unique(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        uniqueConflictResolution = .some(conflictResolution)
        return self
    }

    /// Adds a CHECK constraint built from the column:
    /// `t.column("score", .integer).check { $0 > 0 }`.
    @discardableResult
    public func check(_ condition: (Column) -> any SQLExpressible) -> Self {
        checkConstraints.append(condition(Column(name)).sqlExpression)
        return self
    }

    /// Adds a CHECK constraint from raw SQL: `t.column("score").check(sql: "score > 0")`.
    @discardableResult
    public func check(sql: String) -> Self {
        checkConstraints.append(SQL(sql: sql).sqlExpression)
        return self
    }

    /// Sets the default value: `DEFAULT 'Anonymous'`.
    @discardableResult
    public func defaults(to value: some DatabaseValueConvertible) -> Self {
        defaultValue = .expression(SQLExpression(impl: .databaseValue(value.databaseValue)))
        return self
    }

    /// Sets the default value from raw SQL: `defaults(sql: "CURRENT_TIMESTAMP")`.
    @discardableResult
    public func defaults(sql: String) -> Self {
        defaultValue = .sql(sql)
        return self
    }

    /// Sets the collation of the column.
    @discardableResult
    public func collate(_ collation: Database.CollationName) -> Self {
        collationName = collation.rawValue
        return self
    }

    /// Sets a custom collation of the column.
    @discardableResult
    public func collate(_ collation: DatabaseCollation) -> Self {
        collationName = collation.name
        return self
    }

    /// Makes the column a generated column, computed from an expression (SQLite 3.31+).
    @discardableResult
    public func generatedAs(
        _ expression: some SQLExpressible,
        _ qualification: GeneratedColumnQualification = .virtual
    ) -> Self {
        generatedColumn = (expression.sqlExpression, qualification)
        return self
    }

    /// Makes the column a generated column, computed from raw SQL (SQLite 3.31+).
    @discardableResult
    public func generatedAs(sql: String, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        generatedColumn = (SQL(sql: sql).sqlExpression, qualification)
        return self
    }

    /// Adds a foreign key: `REFERENCES table(column)`. A nil column refers to
    /// the primary key of the table.
    @discardableResult
    public func references(
        _ table: String,
        column: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred isDeferred: Bool = false
    ) -> Self {
        foreignKey = ForeignKeyConstraint(
            table: table, column: column, deleteAction: deleteAction, updateAction: updateAction,
            isDeferred: isDeferred)
        return self
    }

    /// Creates an index on the column, named `index_<table>_on_<column>`,
    /// after the table is created.
    @discardableResult
    public func indexed() -> Self {
        if index == .none { index = .index }
        return self
    }

    /// The column definition SQL: `"name" TEXT NOT NULL DEFAULT 'x'`.
    func sql(_ db: Database) throws -> String {
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
            if let conflictResolution = notNullConflictResolution {
                chunks.append("ON CONFLICT \(conflictResolution.rawValue)")
            }
        }
        if let uniqueConflictResolution {
            chunks.append("UNIQUE")
            if let conflictResolution = uniqueConflictResolution {
                chunks.append("ON CONFLICT \(conflictResolution.rawValue)")
            }
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
        if let foreignKey {
            var reference = "REFERENCES \(foreignKey.table.quotedDatabaseIdentifier)"
            if let column = foreignKey.column {
                reference += "(\(column.quotedDatabaseIdentifier))"
            }
            chunks.append(reference)
            chunks += foreignKeyClauses(
                deleteAction: foreignKey.deleteAction, updateAction: foreignKey.updateAction,
                isDeferred: foreignKey.isDeferred)
        }
        if let generatedColumn {
            try SQLiteLibrary.require("generated columns", 3, 31)
            chunks.append("GENERATED ALWAYS AS (\(try db.ddlSQL(generatedColumn.expression)))")
            switch generatedColumn.qualification {
            case .virtual: chunks.append("VIRTUAL")
            case .stored: chunks.append("STORED")
            }
        }
        return chunks.joined(separator: " ")
    }
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
