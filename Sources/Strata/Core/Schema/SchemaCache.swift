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
    var lastRecordPersistence: RecordPersistenceInfo?
}
