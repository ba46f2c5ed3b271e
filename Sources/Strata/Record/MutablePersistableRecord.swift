/// A type that can be inserted, updated, and deleted in its database table.
///
/// Records with an auto-incremented primary key learn their id after
/// insertion, in ``didInsert(_:)``:
///
/// ```swift
/// struct Player: Encodable, MutablePersistableRecord {
///     var id: Int64?
///     var name: String
///
///     mutating func didInsert(_ inserted: InsertionSuccess) {
///         id = inserted.rowID
///     }
/// }
///
/// var player = Player(id: nil, name: "Arthur")
/// try player.insert(db)
/// player.id // not nil
/// ```
///
/// The persistence callbacks run in this order:
///
/// - insert: `willSave`, `aroundSave`, `willInsert`, `aroundInsert`,
///   `didInsert`, `didSave`.
/// - update: `willSave`, `aroundSave`, `willUpdate`, `aroundUpdate`,
///   `didUpdate`, `didSave`.
/// - save: `willSave`, `aroundSave`, then the update or insert callbacks,
///   then `didSave`.
/// - delete: `willDelete`, `aroundDelete`, `didDelete`.
public protocol MutablePersistableRecord: EncodableRecord, TableRecord {
    /// The conflict resolutions used when persistence methods are not
    /// given one. The default aborts on conflicts.
    static var persistenceConflictPolicy: PersistenceConflictPolicy { get }

    // Callbacks, outermost first: save wraps the insert or update.

    /// Called before the record is inserted or updated.
    func willSave(_ db: Database) throws

    /// Wraps the insertion or update: call `save` exactly once.
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws

    /// Called after a successful insertion or update.
    func didSave(_ saved: PersistenceSuccess)

    /// Called before the record is inserted. May modify the record.
    mutating func willInsert(_ db: Database) throws

    /// Wraps the insertion: call `insert` exactly once.
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws

    /// Called after a successful insertion, with its rowid. Also called when
    /// the `.ignore` conflict resolution ignored the row: the rowid is then
    /// not the record's.
    mutating func didInsert(_ inserted: InsertionSuccess)

    /// Called before the record is updated, with the updated columns.
    func willUpdate(_ db: Database, columns: Set<String>) throws

    /// Wraps the update: call `update` exactly once.
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws

    /// Called after a successful update.
    func didUpdate(_ updated: PersistenceSuccess)

    /// Called before the record is deleted.
    func willDelete(_ db: Database) throws

    /// Wraps the deletion: call `delete` exactly once.
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws

    /// Called after the deletion, with whether a row was deleted.
    func didDelete(deleted: Bool)

    /// Not for your own records: the hook that lets ``Record`` remember the
    /// values of its row, for change tracking, after a write of the row.
    /// The default does nothing.
    ///
    /// - parameters:
    ///     - container: The written values; nil after a deletion.
    ///     - columns: The columns of an update of some columns only; nil
    ///       when all values were written.
    func _persistenceDidWrite(_ container: PersistenceContainer?, columns: Set<String>?)

    #if Macros
        /// Not for your own records: the number of columns that
        /// `_bindDatabaseRecordColumns(to:)` binds, written by
        /// `@DatabaseRecord`. The default, -1, inserts through the container.
        static var _databaseRecordColumnCount: Int { get }

        /// Not for your own records: binds the columns of the record to the
        /// parameters of its INSERT statement, as `encode(to:)` writes them;
        /// written by `@DatabaseRecord`.
        func _bindDatabaseRecordColumns(to binder: inout _DatabaseRecordBinder) throws
    #endif
}

extension MutablePersistableRecord {
    /// Aborts on conflicts, for insertions and updates.
    @inlinable
    public static var persistenceConflictPolicy: PersistenceConflictPolicy {
        PersistenceConflictPolicy(insert: .abort, update: .abort)
    }

    /// Does nothing.
    @inlinable
    public mutating func willInsert(_ db: Database) throws {}

    /// Calls `insert`.
    @inlinable
    public func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        _ = try insert()
    }

    /// Does nothing.
    @inlinable
    public mutating func didInsert(_ inserted: InsertionSuccess) {}

    /// Does nothing.
    @inlinable
    public func willUpdate(_ db: Database, columns: Set<String>) throws {}

    /// Calls `update`.
    @inlinable
    public func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        _ = try update()
    }

    /// Does nothing.
    @inlinable
    public func didUpdate(_ updated: PersistenceSuccess) {}

    /// Does nothing.
    @inlinable
    public func willSave(_ db: Database) throws {}

    /// Calls `save`.
    @inlinable
    public func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        _ = try save()
    }

    /// Does nothing.
    @inlinable
    public func didSave(_ saved: PersistenceSuccess) {}

    /// Does nothing.
    @inlinable
    public func willDelete(_ db: Database) throws {}

    /// Calls `delete`.
    @inlinable
    public func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        _ = try delete()
    }

    /// Does nothing.
    @inlinable
    public func didDelete(deleted: Bool) {}

    /// Does nothing: only ``Record`` tracks changes.
    @inlinable
    public func _persistenceDidWrite(_ container: PersistenceContainer?, columns: Set<String>?) {}
}

extension TableRecord where Self: EncodableRecord {
    /// The error for this record missing from the database: a
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` with the
    /// primary key of the record, or the error that prevented reading it.
    public func recordNotFound(_ db: Database) -> any Error {
        do {
            let tableName = type(of: self).databaseTableName
            let container = try PersistenceContainer(self)
            let columns = try db.primaryKey(tableName).columns
            return RecordError.recordNotFound(
                databaseTableName: tableName, key: PersistenceKey(columns: columns, container: container).dictionary)
        } catch {
            return error
        }
    }
}

/// The primary key of an encoded record.
struct PersistenceKey {
    var columns: [String]
    var values: [DatabaseValue]

    init(columns: [String], container: PersistenceContainer) {
        self.columns = columns
        self.values = columns.map { container.databaseValue(forColumn: $0) ?? .null }
    }

    /// False when a key value is NULL (or missing): no row can match.
    var isComplete: Bool {
        !values.contains { $0.isNull }
    }

    var dictionary: [String: DatabaseValue] {
        Dictionary(zip(columns, values), uniquingKeysWith: { a, _ in a })
    }
}
