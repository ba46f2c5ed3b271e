/// The definition of a table, given to the body of
/// ``Database/create(table:options:body:)``:
///
/// ```swift
/// try db.create(table: "player") { t in
///     t.autoIncrementedPrimaryKey("id")
///     t.column("name", .text).notNull()
///     t.belongsTo("team", onDelete: .cascade)
/// }
/// ```
public final class TableDefinition {
    enum ColumnItem {
        case column(ColumnDefinition)
        case sql(String)
        case literal(SQL)
        case foreignKey(ForeignKeyDefinition)
    }

    enum Constraint {
        case primaryKey([String], Database.ConflictResolution?)
        /// The columns and foreign keys defined in a primary key body.
        case primaryKeyItems([ColumnItem], Database.ConflictResolution?)
        case uniqueKey([String], Database.ConflictResolution?)
        case foreignKey(
            columns: [String], table: String, destinationColumns: [String]?,
            deleteAction: Database.ForeignKeyAction?, updateAction: Database.ForeignKeyAction?,
            isDeferred: Bool)
        case check(SQLExpression)
        case sql(String)
        case literal(SQL)

        /// Whether this is the `PRIMARY KEY (...)` constraint.
        var isPrimaryKey: Bool {
            switch self {
            case .primaryKey, .primaryKeyItems: return true
            default: return false
            }
        }
    }

    let name: String
    let options: TableOptions
    var columnItems: [ColumnItem] = []
    var constraints: [Constraint] = []
    /// Non-nil while the body of ``primaryKey(onConflict:body:)`` runs.
    var primaryKeyBodyItems: [ColumnItem]?

    init(name: String, options: TableOptions) {
        self.name = name
        self.options = options
    }

    private func append(_ item: ColumnItem) {
        columnItems.append(item)
        primaryKeyBodyItems?.append(item)
    }

    /// Adds a column, with an optional type: `t.column("name", .text)`.
    @discardableResult
    public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        append(.column(column))
        return column
    }

    /// Adds a column defined with raw SQL: `t.column(sql: "name TEXT")`.
    public func column(sql: String) {
        append(.sql(sql))
    }

    /// Adds a column defined with an SQL literal, whose values are written as SQL literals.
    public func column(literal: SQL) {
        append(.literal(literal))
    }

    /// Adds an `INTEGER PRIMARY KEY AUTOINCREMENT` column: ids are never reused.
    @discardableResult
    public func autoIncrementedPrimaryKey(
        _ name: String,
        onConflict conflictResolution: Database.ConflictResolution? = nil
    ) -> ColumnDefinition {
        column(name, .integer).primaryKey(onConflict: conflictResolution, autoincrement: true)
    }

    /// Adds a primary key column. Columns that are not INTEGER are also NOT NULL.
    @discardableResult
    public func primaryKey(
        _ name: String,
        _ type: Database.ColumnType,
        onConflict conflictResolution: Database.ConflictResolution? = nil
    ) -> ColumnDefinition {
        let column = column(name, type).primaryKey(onConflict: conflictResolution)
        if type != .integer {
            column.notNull()
        }
        return column
    }

    /// Adds a `PRIMARY KEY (...)` table constraint on existing columns.
    public func primaryKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        constraints.append(.primaryKey(columns, conflictResolution))
    }

    /// Defines a composite primary key made of the columns and foreign keys
    /// defined in `body`, which are NOT NULL:
    ///
    /// ```swift
    /// t.primaryKey {
    ///     t.belongsTo("player")
    ///     t.column("position", .integer)
    /// }
    /// ```
    public func primaryKey(
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        body: () throws -> Void
    ) rethrows {
        primaryKeyBodyItems = []
        defer { primaryKeyBodyItems = nil }
        try body()
        let items = primaryKeyBodyItems ?? []
        for item in items {
            switch item {
            case .column(let column): column.notNull()
            case .foreignKey(let foreignKey): foreignKey.notNull()
            case .sql, .literal: break
            }
        }
        constraints.append(.primaryKeyItems(items, conflictResolution))
    }

    /// Adds a `UNIQUE (...)` table constraint.
    public func uniqueKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        constraints.append(.uniqueKey(columns, conflictResolution))
    }

    /// Adds a `FOREIGN KEY (...) REFERENCES ...` table constraint. Nil
    /// destination columns refer to the primary key of the referenced table.
    public func foreignKey(
        _ columns: [String],
        references table: String,
        columns destinationColumns: [String]? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred isDeferred: Bool = false
    ) {
        constraints.append(
            .foreignKey(
                columns: columns, table: table, destinationColumns: destinationColumns,
                deleteAction: deleteAction, updateAction: updateAction, isDeferred: isDeferred))
    }

    /// Adds a foreign key to the primary key of another table, or of this
    /// one. `t.belongsTo("team")` creates the `teamId` column (named and
    /// typed after the primary key of `team`), and an index on it.
    @discardableResult
    public func belongsTo(
        _ name: String,
        inTable table: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred isDeferred: Bool = false,
        indexed: Bool = true
    ) -> ForeignKeyDefinition {
        let foreignKey = ForeignKeyDefinition(
            name: name, table: table, deleteAction: deleteAction, updateAction: updateAction,
            isDeferred: isDeferred, isIndexed: indexed)
        append(.foreignKey(foreignKey))
        return foreignKey
    }

    /// Adds a `CHECK (...)` table constraint.
    public func check(_ condition: some SQLExpressible) {
        constraints.append(.check(condition.sqlExpression))
    }

    /// Adds a `CHECK (...)` table constraint.
    public func check(_ condition: some SQLSpecificExpressible) {
        constraints.append(.check(condition.sqlExpression))
    }

    /// Adds a `CHECK (...)` table constraint from raw SQL.
    public func check(sql: String) {
        constraints.append(.check(SQL(sql: sql).sqlExpression))
    }

    /// Adds a table constraint written in raw SQL: `t.constraint(sql: "CHECK (a + b < 10)")`.
    public func constraint(sql: String) {
        constraints.append(.sql(sql))
    }

    /// Adds a table constraint from an SQL literal.
    public func constraint(literal: SQL) {
        constraints.append(.literal(literal))
    }
}
