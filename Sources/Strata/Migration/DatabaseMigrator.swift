/// Evolves the database schema with an ordered list of migrations, each
/// applied once.
///
/// Register migrations in order, then migrate a database queue or pool. Only
/// the migrations that the database has not applied yet run, each in its own
/// transaction. Applied migrations are remembered in the `grdb_migrations`
/// table of the database.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("Create authors") { db in
///     try db.execute(sql: "CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT)")
/// }
/// try migrator.migrate(dbQueue)
/// ```
public struct DatabaseMigrator: Sendable {
    /// How a migration checks foreign keys.
    public enum ForeignKeyChecks: Sendable {
        /// Foreign keys are disabled while the migration runs, and the whole
        /// database is checked for violations before the commit (unless the
        /// migrator was returned by ``DatabaseMigrator/disablingDeferredForeignKeyChecks()``).
        /// Needed by migrations that recreate tables.
        case deferred

        /// Foreign keys stay enforced while the migration runs. Faster, and
        /// required to rename foreign keys, but unfit for recreating tables.
        case immediate
    }

    /// When true, ``migrate(_:)`` erases the database and migrates it again
    /// from scratch when the migrations no longer produce its schema: a
    /// migration was removed or renamed, or `sqlite_master` differs from the
    /// one of a fresh database migrated the same way.
    ///
    /// This destroys data: keep it for development, behind `#if DEBUG`.
    public var eraseDatabaseOnSchemaChange = false

    /// Whether migrations registered from now on with `.deferred` checks
    /// look for foreign key violations before they commit.
    private var defersForeignKeyChecks = true

    /// The registered migrations, in order.
    private(set) var registeredMigrations: [Migration] = []

    /// Creates a migrator without any migration.
    public init() {}

    /// The identifiers of the registered migrations, in registration order.
    public var migrations: [String] {
        registeredMigrations.map(\.identifier)
    }

    /// Returns a migrator whose migrations registered from now on with
    /// `.deferred` foreign key checks still run with foreign keys disabled,
    /// but no longer check for violations before they commit.
    ///
    /// Migrations registered before keep their checks. Call
    /// `db.checkForeignKeys()` from a migration to check some tables only.
    public func disablingDeferredForeignKeyChecks() -> DatabaseMigrator {
        var migrator = self
        migrator.defersForeignKeyChecks = false
        return migrator
    }

    // MARK: - Registering migrations

