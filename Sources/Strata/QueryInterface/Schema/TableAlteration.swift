/// The changes of ``Database/alter(table:body:)``:
///
/// ```swift
/// try db.alter(table: "player") { t in
///     t.add(column: "hasBonus", .boolean)
///     t.rename(column: "url", to: "homeURL")
///     t.drop(column: "score")
/// }
/// ```
public final class TableAlteration {
    /// One change, in the order the body asked for it.
    private enum Change {
        case column(ColumnDefinition)
        case columnSQL(String)
        case columnLiteral(SQL)
        case renaming(String, to: String)
        case dropping(String)
    }

    private let tableName: String
    private var changes: [Change] = []

    init(name: String) {
        tableName = name
    }

    /// Adds a column: `ALTER TABLE ... ADD COLUMN ...`.
    @discardableResult
    public func add(column name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let definition = ColumnDefinition(name: name, type: type)
        changes.append(.column(definition))
        return definition
    }

    /// Adds a column defined with raw SQL.
    public func addColumn(sql: String) {
        changes.append(.columnSQL(sql))
    }

    /// Adds a column defined with an SQL literal.
    public func addColumn(literal: SQL) {
        changes.append(.columnLiteral(literal))
    }

    /// Renames a column: `ALTER TABLE ... RENAME COLUMN ... TO ...` (SQLite 3.25+).
    public func rename(column name: String, to newName: String) {
        changes.append(.renaming(name, to: newName))
    }

    /// Drops a column: `ALTER TABLE ... DROP COLUMN ...` (SQLite 3.35+).
    public func drop(column name: String) {
        changes.append(.dropping(name))
    }

    /// The statements of the alteration: the ALTER TABLE statements in order,
    /// then the CREATE INDEX statements of the added indexed columns.
    func sql(_ db: Database) throws -> [String] {
        let alterTable = "ALTER TABLE \(tableName.quotedDatabaseIdentifier)"
        var statements: [String] = []
        var indexStatements: [String] = []
        for change in changes {
            switch change {
            case .column(let definition):
                let columnSQL = try definition.sql(db) { table in try db.referencedColumns(ofTable: table) }
                statements.append("\(alterTable) ADD COLUMN \(columnSQL)")
                if let index = indexSQL(for: definition) {
                    indexStatements.append(index)
                }
            case .columnSQL(let sql):
                statements.append("\(alterTable) ADD COLUMN \(sql)")
            case .columnLiteral(let literal):
                statements.append("\(alterTable) ADD COLUMN \(try db.ddlSQL(literal))")
            case .renaming(let oldName, let newName):
                try db.requireSQLiteFeature(.renameColumn)
                let renamed = "\(oldName.quotedDatabaseIdentifier) TO \(newName.quotedDatabaseIdentifier)"
                statements.append("\(alterTable) RENAME COLUMN \(renamed)")
            case .dropping(let column):
                try db.requireSQLiteFeature(.dropColumn)
                statements.append("\(alterTable) DROP COLUMN \(column.quotedDatabaseIdentifier)")
            }
        }
        return statements + indexStatements
    }

    /// The CREATE INDEX statement of an added column, when it asked for one.
    private func indexSQL(for column: ColumnDefinition) -> String? {
        guard column.index != .none else { return nil }
        return Database.createIndexSQL(
            name: Database.automaticIndexName(table: tableName, columns: [column.name]), table: tableName,
            expressions: [column.name.quotedDatabaseIdentifier],
            unique: column.index == .uniqueIndex, ifNotExists: false, condition: nil)
    }
}
