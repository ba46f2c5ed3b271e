// DELETE ... RETURNING and UPDATE ... RETURNING for the rows of a request.
//
// Note: SQLite does not run RETURNING reliably with INSTEAD OF triggers (views).

extension QueryInterfaceRequest {
    /// A statement that deletes the rows of the request and returns the
    /// selection of each deleted row: `DELETE ... RETURNING ...`.
    ///
    /// ```swift
    /// let statement = try Player.filter { $0.score < 100 }
    ///     .deleteAndFetchStatement(db, selection: [Column("name")])
    /// let names = try String.fetchAll(statement)
    /// ```
    ///
    /// - Complexity: Generates and compiles the SQL at each call (the statement is not cached); the
    ///   statement runs when it is fetched from.
    public func deleteAndFetchStatement(_ db: Database, selection: [any SQLSelectable]) throws -> Statement {
        let context = SQLGenerationContext(db)
        let sql =
            try query.deleteSQL(context)
            + PersistenceSQL.returning(selection, tableName: databaseTableName, context: context)
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return statement
    }

    /// A statement that updates the rows of the request and returns the
    /// selection of each updated row: `UPDATE ... RETURNING ...`.
    ///
    /// ```swift
    /// let statement = try Player.all()
    ///     .updateAndFetchStatement(db, [Column("score") += 10], selection: [Column("score")])
    /// let scores = try Int.fetchAll(statement)
    /// ```
    ///
    /// - Complexity: Generates and compiles the SQL at each call (the statement is not cached); the
    ///   statement runs when it is fetched from.
    public func updateAndFetchStatement(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment],
        selection: [any SQLSelectable]
    ) throws -> Statement {
        if assignments.isEmpty {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "updateAndFetch needs at least one column assignment")
        }
        let context = SQLGenerationContext(db)
        let sql =
            try query.updateSQL(context, conflictResolution: conflictResolution, assignments: assignments)
            + PersistenceSQL.returning(selection, tableName: databaseTableName, context: context)
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return statement
    }
}

extension QueryInterfaceRequest {
    /// A statement that deletes the rows of the request and returns the
    /// selection, built from the record columns, of each deleted row.
    public func deleteAndFetchStatement(
        _ db: Database,
        select: (DatabaseComponents) throws -> [any SQLSelectable]
    ) throws -> Statement where RowDecoder: TableRecord {
        try deleteAndFetchStatement(db, selection: select(RowDecoder.databaseComponents))
    }

    /// A statement that updates the rows of the request and returns the
    /// selection of each updated row; assignments and selection are built
    /// from the record columns.
    public func updateAndFetchStatement(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment],
        select: (DatabaseComponents) throws -> [any SQLSelectable]
    ) throws -> Statement where RowDecoder: TableRecord {
        try updateAndFetchStatement(
            db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents),
            selection: select(RowDecoder.databaseComponents))
    }
}

extension QueryInterfaceRequest {
    /// Deletes the rows of the request, and returns a cursor over the
    /// deleted records.
    ///
    /// - Complexity: Compiles one `RETURNING` statement at each call (not cached). SQLite changes
    ///   all the rows at the first step; the cursor then returns them a step per element.
    public func deleteAndFetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder>
    where RowDecoder: FetchableRecord & TableRecord {
        try RowDecoder.fetchCursor(deleteAndFetchStatement(db, selection: RowDecoder.databaseSelection))
    }

    /// Deletes the rows of the request, and returns the deleted records.
    ///
    /// ```swift
    /// let deletedPlayers = try Player.filter { $0.score < 100 }.deleteAndFetchAll(db)
    /// ```
    ///
    /// - Complexity: Compiles and runs one `RETURNING` statement at each call (not cached);
    ///   allocates the array and its records, O(*n*) for *n* changed rows.
    public func deleteAndFetchAll(_ db: Database) throws -> [RowDecoder]
    where RowDecoder: FetchableRecord & TableRecord {
        try RowDecoder.fetchAll(deleteAndFetchStatement(db, selection: RowDecoder.databaseSelection))
    }

