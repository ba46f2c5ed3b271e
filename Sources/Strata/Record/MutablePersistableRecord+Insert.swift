extension MutablePersistableRecord {
    /// Inserts the record, after `willSave` and `willInsert`, and calls
    /// `didInsert` with the rowid of the new row.
    ///
    /// ```swift
    /// var player = Player(id: nil, name: "Arthur")
    /// try player.insert(db)
    /// player.id // set by didInsert
    /// ```
    ///
    /// - parameter db: A connection, inside a write access.
    /// - parameter conflictResolution: The `INSERT OR ...` conflict
    ///   resolution; by default, the one of ``persistenceConflictPolicy``.
    /// - throws: A ``DatabaseError`` (`SQLITE_CONSTRAINT` for a duplicate
    ///   primary key, for example), or the error of a callback.
    ///
    /// - Complexity: Runs one `INSERT` statement, compiled once per connection and record type,
    ///   between the persistence callbacks.
    @inlinable
    public mutating func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil)
        throws
    {
        try insertWithAllCallbacks(db, onConflict: conflictResolution)
    }

    @inlinable
    mutating func insertWithAllCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?)
        throws
    {
        var saved = try withSaveCallbacks(db) { record in
            try PersistenceSuccess(record.insertWithCallbacks(db, onConflict: conflictResolution))
        }
        // A bound insert leaves no values buffer: no lookup of the facts.
        guard saved.holdsStoredContainer else { return }
        db.recycleContainerValues(of: Self.self, &saved)
    }

    /// Inserts a copy of the record, and returns it, as modified by
    /// `willInsert` and `didInsert`.
    ///
    /// ```swift
    /// let player = try Player(id: nil, name: "Arthur").inserted(db)
    /// ```
    @inlinable
    public func inserted(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
        -> Self
    {
        var record = self
        try record.insertWithAllCallbacks(db, onConflict: conflictResolution)
        return record
    }

    /// Inserts a copy of the record, and returns the inserted row, fetched
    /// with `INSERT ... RETURNING` (default values and triggers included).
    ///
    /// - Complexity: Runs one `INSERT ... RETURNING` statement, between the persistence callbacks.
    public func insertAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil)
        throws -> Self where Self: FetchableRecord
    {
        var record = self
        return try record.writeAndFetch(.insert, db, onConflict: conflictResolution, as: Self.self)
    }

    /// Inserts the record, and returns the inserted row decoded as another
    /// record type, fetched with `INSERT ... RETURNING`.
    ///
    /// ```swift
    /// var player = Player(id: nil, name: "Arthur")
    /// let persistedPlayer = try player.insertAndFetch(db, as: PersistedPlayer.self)
    /// ```
    ///
    /// - Complexity: Runs one `INSERT ... RETURNING` statement, between the persistence callbacks.
    public mutating func insertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type
    ) throws -> T {
        try writeAndFetch(.insert, db, onConflict: conflictResolution, as: returnedType)
    }

    /// Inserts the record, and returns what `fetch` reads from the
    /// `INSERT ... RETURNING` statement of the selection.
    ///
    /// ```swift
    /// let score = try player.insertAndFetch(db, selection: [Column("score")]) { statement in
    ///     try Int.fetchOne(statement)!
    /// }
    /// ```
    ///
    /// - Complexity: Runs one `INSERT ... RETURNING` statement, between the persistence callbacks.
    public mutating func insertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T
    ) throws -> T {
        try writeAndFetch(.insert, db, onConflict: conflictResolution, returning: selection, fetch: fetch)
    }

    /// Inserts the record, and returns what `fetch` reads from the
    /// `INSERT ... RETURNING` statement of the selection built from the
    /// record columns.
    ///
    /// - Complexity: Runs one `INSERT ... RETURNING` statement, between the persistence callbacks.
    public mutating func insertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T,
        select: (DatabaseComponents) throws -> [any SQLSelectable]
    ) throws -> T {
        try writeAndFetch(
            .insert, db, onConflict: conflictResolution, returning: select(Self.databaseComponents), fetch: fetch)
    }
}
