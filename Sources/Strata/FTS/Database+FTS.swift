extension Database {
    /// Drops the triggers that kept an FTS4 table, created with
    /// ``FTS4TableDefinition/synchronize(withTable:)``, in sync with its
    /// content table. Call it after dropping the full-text table:
    ///
    /// ```swift
    /// try db.drop(table: "book_ft")
    /// try db.dropFTS4SynchronizationTriggers(forTable: "book_ft")
    /// ```
    public func dropFTS4SynchronizationTriggers(forTable tableName: String) throws {
        try FTSSupport.dropTriggers(self, forTable: tableName, suffixes: ["bu", "bd", "au", "ai"])
    }

    /// Drops the triggers that kept an FTS5 table, created with
    /// ``FTS5TableDefinition/synchronize(withTable:)``, in sync with its
    /// content table. Call it after dropping the full-text table.
    public func dropFTS5SynchronizationTriggers(forTable tableName: String) throws {
        try FTSSupport.dropTriggers(self, forTable: tableName, suffixes: ["ai", "ad", "au"])
    }

    /// Returns a pattern for an FTS5 table, validated by SQLite against the
    /// query syntax and the columns of the table.
    ///
    /// ```swift
    /// try db.makeFTS5Pattern(rawPattern: "sqlite", forTable: "book")
    /// // DatabaseError: no such column: missing
    /// try db.makeFTS5Pattern(rawPattern: "missing: sqlite", forTable: "book")
    /// ```
    public func makeFTS5Pattern(rawPattern: String, forTable table: String) throws -> FTS5Pattern {
        try FTS5Pattern(rawPattern: rawPattern, allowedColumns: columns(in: table).map(\.name))
    }
}
