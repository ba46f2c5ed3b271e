extension MutablePersistableRecord {
    /// Updates all columns of the row with the primary key of the record.
    ///
    /// ```swift
    /// player.score += 1
    /// try player.update(db)
    /// ```
    ///
    /// - throws: ``RecordError/recordNotFound(databaseTableName:key:)`` when
    ///   no row has the primary key (or the primary key is nil), a
    ///   ``DatabaseError``, or the error of a callback.
    ///
    /// - Complexity: Runs one `UPDATE` statement, between the persistence callbacks.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try updateWithAllCallbacks(db, onConflict: conflictResolution, columns: nil)
    }

    /// Updates the given columns of the row with the primary key of the record.
    ///
    /// ```swift
    /// try player.update(db, columns: [Column("score")])
    /// ```
    ///
    /// - Complexity: Runs one `UPDATE` statement, between the persistence callbacks.
    public func update(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<some ColumnExpression>
    ) throws {
        try updateWithAllCallbacks(db, onConflict: conflictResolution, columns: Set(columns.map(\.name)))
    }

    /// Updates the given columns of the row with the primary key of the record.
    ///
    /// ```swift
    /// try player.update(db, columns: ["score"])
    /// ```
    ///
    /// - Complexity: Runs one `UPDATE` statement, between the persistence callbacks.
    public func update(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<String>
    ) throws {
        try updateWithAllCallbacks(db, onConflict: conflictResolution, columns: Set(columns))
    }

    func updateWithAllCallbacks(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        columns: Set<String>?,
        returning selection: [any SQLSelectable]? = nil,
        fetch: (Statement) throws -> Void = { _ in }
    ) throws {
        var record = self
        try record.withSaveCallbacks(db) { record in
            try record.updateWithCallbacks(
                db, onConflict: conflictResolution, columns: columns, returning: selection, fetch: fetch)
        }
    }

    /// Updates the columns that differ from `record`, if any, and returns
    /// whether the database was updated.
    ///
    /// ```swift
    /// var newPlayer = oldPlayer
    /// newPlayer.score = 100
    /// if try newPlayer.updateChanges(db, from: oldPlayer) {
    ///     print("player was modified, and updated in the database")
    /// }
    /// ```
    ///
    /// - Complexity: Encodes the record twice to compare; runs one `UPDATE` statement when a column
    ///   changed, none otherwise.
    @discardableResult
    public func updateChanges<Record: MutablePersistableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        from record: Record
    ) throws -> Bool {
        let changes = try databaseChanges(from: record)
        if changes.isEmpty { return false }
        try updateWithAllCallbacks(db, onConflict: conflictResolution, columns: Set(changes.keys))
        return true
    }

    /// Modifies the record, then updates the changed columns, if any, and
    /// returns whether the database was updated.
    ///
    /// ```swift
    /// try player.updateChanges(db) {
    ///     $0.score = 1000
    /// }
    /// ```
    ///
    /// - Complexity: Encodes the record twice to compare; runs one `UPDATE` statement when a column
    ///   changed, none otherwise.
    @discardableResult
    public mutating func updateChanges(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        modify: (inout Self) throws -> Void
    ) throws -> Bool {
        let changes = try databaseChanges(modify: modify)
        if changes.isEmpty { return false }
        try updateWithAllCallbacks(db, onConflict: conflictResolution, columns: Set(changes.keys))
        return true
    }

    // MARK: - Update and fetch

    /// Updates all columns, and returns the updated row, fetched with
    /// `UPDATE ... RETURNING`.
    ///
    /// - Complexity: Runs one `UPDATE ... RETURNING` statement, between the persistence callbacks.
    public func updateAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil)
        throws -> Self where Self: FetchableRecord
    {
        try updateAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// Updates all columns, and returns the updated row decoded as another
    /// record type, fetched with `UPDATE ... RETURNING`.
    ///
    /// - Complexity: Runs one `UPDATE ... RETURNING` statement, between the persistence callbacks.
    public func updateAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type
    ) throws -> T {
        try updateAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) { statement in
            guard let record = try T.fetchOne(statement) else {
                throw recordNotFound(db)
            }
            return record
        }
    }

    /// Updates all columns, and returns what `fetch` reads from the
    /// `UPDATE ... RETURNING` statement of the selection.
    ///
    /// - Complexity: Runs one `UPDATE ... RETURNING` statement, between the persistence callbacks.
    public func updateAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T
    ) throws -> T {
        try updateAndFetchWithAllCallbacks(
            db, onConflict: conflictResolution, columns: nil, selection: selection, fetch: fetch)
    }

    /// Updates the given columns, and returns what `fetch` reads from the
    /// `UPDATE ... RETURNING` statement of the selection.
    ///
    /// - Complexity: Runs one `UPDATE ... RETURNING` statement, between the persistence callbacks.
    public func updateAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<some ColumnExpression>,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T
    ) throws -> T {
        try updateAndFetchWithAllCallbacks(
            db, onConflict: conflictResolution, columns: Set(columns.map(\.name)), selection: selection, fetch: fetch)
    }

    /// Updates the given columns, and returns what `fetch` reads from the
    /// `UPDATE ... RETURNING` statement of the selection.
    ///
    /// - Complexity: Runs one `UPDATE ... RETURNING` statement, between the persistence callbacks.
    public func updateAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<String>,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T
    ) throws -> T {
        try updateAndFetchWithAllCallbacks(
            db, onConflict: conflictResolution, columns: Set(columns), selection: selection, fetch: fetch)
    }

    func updateAndFetchWithAllCallbacks<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        columns: Set<String>?,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T
    ) throws -> T {
        var result: T?
        try updateWithAllCallbacks(
            db, onConflict: conflictResolution, columns: columns, returning: selection,
            fetch: { result = try fetch($0) })
        guard let result else {
            fatalError("\(type(of: self)): the updated row was not fetched")
        }
        return result
    }

    /// Modifies the record, then updates the changed columns and returns the
    /// updated row, fetched with `UPDATE ... RETURNING`. Returns nil, without
    /// database access, when the record is not changed.
    public mutating func updateChangesAndFetch(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        modify: (inout Self) throws -> Void
    ) throws -> Self? where Self: FetchableRecord {
        try updateChangesAndFetch(db, onConflict: conflictResolution, as: Self.self, modify: modify)
    }

    /// Modifies the record, then updates the changed columns and returns the
    /// updated row decoded as another record type. Returns nil, without
    /// database access, when the record is not changed.
    public mutating func updateChangesAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type,
        modify: (inout Self) throws -> Void
    ) throws -> T? {
        let changes = try databaseChanges(modify: modify)
        if changes.isEmpty { return nil }
        return try updateAndFetchWithAllCallbacks(
            db, onConflict: conflictResolution, columns: Set(changes.keys), selection: T.databaseSelection
        ) { statement in
            guard let record = try T.fetchOne(statement) else {
                throw recordNotFound(db)
            }
            return record
        }
    }

    /// Modifies the record, then updates the changed columns and returns
    /// what `fetch` reads from the `UPDATE ... RETURNING` statement of the
    /// selection. Returns nil, without database access, when the record is
    /// not changed.
    public mutating func updateChangesAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T,
        modify: (inout Self) throws -> Void
    ) throws -> T? {
        let changes = try databaseChanges(modify: modify)
        if changes.isEmpty { return nil }
        return try updateAndFetchWithAllCallbacks(
            db, onConflict: conflictResolution, columns: Set(changes.keys), selection: selection, fetch: fetch)
    }
}
