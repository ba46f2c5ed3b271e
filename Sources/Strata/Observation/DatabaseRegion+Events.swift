extension DatabaseRegion {
    /// Whether a change of this kind may modify the region.
    ///
    /// ```swift
    /// let region = try Player.select(Column("score")).databaseRegion(db)
    /// region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["name"])) // false
    /// ```
    public func isModified(byEventsOfKind eventKind: DatabaseEventKind) -> Bool {
        guard let tableRegions else { return true }
        guard let tableRegion = tableRegions[eventKind.tableName.lowercased()] else { return false }
        switch eventKind {
        case .insert, .delete:
            return true
        case .update(_, let columnNames):
            guard let columns = tableRegion.columns else { return true }
            return columnNames.contains { columns.contains($0.lowercased()) }
        }
    }

    /// Whether the changed row belongs to the region. Call it only for events
    /// of a kind that ``isModified(byEventsOfKind:)`` accepts: it does not
    /// check columns.
    public func isModified(by event: DatabaseEvent) -> Bool {
        guard let tableRegions else { return true }
        guard let tableRegion = tableRegions[event.tableName.lowercased()] else { return false }
        guard let rowIDs = tableRegion.rowIDs else { return true }
        return rowIDs.contains(event.rowID)
    }
}
