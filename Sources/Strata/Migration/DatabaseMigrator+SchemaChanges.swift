import Foundation

extension DatabaseMigrator {
    /// Whether the migrations no longer produce the schema of the database:
    /// an applied migration was removed or renamed, or the database schema
    /// differs from the one of an empty temporary database migrated with the
    /// same applied migrations.
    ///
    /// The comparison covers the tables, indexes, triggers and views of
    /// `sqlite_master`, and ignores `grdb_migrations`. This is what
    /// ``eraseDatabaseOnSchemaChange`` looks at.
    public func hasSchemaChanges(_ db: Database) throws -> Bool {
        let appliedIdentifiers = try appliedIdentifiers(db)
        if !appliedIdentifiers.isSubset(of: knownIdentifiers) {
            // A migration was removed or renamed.
            return true
        }

        // Migrate a fresh database the same way. Its connections share the
        // functions and collations of the original ones, but not its dispatch
        // queues nor its read-only flag.
        var configuration = db.configuration
        configuration.readonly = false
        configuration.label = nil
        configuration.targetQueue = nil
        configuration.writeTargetQueue = nil
        configuration.journalMode = .default
        // A temporary file, not an in-memory database: file controls of
        // `prepareDatabase` apply to it as to the original database.
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-schema-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let freshQueue = try DatabaseQueue(
            path: directory.appendingPathComponent("db.sqlite").path, configuration: configuration)
        let migrations = registeredMigrations.filter { appliedIdentifiers.contains($0.identifier) }
        let freshSchema = try freshQueue.barrierWriteWithoutTransaction { freshDb in
            try DatabaseMigrator.createMigrationsTableIfNeeded(freshDb)
            var freshApplied = Set<String>()
            for migration in migrations {
                try migration.run(freshDb, appliedIdentifiers: freshApplied)
                freshApplied.insert(migration.identifier)
            }
            return try DatabaseMigrator.schema(freshDb)
        }
        try freshQueue.close()

        return try DatabaseMigrator.schema(db) != freshSchema
    }

    /// The rows of `sqlite_master` that describe the schema built by
    /// migrations, in a stable order. Root pages, SQLite internal objects and
    /// `grdb_migrations` are left out.
    private static func schema(_ db: Database) throws -> [Row] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT type, name, tbl_name, sql FROM sqlite_master
                WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                  AND tbl_name <> 'grdb_migrations'
                ORDER BY type, name
                """)
    }
}
