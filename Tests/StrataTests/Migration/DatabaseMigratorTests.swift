import Foundation
import Strata
import StrataTestSupport
import Testing

/// Migrates a database on a file of `directory` with `migrator`, and returns
/// a read-only queue on it.
private func makeReadOnlyQueue(_ directory: TemporaryDirectory, migratedBy migrator: DatabaseMigrator) throws
    -> DatabaseQueue
{
    let path = directory.path("db.sqlite")
    try migrator.migrate(DatabaseQueue(path: path))
    var config = Configuration()
    config.readonly = true
    return try DatabaseQueue(path: path, configuration: config)
}

struct DatabaseMigratorTests {
    @Test func newMigratorHasNoMigrations() throws {
        let migrator = DatabaseMigrator()
        #expect(migrator.migrations.isEmpty)
        #expect(migrator.eraseDatabaseOnSchemaChange == false)

        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db).isEmpty)
            #expect(try migrator.appliedIdentifiers(db).isEmpty)
            #expect(try migrator.completedMigrations(db).isEmpty)
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try migrator.hasBeenSuperseded(db) == false)
        }
    }

    @Test func migrationsRunInRegistrationOrder() throws {
        let log = LockedBox<[String]>([])
        var migrator = DatabaseMigrator()
        for identifier in ["b", "a", "c"] {
            migrator.registerMigration(identifier) { _ in log.append(identifier) }
        }
        #expect(migrator.migrations == ["b", "a", "c"])

        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        #expect(log.value == ["b", "a", "c"])
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["b", "a", "c"])
            #expect(try migrator.completedMigrations(db) == ["b", "a", "c"])
        }
    }

    @Test func appliedMigrationsAreSkipped() throws {
        let log = LockedBox<[String]>([])
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { _ in log.append("v1") }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue)
        #expect(log.value == ["v1"])

        // A new version of the app registers a new migration.
        migrator.registerMigration("v2") { _ in log.append("v2") }
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue)
        #expect(log.value == ["v1", "v2"])
    }

    @Test func migrationsTableSchema() throws {
        let dbQueue = try DatabaseQueue()
        try versionedMigrator(count: 1).migrate(dbQueue)
        try dbQueue.read { db throws in
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'grdb_migrations'")
            #expect(sql == "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") == ["v1"])
        }
    }

    @Test func eachMigrationRunsInItsOwnTransaction() throws {
        let dbQueue = try DatabaseQueue()
        let commits = LockedBox<[String]>([])
        var migrator = DatabaseMigrator()
        for identifier in ["v1", "v2"] {
            migrator.registerMigration(identifier) { db throws in
                #expect(db.isInsideTransaction)
                // The migration is not recorded yet.
                let recorded = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM grdb_migrations") ?? 0
                commits.append("\(identifier) sees \(recorded)")
                db.afterNextTransaction { _ in commits.append("commit \(identifier)") }
            }
        }
        try migrator.migrate(dbQueue)
        #expect(commits.value == ["v1 sees 0", "commit v1", "v2 sees 1", "commit v2"])
    }

    @Test func appliedIdentifiersIncludeUnknownMigrations() throws {
        let dbQueue = try DatabaseQueue()
        try versionedMigrator(count: 3).migrate(dbQueue)
        let oldMigrator = versionedMigrator(count: 2)
        try dbQueue.read { db throws in
            #expect(try oldMigrator.appliedIdentifiers(db) == ["v1", "v2", "v3"])
            #expect(try oldMigrator.appliedMigrations(db) == ["v1", "v2"])
            #expect(try oldMigrator.completedMigrations(db) == ["v1", "v2"])
            #expect(try oldMigrator.hasCompletedMigrations(db))
            #expect(try oldMigrator.hasBeenSuperseded(db))
        }
    }

    @Test func unknownAppliedMigrationsAreTolerated() throws {
        // A database migrated by a newer version of the app, opened by an
        // older one: the older migrator does not fail, and has nothing to do.
        let dbQueue = try DatabaseQueue()
        try versionedMigrator(count: 3).migrate(dbQueue)
        let oldMigrator = versionedMigrator(count: 2)
        try oldMigrator.migrate(dbQueue)
        try oldMigrator.migrate(dbQueue, upTo: "v2")
        try dbQueue.read { db throws in
            #expect(try oldMigrator.appliedIdentifiers(db) == ["v1", "v2", "v3"])
            #expect(try tableExists(db, "t3"))
        }
    }

    @Test func completedMigrationsStopAtTheFirstGap() throws {
        let dbQueue = try DatabaseQueue()
        // Apply v1 and v3 only.
        let partial = emptyMigrator("v1", "v3")
        try partial.migrate(dbQueue)

        let migrator = emptyMigrator("v1", "v2", "v3")
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["v1", "v3"])
            #expect(try migrator.completedMigrations(db) == ["v1"])
            #expect(try migrator.hasCompletedMigrations(db) == false)
            #expect(try migrator.hasBeenSuperseded(db) == false)
        }

        // Migrating applies the missing migration.
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try migrator.completedMigrations(db) == ["v1", "v2", "v3"])
            #expect(try migrator.hasCompletedMigrations(db))
        }
    }

    @Test func queryingADatabaseThatWasNeverMigrated() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = versionedMigrator()
        try dbQueue.read { db throws in
            #expect(try migrator.appliedIdentifiers(db).isEmpty)
            #expect(try migrator.appliedMigrations(db).isEmpty)
            #expect(try migrator.completedMigrations(db).isEmpty)
            #expect(try migrator.hasCompletedMigrations(db) == false)
            #expect(try migrator.hasBeenSuperseded(db) == false)
            #expect(try migrator.hasSchemaChanges(db) == false)
        }
    }

    @Test func migratorIsAValue() throws {
        let original = versionedMigrator(count: 1)
        var copy = original
        copy.registerMigration("v2") { _ in }
        copy.eraseDatabaseOnSchemaChange = true
        #expect(original.migrations == ["v1"])
        #expect(original.eraseDatabaseOnSchemaChange == false)
        #expect(copy.migrations == ["v1", "v2"])
    }

    @Test func migrationsCanUseTheDatabase() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 100])
        }
        migrator.registerMigration("v2") { db throws in
            try db.execute(sql: "UPDATE player SET score = score * 2")
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 200)
        }
    }

    @Test func migratingAReadOnlyDatabaseFails() throws {
        let directory = try TemporaryDirectory()
        let readOnlyQueue = try makeReadOnlyQueue(directory, migratedBy: versionedMigrator(count: 1))
        #expect(throws: DatabaseError.self) {
            try versionedMigrator(count: 2).migrate(readOnlyQueue)
        }
        // Read-only connections can still check the migrations.
        try readOnlyQueue.read { db throws in
            #expect(try versionedMigrator(count: 1).hasCompletedMigrations(db))
            #expect(try versionedMigrator(count: 2).hasCompletedMigrations(db) == false)
        }
    }

    @Test func readOnlyDatabaseAlreadyMigratedNeedsNoWrite() throws {
        let directory = try TemporaryDirectory()
        let readOnlyQueue = try makeReadOnlyQueue(directory, migratedBy: versionedMigrator(count: 2))
        let result = Result { try versionedMigrator(count: 2).migrate(readOnlyQueue) }
        // The migrations table already exists: nothing is written.
        #expect(throws: Never.self) { try result.get() }
    }

    @Test func sharedDatabaseWriterAndReaderChecks() throws {
        // Shared databases: the writer migrates, readers check the schema version.
        let directory = try TemporaryDirectory()
        let path = directory.path("shared.sqlite")
        let migrator = versionedMigrator(count: 2)

        let writer = try DatabaseQueue(path: path)
        try migrator.migrate(writer)
        #expect(try writer.read(migrator.hasBeenSuperseded) == false)

        var config = Configuration()
        config.readonly = true
        let reader = try DatabaseQueue(path: path, configuration: config)
        let usable = try reader.read { db -> Bool in
            if try migrator.hasBeenSuperseded(db) {
                return false  // Database is too recent
            } else if try migrator.hasCompletedMigrations(db) == false {
                return false  // Database is too old
            }
            return true
        }
        #expect(usable)
        #expect(try reader.read(versionedMigrator(count: 3).hasCompletedMigrations) == false)
        #expect(try reader.read(versionedMigrator(count: 1).hasBeenSuperseded))
    }
}
