extension ColumnExpression {
    /// A full-text match on the column: `"content" MATCH ?`. A nil pattern
    /// matches nothing.
    ///
    /// ```swift
    /// let pattern = FTS3Pattern(matchingAllTokensIn: "SQLite database")
    /// let documents = try Document.filter(Column("content").match(pattern)).fetchAll(db)
    /// ```
    public func match(_ pattern: FTS3Pattern?) -> SQLExpression {
        SQLExpression(impl: .binary("MATCH", sqlExpression, pattern?.sqlExpression ?? .null))
    }

    /// A full-text match on the column of an FTS5 table: `"content" MATCH ?`.
    public func match(_ pattern: FTS5Pattern) -> SQLExpression {
        SQLExpression(impl: .binary("MATCH", sqlExpression, pattern.sqlExpression))
    }
}

extension TableRequest where Self: FilteredRequest {
    /// Returns a request filtered by a full-text match on all the columns of
    /// an FTS3 or FTS4 table: `WHERE "document" MATCH ?`. A nil pattern
    /// matches nothing.
    public func matching(_ pattern: FTS3Pattern?) -> Self {
        guard let pattern else { return none() }
        return filter(Self.tableMatch(databaseTableName, pattern.sqlExpression))
    }

    /// Returns a request filtered by a full-text match on all the columns of
    /// an FTS5 table: `WHERE "document" MATCH ?`. A nil pattern matches
    /// nothing.
    public func matching(_ pattern: FTS5Pattern?) -> Self {
        guard let pattern else { return none() }
        return filter(Self.tableMatch(databaseTableName, pattern.sqlExpression))
    }

    /// `"table" MATCH pattern`. The table name is never qualified, even
    /// when the request is a joined association.
    private static func tableMatch(_ tableName: String, _ pattern: SQLExpression) -> SQLExpression {
        SQLExpression(impl: .binary("MATCH", .unqualifiedIdentifier(tableName), pattern))
    }
}

extension TableRecord {
    /// Returns a request of the records that match a full-text pattern, on
    /// an FTS3 or FTS4 table. A nil pattern matches nothing.
    public static func matching(_ pattern: FTS3Pattern?) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }

    /// Returns a request of the records that match a full-text pattern, on
    /// an FTS5 table. A nil pattern matches nothing.
    public static func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }
}

extension Table {
    /// Returns a request of the rows that match a full-text pattern, on an
    /// FTS3 or FTS4 table. A nil pattern matches nothing.
    public func matching(_ pattern: FTS3Pattern?) -> QueryInterfaceRequest<RowDecoder> {
        all().matching(pattern)
    }

    /// Returns a request of the rows that match a full-text pattern, on an
    /// FTS5 table. A nil pattern matches nothing.
    public func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<RowDecoder> {
        all().matching(pattern)
    }
}
