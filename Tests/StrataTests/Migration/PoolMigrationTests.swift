import Foundation
import Strata
import StrataTestSupport
import Testing

/// Migrators work on any `DatabaseWriter`: database pools too.
struct PoolMigrationTests {
    @Test func migratePool() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        let migrator = versionedMigrator()
        try migrator.migrate(dbPool, upTo: "v2")
        #expect(try dbPool.read(migrator.appliedMigrations) == ["v1", "v2"])
        try migrator.migrate(dbPool)
        #expect(try dbPool.read(migrator.hasCompletedMigrations))
        #expect(try dbPool.read(migrator.hasBeenSuperseded) == false)
    }

    @Test func migratePoolAsync() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        let migrator = versionedMigrator()
        try await migrator.migrateAsync(dbPool)
        let completed = try await dbPool.read { db throws in try migrator.completedMigrations(db) }
        #expect(completed == ["v1", "v2", "v3"])
    }

    @Test func asyncMigratePoolWithCompletion() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        let migrator = versionedMigrator()
        let applied: [String] = try await withCheckedThrowingContinuation { continuation in
            migrator.asyncMigrate(dbPool) { result in
                continuation.resume(with: Result { try migrator.appliedMigrations(result.get()) })
            }
        }
        #expect(applied == ["v1", "v2", "v3"])
    }

    @Test func deferredForeignKeyChecksOnAPool() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        var migrator = DatabaseMigrator()
        migrator.registerMigration("Books") { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE author (id INTEGER PRIMARY KEY);
                    CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id));
                    """)
        }
        migrator.registerMigration("Violation") { db throws in
            try db.execute(sql: "INSERT INTO book VALUES (1, 2)")
        }
        #expect(throws: DatabaseError.self) {
            try migrator.migrate(dbPool)
        }
        try dbPool.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["Books"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book") == 0)
        }
        try dbPool.writeWithoutTransaction { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }

    @Test func eraseDatabaseOnSchemaChangeOnAPool() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db throws in
            try db.execute(
                sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, nmae TEXT); INSERT INTO player DEFAULT VALUES")
        }
        try migrator.migrate(DatabasePool(path: path))

        var fixed = DatabaseMigrator()
        fixed.eraseDatabaseOnSchemaChange = true
        fixed.registerMigration("v1") { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
        }
        let dbPool = try DatabasePool(path: path)
        // A reader opened before the migration sees the new schema after.
        #expect(try dbPool.read { db throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        try fixed.migrate(dbPool)
        try dbPool.read { db throws in
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('player')")
            #expect(columns == ["id", "name"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
            #expect(try fixed.hasSchemaChanges(db) == false)
        }
    }

    @Test func readersWaitForTheMigration() async throws {
        // Migrations run in a barrier: a read scheduled during a migration
        // sees the migrated database.
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        var migrator = DatabaseMigrator()
        for version in 1...20 {
            migrator.registerMigration("v\(version)") { db throws in
                try db.execute(sql: "CREATE TABLE t\(version) (id INTEGER PRIMARY KEY)")
            }
        }
        let finalMigrator = migrator
        let done = try await withThrowingTaskGroup(of: Bool?.self) { group in
            group.addTask {
                try await finalMigrator.migrateAsync(dbPool)
                return nil
            }
            group.addTask {
                try await dbPool.read { db throws in
                    let count = try finalMigrator.appliedMigrations(db).count
                    return count == 0 || count == 20
                }
            }
            var results: [Bool] = []
            for try await result in group {
                if let result { results.append(result) }
            }
            return results
        }
        #expect(done == [true])
    }
}
