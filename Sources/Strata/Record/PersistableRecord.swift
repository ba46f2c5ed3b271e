/// A ``MutablePersistableRecord`` whose persistence methods do not modify
/// the record: use it for records without auto-incremented ids, and classes.
///
/// ```swift
/// struct Player: Codable, PersistableRecord {
///     var id: String
///     var name: String
/// }
///
/// let player = Player(id: "arthur", name: "Arthur")
/// try player.insert(db)
/// ```
public protocol PersistableRecord: MutablePersistableRecord {
    /// Called before the record is inserted.
    func willInsert(_ db: Database) throws

    /// Called after a successful insertion, with its rowid.
    func didInsert(_ inserted: InsertionSuccess)
}

extension PersistableRecord {
    /// Does nothing.
    @inlinable
    public func willInsert(_ db: Database) throws {}

    /// Does nothing.
    @inlinable
    public func didInsert(_ inserted: InsertionSuccess) {}

    /// Inserts the record. See ``MutablePersistableRecord/insert(_:onConflict:)``.
    ///
    /// - Complexity: Runs one `INSERT` statement, compiled once per connection and record type,
    ///   between the persistence callbacks.
    @inlinable
    public func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        var record = self
        try record.insertWithAllCallbacks(db, onConflict: conflictResolution)
    }

    /// Inserts the record, and returns the inserted row decoded as another
    /// record type, fetched with `INSERT ... RETURNING`.
    ///
    /// - Complexity: Runs one `INSERT ... RETURNING` statement, between the persistence callbacks.
    public func insertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type
    ) throws -> T {
        var record = self
        return try record.writeAndFetch(.insert, db, onConflict: conflictResolution, as: returnedType)
    }

    /// Inserts the record, and returns what `fetch` reads from the
    /// `INSERT ... RETURNING` statement of the selection.
    ///
    /// - Complexity: Runs one `INSERT ... RETURNING` statement, between the persistence callbacks.
    public func insertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T
    ) throws -> T {
        var record = self
        return try record.writeAndFetch(
            .insert, db, onConflict: conflictResolution, returning: selection, fetch: fetch)
    }

    /// Inserts the record, and returns what `fetch` reads from the
    /// `INSERT ... RETURNING` statement of the selection built from the
    /// record columns.
    ///
    /// - Complexity: Runs one `INSERT ... RETURNING` statement, between the persistence callbacks.
    public func insertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T,
        select: (DatabaseComponents) throws -> [any SQLSelectable]
    ) throws -> T {
        var record = self
        return try record.writeAndFetch(
            .insert, db, onConflict: conflictResolution, returning: select(Self.databaseComponents), fetch: fetch)
    }

    /// Saves the record. See ``MutablePersistableRecord/save(_:onConflict:)``.
    ///
    /// - Complexity: Runs an `UPDATE`, then an `INSERT` when no row was updated (or the `INSERT`
    ///   alone, without a primary key).
    public func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        var record = self
        try record.saveWithAllCallbacks(db, onConflict: conflictResolution)
    }

    /// Saves the record, and returns the saved row decoded as another
    /// record type, fetched with `RETURNING`.
    ///
    /// - Complexity: Runs an `UPDATE ... RETURNING`, then an `INSERT ... RETURNING` when no row was
    ///   updated.
    public func saveAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type
    ) throws -> T {
        var record = self
        return try record.writeAndFetch(.save, db, onConflict: conflictResolution, as: returnedType)
    }

    /// Saves the record, and returns what `fetch` reads from the
    /// `RETURNING` statement of the selection.
    ///
    /// - Complexity: Runs an `UPDATE ... RETURNING`, then an `INSERT ... RETURNING` when no row was
    ///   updated.
    public func saveAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T
    ) throws -> T {
        var record = self
        return try record.writeAndFetch(
            .save, db, onConflict: conflictResolution, returning: selection, fetch: fetch)
    }

    /// Upserts the record. See ``MutablePersistableRecord/upsert(_:)``.
    ///
    /// - Complexity: Runs one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` statement.
    public func upsert(_ db: Database) throws {
        var record = self
        try record.upsertWithAllCallbacks(
            db, conflictTarget: [], strategy: .allColumns, assignments: nil, selection: []
        ) { _ in }
    }

    /// Upserts the record, and returns the inserted or updated row, fetched
    /// with `RETURNING`.
    ///
    /// - Complexity: Runs one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` statement.
    public func upsertAndFetch(
        _ db: Database,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
    ) throws -> Self where Self: FetchableRecord {
        try upsertAndFetch(db, as: Self.self, onConflict: conflictTarget, updating: strategy, doUpdate: assignments)
    }

    /// Upserts the record, and returns the inserted or updated row decoded
    /// as another record type, fetched with `RETURNING`.
    ///
    /// - Complexity: Runs one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` statement.
    public func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        as returnedType: T.Type,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
    ) throws -> T {
        var record = self
        var result: T?
        try record.upsertWithAllCallbacks(
            db, conflictTarget: conflictTarget, strategy: strategy, assignments: assignments,
            selection: T.databaseSelection
        ) { row in
            result = try T(row: row)
        }
        guard let result else {
            fatalError("\(type(of: self)): the upserted row was not fetched")
        }
        return result
    }
}
