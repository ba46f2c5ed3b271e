/// Schema information cached by a connection, cleared by
/// ``Database/clearSchemaCache()``.
struct SchemaCache {
    /// An object of `sqlite_master`.
    struct MasterEntry {
        var type: String
        var name: String
        var tableName: String
    }

    /// A table or view, identified by its schema and lowercased name.
    struct ObjectKey: Hashable {
        var schemaID: DatabaseSchemaID
        var lowercasedName: String
    }

    /// The schema version of the main schema when the cache was filled, for
    /// read-only connections that can't see the schema changes of other
    /// connections.
    var schemaVersion: Int32?
    /// The schemas, in name resolution order: temp, main, attached.
    var schemaIDs: [DatabaseSchemaID]?
    /// The content of `sqlite_master`, by schema.
    var masterEntries: [DatabaseSchemaID: [MasterEntry]] = [:]
    var columns: [ObjectKey: [ColumnInfo]] = [:]
    var primaryKeys: [ObjectKey: PrimaryKeyInfo] = [:]
    var foreignKeys: [ObjectKey: [ForeignKeyInfo]] = [:]
    var indexes: [ObjectKey: [IndexInfo]] = [:]
    /// Whether tables are WITHOUT ROWID tables.
    var withoutRowID: [ObjectKey: Bool] = [:]
    /// What persistence methods know about record types (Record/PersistenceCache.swift).
    var recordPersistence: [ObjectIdentifier: RecordPersistenceInfo] = [:]
    /// The last used value of `recordPersistence`.
    var lastRecordPersistence: RecordPersistenceInfo? {
        didSet { unmanagedLastRecordPersistence = lastRecordPersistence.map(Unmanaged.passUnretained) }
    }
    /// `lastRecordPersistence`, read without a retain by the insert that
    /// borrows it (`Database.unmanagedRecordPersistenceInfo(_:)`).
    private(set) var unmanagedLastRecordPersistence: Unmanaged<RecordPersistenceInfo>?
    /// The values of `recordPersistence` that a reset or a replacement
    /// dropped during the current access: an insert borrows its record
    /// type's value without retaining it, and a callback or a failed
    /// statement that resets the cache during the insert must not free it.
    /// Emptied at the end of each access (`retiredRecordPersistence`).
    private(set) var retiredRecordPersistence: [RecordPersistenceInfo] = []

    /// Forgets everything, keeping the record types' values that were
    /// dropped until the end of the access (see `retiredRecordPersistence`).
    mutating func reset() {
        var retired = retiredRecordPersistence
        retired.append(contentsOf: recordPersistence.values)
        self = SchemaCache()
        retiredRecordPersistence = retired
    }

    /// Keeps `info`, dropped from `recordPersistence`, until the end of
    /// the access.
    mutating func retire(_ info: RecordPersistenceInfo) {
        retiredRecordPersistence.append(info)
    }

    /// Releases the values dropped during the access that ends.
    mutating func accessDidEnd() {
        if !retiredRecordPersistence.isEmpty {
            retiredRecordPersistence = []
        }
    }
}
