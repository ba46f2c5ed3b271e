import Strata
import StrataTestSupport
import Testing

/// Runs the samples of `Sources/Strata/Strata.docc/Migrations.md`: each
/// ```swift block of the article is a piece of this file (`ArticleSampleTests`
/// checks it).
struct MigrationsGuideTests {
    @Test func registerAndMigrate() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
        }
        migrator.registerMigration("v2") { db in
            try db.alter(table: "player") { t in
                t.add(column: "score", .integer).notNull().defaults(to: 0)
            }
        }

        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)

        try dbQueue.read { db in
            let applied = try migrator.appliedMigrations(db)  // ["v1", "v2"]
            let upToDate = try migrator.hasCompletedMigrations(db)  // true
            #expect(applied == ["v1", "v2"])
            #expect(upToDate)
            #expect(try db.columns(in: "player").map(\.name) == ["id", "name", "score"])
        }

        // A later version of the app registers one more migration: only it runs.
        migrator.registerMigration("v3") { db in
            try db.create(index: "player_on_score", on: "player", columns: ["score"])
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["v1", "v2", "v3"])
            #expect(try db.indexes(on: "player").map(\.name) == ["player_on_score"])
        }
    }

    @Test func migrateUpTo() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in t.autoIncrementedPrimaryKey("id") }
        }
        migrator.registerMigration("v2") { db in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue, upTo: "v1")  // v2 waits
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["v1"])
            #expect(try !db.tableExists("team"))
        }
    }

    @Test func failedMigrationIsRolledBack() throws {
        struct Failure: Error {}
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in t.autoIncrementedPrimaryKey("id") }
            throw Failure()
        }
        let dbQueue = try DatabaseQueue()
        #expect(throws: Failure.self) { try migrator.migrate(dbQueue) }
        try dbQueue.read { db throws in
            #expect(try !db.tableExists("player"))
            #expect(try migrator.appliedMigrations(db) == [])
        }
    }

    @Test func eraseOnSchemaChange() throws {
        let dbQueue = try DatabaseQueue()
        var first = DatabaseMigrator()
        first.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        try first.migrate(dbQueue)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
        }

        // During development, v1 was edited: a column was added.
        var migrator = DatabaseMigrator()
        #if DEBUG
            migrator.eraseDatabaseOnSchemaChange = true
        #endif
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("score", .integer)
            }
        }
        try migrator.migrate(dbQueue)

        try dbQueue.read { db throws in
            #if DEBUG
                #expect(try db.columns(in: "player").map(\.name) == ["id", "name", "score"])
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
            #else
                #expect(try db.columns(in: "player").map(\.name) == ["id", "name"])
            #endif
        }
    }

    @Test func migrateAsync() async throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
        }
        let dbQueue = try DatabaseQueue()
        try await migrator.migrateAsync(dbQueue)  // does not block the calling task
        let migrated = try await dbQueue.read { [migrator] db in try migrator.hasCompletedMigrations(db) }
        #expect(migrated)
    }
}
