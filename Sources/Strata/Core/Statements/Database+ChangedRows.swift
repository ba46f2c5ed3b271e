// The number of rows a statement changed, views included: SQLite's
// `changes()` ignores the changes of INSTEAD OF triggers, so statements on
// views are measured with the difference of `total_changes()`. Tables are
// measured with `changes()` only: other writes of the statement (an FTS5
// table flushing its shadow tables) also move `total_changes()`.

extension Database {
    /// Runs `body`, which runs one INSERT, UPDATE or DELETE statement on
    /// `tableName`, and returns the number of rows it changed, counting the
    /// rows changed by the INSTEAD OF triggers when `tableName` is a view.
    func changedRowCount(of tableName: String, _ body: () throws -> Void) throws -> Int {
        let totalBefore = totalChangesCount
        try body()
        let changes = changesCount
        if changes > 0 { return changes }
        // Without changed rows, no row trigger of a table ran, but other
        // writes may have: only the triggers of a view count.
        let otherChanges = totalChangesCount - totalBefore
        if otherChanges == 0 { return 0 }
        guard let view = try firstSchemaID(containing: tableName, types: ["table", "view"], in: nil),
            try isView(view)
        else { return 0 }
        return otherChanges
    }
}
