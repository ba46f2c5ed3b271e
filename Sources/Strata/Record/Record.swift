/// A base class for records, that tracks the changes of its instances
/// since they were fetched or saved.
///
/// Its use is discouraged: prefer structs that adopt ``FetchableRecord`` and
/// ``PersistableRecord``. `Record` is not `Sendable`.
///
/// ```swift
/// class Place: Record {
///     var id: Int64?
///     var title: String
///
///     override class var databaseTableName: String { "place" }
///
///     required init(row: Row) throws {
///         id = row["id"]
///         title = row["title"]
///         try super.init(row: row)
///     }
///
///     override func encode(to container: inout PersistenceContainer) throws {
///         container["id"] = id
///         container["title"] = title
///     }
///
///     override func didInsert(_ inserted: InsertionSuccess) {
///         super.didInsert(inserted)
///         id = inserted.rowID
///     }
/// }
/// ```
open class Record: FetchableRecord, TableRecord, PersistableRecord {
    /// The values last fetched or saved; nil for a new record.
    var referenceContainer: PersistenceContainer?

    /// Creates a record that has not been fetched or saved: it has changes.
    public init() {}

    /// Creates a record from a row. Subclasses decode their properties,
    /// then call `super.init(row:)`, which remembers a row fetched from the
    /// database for change tracking. A record built from any other row has
    /// all its columns changed.
    public required init(row: Row) throws {
        guard row.isFetched else { return }
        var container = PersistenceContainer()
        for (name, value) in zip(row.columnNames, row.databaseValues) {
            container.setDatabaseValue(value, forColumn: name)
        }
        referenceContainer = container
    }

    // MARK: - Table

    /// The name of the table. Subclasses override it; the default is the
    /// class name with a lowercased first word.
    open class var databaseTableName: String {
        defaultDatabaseTableName(String(describing: self))
    }

    /// The columns selected by default: all columns.
    open class var databaseSelection: [any SQLSelectable] {
        [AllColumns()]
    }

    /// The conflict resolutions of the persistence methods: abort.
    open class var persistenceConflictPolicy: PersistenceConflictPolicy {
        PersistenceConflictPolicy(insert: .abort, update: .abort)
    }

    /// Writes the values stored in the database. Subclasses override it; the
    /// default stores nothing.
    open func encode(to container: inout PersistenceContainer) throws {}

    // MARK: - Callbacks

    /// Called before insertion. Subclasses that override it call `super`.
    open func willInsert(_ db: Database) throws {}

    /// Wraps the insertion. Subclasses that override it call `super`.
    open func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        _ = try insert()
    }

    /// Called after a successful insertion. Subclasses that override it
    /// call `super`.
    open func didInsert(_ inserted: InsertionSuccess) {}

    /// Called before updates. Subclasses that override it call `super`.
    open func willUpdate(_ db: Database, columns: Set<String>) throws {}

    /// Wraps the update. Subclasses that override it call `super`.
    open func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        _ = try update()
    }

    /// Called after a successful update. Subclasses that override it call `super`.
    open func didUpdate(_ updated: PersistenceSuccess) {}

    /// Called before insertion and updates. Subclasses that override it call `super`.
    open func willSave(_ db: Database) throws {}

    /// Wraps insertions and updates. Subclasses that override it call `super`.
    open func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        _ = try save()
    }

    /// Called after a successful insertion or update. Subclasses that
    /// override it call `super`.
    open func didSave(_ saved: PersistenceSuccess) {}

    /// Called before deletion. Subclasses that override it call `super`.
    open func willDelete(_ db: Database) throws {}

    /// Wraps the deletion. Subclasses that override it call `super`.
    open func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        _ = try delete()
    }

    /// Called after the deletion. Subclasses that override it call `super`.
    open func didDelete(deleted: Bool) {}

    /// Remembers the written values, as those of the row: the reference of
    /// the changes. A deletion forgets them, and an update of some columns
    /// only changes theirs.
    public final func _persistenceDidWrite(_ container: PersistenceContainer?, columns: Set<String>?) {
        guard let container else {
            referenceContainer = nil
            return
        }
        if let columns, var reference = referenceContainer {
            for column in columns {
                if let value = container.databaseValue(forColumn: column) {
                    reference.setValue(value, forColumn: column)
                }
            }
            referenceContainer = reference
        } else {
            referenceContainer = container
        }
    }

    // MARK: - Changes

    /// Whether the record has changes that are not saved: true for records
    /// that were not fetched or saved, and when a value differs from the
    /// fetched or saved one.
    ///
    /// ```swift
    /// let player = try Player.find(db, id: 1)
    /// player.hasDatabaseChanges // false
    /// player.score = 1000
    /// player.hasDatabaseChanges // true (unless the score was 1000)
    /// ```
    public var hasDatabaseChanges: Bool {
        guard let changes = try? databaseChanges else { return true }
        return !changes.isEmpty
    }

    /// The changed columns, with their fetched or saved values (nil when the
    /// record was not fetched or saved, or the column was not fetched).
    ///
    /// ```swift
    /// player.score = 1000
    /// try player.databaseChanges // ["score": 750]
    /// ```
    public var databaseChanges: [String: DatabaseValue?] {
        get throws {
            let container = try PersistenceContainer(self)
            var changes: [String: DatabaseValue?] = [:]
            for (column, value) in container {
                let old = referenceContainer?.databaseValue(forColumn: column)
                if old != value {
                    changes[column] = .some(old)
                }
            }
            return changes
        }
    }

    /// Updates the changed columns, if any, and returns whether the
    /// database was updated.
    ///
    /// ```swift
    /// player.score = 1000
    /// if try player.updateChanges(db) {
    ///     print("player was modified, and updated in the database")
    /// }
    /// ```
    @discardableResult
    public final func updateChanges(_ db: Database) throws -> Bool {
        let changes = try databaseChanges
        if changes.isEmpty { return false }
        try update(db, columns: changes.keys)
        return true
    }

    /// A copy of the record, decoded from its encoded values, with the same
    /// changes.
    public func copy() -> Self {
        do {
            let container = try PersistenceContainer(self)
            let copy = try type(of: self).init(row: Row(names: container.columns, values: container.databaseValues))
            copy.referenceContainer = referenceContainer
            return copy
        } catch {
            fatalError("\(type(of: self)) could not be copied: \(error)")
        }
    }
}
