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
    enum Alteration {
        case add(ColumnDefinition)
        case addSQL(String)
        case addLiteral(SQL)
        case rename(old: String, new: String)
        case drop(String)
    }

    let name: String
    var alterations: [Alteration] = []

    init(name: String) {
        self.name = name
    }

    /// Adds a column: `ALTER TABLE ... ADD COLUMN ...`.
    @discardableResult
    public func add(column name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        alterations.append(.add(column))
        return column
    }

    /// Adds a column defined with raw SQL.
    public func addColumn(sql: String) {
        alterations.append(.addSQL(sql))
    }

    /// Adds a column defined with an SQL literal.
    public func addColumn(literal: SQL) {
        alterations.append(.addLiteral(literal))
    }

    /// Renames a column: `ALTER TABLE ... RENAME COLUMN ... TO ...` (SQLite 3.25+).
    public func rename(column name: String, to newName: String) {
        alterations.append(.rename(old: name, new: newName))
    }

    /// Drops a column: `ALTER TABLE ... DROP COLUMN ...` (SQLite 3.35+).
    public func drop(column name: String) {
        alterations.append(.drop(name))
    }

    /// The statements of the alteration.
    func sql(_ db: Database) throws -> [String] {
        let prefix = "ALTER TABLE \(name.quotedDatabaseIdentifier)"
        var statements: [String] = []
        var indexStatements: [String] = []
        for alteration in alterations {
            switch alteration {
            case .add(let column):
                statements.append("\(prefix) ADD COLUMN \(try column.sql(db))")
                if column.index != .none {
                    indexStatements.append(
                        Database.createIndexSQL(
                            name: Database.defaultIndexName(table: name, columns: [column.name]), table: name,
                            expressions: [column.name.quotedDatabaseIdentifier],
                            unique: column.index == .uniqueIndex, ifNotExists: false, condition: nil))
                }
            case .addSQL(let sql):
                statements.append("\(prefix) ADD COLUMN \(sql)")
            case .addLiteral(let literal):
                statements.append("\(prefix) ADD COLUMN \(try db.ddlSQL(literal))")
            case .rename(let old, let new):
                try SQLiteLibrary.require("RENAME COLUMN", 3, 25)
                statements.append(
                    "\(prefix) RENAME COLUMN \(old.quotedDatabaseIdentifier) TO \(new.quotedDatabaseIdentifier)")
            case .drop(let column):
                try SQLiteLibrary.require("DROP COLUMN", 3, 35)
                statements.append("\(prefix) DROP COLUMN \(column.quotedDatabaseIdentifier)")
            }
        }
        return statements + indexStatements
    }
}