    /// Updates the rows of the request, and returns a cursor over the
    /// updated records.
    ///
    /// - Complexity: Compiles one `RETURNING` statement at each call (not cached). SQLite changes
    ///   all the rows at the first step; the cursor then returns them a step per element.
    public func updateAndFetchCursor(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> RecordCursor<RowDecoder> where RowDecoder: FetchableRecord & TableRecord {
        try RowDecoder.fetchCursor(
            updateAndFetchStatement(
                db, onConflict: conflictResolution, assignments, selection: RowDecoder.databaseSelection))
    }

    /// Updates the rows of the request with assignments built from the
    /// record columns, and returns a cursor over the updated records.
    ///
    /// - Complexity: Compiles one `RETURNING` statement at each call (not cached). SQLite changes
    ///   all the rows at the first step; the cursor then returns them a step per element.
    public func updateAndFetchCursor(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> RecordCursor<RowDecoder> where RowDecoder: FetchableRecord & TableRecord {
        try updateAndFetchCursor(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }

    /// Updates the rows of the request, and returns the updated records.
    ///
    /// ```swift
    /// let players = try Player.all().updateAndFetchAll(db, [Column("score") += 10])
    /// ```
    ///
    /// - Complexity: Compiles and runs one `RETURNING` statement at each call (not cached);
    ///   allocates the array and its records, O(*n*) for *n* changed rows.
    public func updateAndFetchAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> [RowDecoder] where RowDecoder: FetchableRecord & TableRecord {
        try RowDecoder.fetchAll(
            updateAndFetchStatement(
                db, onConflict: conflictResolution, assignments, selection: RowDecoder.databaseSelection))
    }

    /// Updates the rows of the request with assignments built from the
    /// record columns, and returns the updated records.
    ///
    /// - Complexity: Compiles and runs one `RETURNING` statement at each call (not cached);
    ///   allocates the array and its records, O(*n*) for *n* changed rows.
    public func updateAndFetchAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> [RowDecoder] where RowDecoder: FetchableRecord & TableRecord {
        try updateAndFetchAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }
}

extension QueryInterfaceRequest {
    /// Deletes the rows of the request, and returns the set of deleted records.
    ///
    /// - Complexity: Compiles and runs one `RETURNING` statement at each call (not cached);
    ///   allocates an array of the records, then the set, O(*n*) for *n* changed rows.
    public func deleteAndFetchSet(_ db: Database) throws -> Set<RowDecoder>
    where RowDecoder: FetchableRecord & TableRecord & Hashable {
        try RowDecoder.fetchSet(deleteAndFetchStatement(db, selection: RowDecoder.databaseSelection))
    }

    /// Updates the rows of the request, and returns the set of updated records.
    ///
    /// - Complexity: Compiles and runs one `RETURNING` statement at each call (not cached);
    ///   allocates an array of the records, then the set, O(*n*) for *n* changed rows.
    public func updateAndFetchSet(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> Set<RowDecoder> where RowDecoder: FetchableRecord & TableRecord & Hashable {
        try RowDecoder.fetchSet(
            updateAndFetchStatement(
                db, onConflict: conflictResolution, assignments, selection: RowDecoder.databaseSelection))
    }

    /// Updates the rows of the request with assignments built from the
    /// record columns, and returns the set of updated records.
    ///
    /// - Complexity: Compiles and runs one `RETURNING` statement at each call (not cached);
    ///   allocates an array of the records, then the set, O(*n*) for *n* changed rows.
    public func updateAndFetchSet(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> Set<RowDecoder> where RowDecoder: FetchableRecord & TableRecord & Hashable {
        try updateAndFetchSet(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }
}

extension QueryInterfaceRequest {
    /// Deletes the rows of the request, and returns the ids of the deleted rows.
    ///
    /// ```swift
    /// let deletedIDs = try Player.filter { $0.score < 100 }.deleteAndFetchIds(db)
    /// ```
    ///
    /// - Complexity: Reads the primary key from the schema cache, then compiles and runs one
    ///   `RETURNING` statement (not cached); allocates the set, O(*n*) for *n* deleted rows.
    public func deleteAndFetchIds(_ db: Database) throws -> Set<RowDecoder.ID>
    where RowDecoder: TableRecord & Identifiable, RowDecoder.ID: DatabaseValueConvertible & StatementColumnConvertible {
        let columns = try db.primaryKey(databaseTableName).columns
        return try RowDecoder.ID.fetchSet(deleteAndFetchStatement(db, selection: columns.map { Column($0) }))
    }
}
