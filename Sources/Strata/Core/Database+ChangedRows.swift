// The number of rows a statement changed, views included: SQLite's
// `changes()` ignores the changes of INSTEAD OF triggers, so statements on
// views are measured with the difference of `total_changes()`.

extension Database {
    /// Runs `body`, which runs one INSERT, UPDATE or DELETE statement, and
    /// returns the number of rows it changed, counting the rows changed by
    /// the INSTEAD OF triggers of a view.
    func changedRowCount(_ body: () throws -> Void) throws -> Int {
        let totalBefore = totalChangesCount
        try body()
        let changes = changesCount
        // Without changed rows, no row trigger ran: the difference is zero
        // for tables, and the changes of the triggers for views.
        return changes > 0 ? changes : totalChangesCount - totalBefore
    }
}