    /// Registers a migration, which runs after the migrations registered
    /// before.
    ///
    /// Registering an identifier twice is a programmer error.
    ///
    /// - Parameters:
    ///   - identifier: the unique name of the migration, stored in the database.
    ///   - foreignKeyChecks: `.deferred` (the default) or `.immediate`.
    ///   - migrate: changes the database, inside the migration transaction.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: DatabaseMigrator.ForeignKeyChecks = .deferred,
        migrate: @escaping @Sendable (Database) throws -> Void
    ) {
        registerMigration(identifier, foreignKeyChecks: foreignKeyChecks, merging: []) { db, _ in
            try migrate(db)
        }
    }

    /// Registers a migration that merges and replaces older migrations,
    /// which are no longer registered.
    ///
    /// A database that applied some of the merged migrations runs this
    /// migration once; `migrate` receives the identifiers of the merged
    /// migrations it had applied, so that it only performs the missing steps:
    ///
    /// ```swift
    /// migrator.registerMigration("v3", merging: ["v1", "v2"]) { db, appliedIDs in
    ///     if !appliedIDs.contains("v1") { /* schema version 1 */ }
    ///     if !appliedIDs.contains("v2") { /* schema version 2 */ }
    ///     // schema version 3
    /// }
    /// ```
    ///
    /// Registering an identifier twice, or merging a registered migration,
    /// is a programmer error.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: DatabaseMigrator.ForeignKeyChecks = .deferred,
        merging mergedIdentifiers: Set<String> = [],
        migrate: @escaping @Sendable (Database, Set<String>) throws -> Void
    ) {
        let known = knownIdentifiers
        if known.contains(identifier) {
            fatalError("already registered migration: \(String(reflecting: identifier))")
        }
        // A migration that lists itself among the merged ones merges the others.
        let mergedIdentifiers = mergedIdentifiers.subtracting([identifier])
        if let merged = mergedIdentifiers.sorted().first(where: { known.contains($0) }) {
            fatalError("can not merge already registered migration: \(String(reflecting: merged))")
        }
        let mode: Migration.ForeignKeyMode
        switch foreignKeyChecks {
        case .deferred: mode = .deferred(checked: defersForeignKeyChecks)
        case .immediate: mode = .immediate
        }
        registeredMigrations.append(
            Migration(
                identifier: identifier,
                mergedIdentifiers: mergedIdentifiers,
                foreignKeyMode: mode,
                migrate: migrate))
    }

    /// The registered and merged identifiers: the migrations this migrator
    /// knows about.
    var knownIdentifiers: Set<String> {
        var identifiers = Set<String>()
        for migration in registeredMigrations {
            identifiers.insert(migration.identifier)
            identifiers.formUnion(migration.mergedIdentifiers)
        }
        return identifiers
    }

    // MARK: - Migrating

    /// Runs the migrations that the database has not applied yet, in order.
    ///
    /// Each migration runs in its own transaction. When one throws, it is
    /// rolled back, the following ones do not run, and the error is rethrown.
    /// The writer is accessed alone (a barrier write) during the whole
    /// operation.
    ///
    /// - Complexity: One barrier write access; reads the applied identifiers,
    ///   then runs each pending migration in a transaction of its own.
    public func migrate(_ writer: any DatabaseWriter) throws {
        try writer.barrierWriteWithoutTransaction { db in
            try migrate(db, upTo: nil)
        }
    }

    /// Runs the unapplied migrations up to `targetIdentifier` included.
    ///
    /// Migrations only run forward: it is a programmer error to target a
    /// migration that is not registered, or one that precedes applied
    /// migrations.
    public func migrate(_ writer: any DatabaseWriter, upTo targetIdentifier: String) throws {
        try writer.barrierWriteWithoutTransaction { db in
            try migrate(db, upTo: targetIdentifier)
        }
    }

    /// Runs the unapplied migrations without blocking the calling task.
    ///
    /// It has a name of its own: an `async` overload of ``migrate(_:)`` would
    /// be picked by `try migrator.migrate(writer)` in any async function,
    /// which would then need `await`.
    public func migrateAsync(_ writer: any DatabaseWriter) async throws {
        try await writer.barrierWriteWithoutTransaction { db in
            try migrate(db, upTo: nil)
        }
    }

    /// Schedules the migration of the database; `completion` receives the
    /// connection once all migrations ran, or the first error.
    public func asyncMigrate(
        _ writer: any DatabaseWriter,
        completion: @escaping @Sendable (Result<Database, any Error>) -> Void
    ) {
        writer.asyncBarrierWriteWithoutTransaction { dbResult in
            let result = Result {
                let db = try dbResult.get()
                try migrate(db, upTo: nil)
                return db
            }
            completion(result)
        }
    }

    /// Migrates from a connection with exclusive access, outside of any
    /// transaction.
    private func migrate(_ db: Database, upTo targetIdentifier: String?) throws {
        if eraseDatabaseOnSchemaChange, try hasSchemaChanges(db) {
            try db.erase()
        }

        let lastIndex: Int
        if let targetIdentifier {
            guard let index = registeredMigrations.firstIndex(where: { $0.identifier == targetIdentifier }) else {
                fatalError("undefined migration: \(String(reflecting: targetIdentifier))")
            }
            lastIndex = index
        } else {
            lastIndex = registeredMigrations.count - 1
        }

        try DatabaseMigrator.createMigrationsTableIfNeeded(db)
        var appliedIdentifiers = try appliedIdentifiers(db)

        if let targetIdentifier {
            // Migrations only run forward.
            // A later migration, or one it merges, is applied.
            let laterMigrations = registeredMigrations[(lastIndex + 1)...]
            let isBeyond = laterMigrations.contains { migration in
                appliedIdentifiers.contains(migration.identifier)
                    || !migration.mergedIdentifiers.isDisjoint(with: appliedIdentifiers)
            }
            if isBeyond {
                fatalError("database is already migrated beyond migration \(String(reflecting: targetIdentifier))")
            }
        }

        for migration in registeredMigrations.prefix(lastIndex + 1) {
            if appliedIdentifiers.contains(migration.identifier) {
                // Applied before: forget the merged migrations still recorded.
                let recordedMerged = migration.mergedIdentifiers.intersection(appliedIdentifiers)
                if !recordedMerged.isEmpty {
                    try db.inTransaction(.immediate) {
                        try Migration.forget(recordedMerged, db)
                        return .commit
                    }
                    appliedIdentifiers.subtract(recordedMerged)
                }
                continue
            }
            try migration.run(db, appliedIdentifiers: appliedIdentifiers)
            appliedIdentifiers.subtract(migration.mergedIdentifiers)
            appliedIdentifiers.insert(migration.identifier)
        }
    }

    /// Creates the table that remembers applied migrations, unless it exists.
    static func createMigrationsTableIfNeeded(_ db: Database) throws {
        if try migrationsTableExists(db) { return }
        try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
    }

    /// Whether the `grdb_migrations` table exists.
    static func migrationsTableExists(_ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations')")
            ?? false
    }

    // MARK: - Querying migrations

    /// The identifiers of all applied migrations, including the ones this
    /// migrator does not know (applied by another version of the app).
    public func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try DatabaseMigrator.migrationsTableExists(db) else {
            return []
        }
        return try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
    }

    /// The identifiers of the registered migrations that the database has
    /// applied, in registration order.
    public func appliedMigrations(_ db: Database) throws -> [String] {
        let appliedIdentifiers = try appliedIdentifiers(db)
        return migrations.filter { appliedIdentifiers.contains($0) }
    }

    /// The identifiers of the registered migrations that are completed, in
    /// registration order: applied, and preceded by applied migrations only.
    public func completedMigrations(_ db: Database) throws -> [String] {
        let appliedIdentifiers = try appliedIdentifiers(db)
        return Array(migrations.prefix { appliedIdentifiers.contains($0) })
    }

    /// Whether all registered migrations are applied. When false, the
    /// database is too old for this migrator.
    public func hasCompletedMigrations(_ db: Database) throws -> Bool {
        try completedMigrations(db).last == migrations.last
    }

    /// Whether the database has applied migrations that this migrator does
    /// not know, because a newer version of the app migrated it. When true,
    /// the database is too recent for this migrator.
    public func hasBeenSuperseded(_ db: Database) throws -> Bool {
        let knownIdentifiers = knownIdentifiers
        return try appliedIdentifiers(db).contains { !knownIdentifiers.contains($0) }
    }
}
