import Foundation
import Strata

/// The player of the tests as a subclass of `Record`, on the same `player`
/// table as ``Player`` (id, name, score): for the tests of what only the
/// Record class does (`hasDatabaseChanges`, `updateChanges(_:)` without a
/// reference record, overridable callbacks).
package class RecordPlayer: Record {
    package var id: Int64?
    package var name: String
    package var score: Int

    package init(id: Int64? = nil, name: String, score: Int) {
        (self.id, self.name, self.score) = (id, name, score)
        super.init()
    }

    /// The `player` table.
    override package class var databaseTableName: String { "player" }

    /// The columns of the `player` table.
    package enum Columns: String, ColumnExpression {
        case id, name, score
    }

    /// Reads the id, name and score columns.
    package required init(row: Row) throws {
        id = row[Columns.id]
        name = row[Columns.name]
        score = row[Columns.score]
        try super.init(row: row)
    }

    /// Writes the id, name and score columns.
    override package func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        container[Columns.name] = name
        container[Columns.score] = score
    }

    /// Keeps the id the database assigned.
    override package func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        id = inserted.rowID
    }
}
