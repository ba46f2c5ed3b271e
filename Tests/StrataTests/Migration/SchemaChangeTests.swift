import Foundation
import Strata
import StrataTestSupport
import Testing

/// A migrator with one migration that creates the `player` table with the
/// given column definitions.
private func playerMigrator(_ columns: String, erasing: Bool = true) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.eraseDatabaseOnSchemaChange = erasing
    migrator.registerMigration("Create players") { db throws in
        try db.execute(sql: "CREATE TABLE player (\(columns))")
    }
    return migrator
}

/// A migrator that erases the database on schema change, with one
/// migration "v1" that runs `sql`.
private func erasingMigrator(_ sql: String) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.eraseDatabaseOnSchemaChange = true
    migrator.registerMigration("v1") { db throws in try db.execute(sql: sql) }
    return migrator
}

/// What ``migrateTwice(_:_:runningBetween:)`` sees once done.
private struct TwiceMigrated: Equatable {
    var hasSchemaChanges: Bool
    var count: Int
}

/// Migrates `dbQueue`, runs `sql`, and migrates again. Returns whether the
/// migrator then sees schema changes, and the number of rows in `t`.
private func migrateTwice(
    _ migrator: DatabaseMigrator, _ dbQueue: DatabaseQueue, runningBetween sql: String
) throws -> TwiceMigrated {
    try migrator.migrate(dbQueue)
    try dbQueue.write { db throws in try db.execute(sql: sql) }
    try migrator.migrate(dbQueue)
    return try dbQueue.read { db throws in
        TwiceMigrated(
            hasSchemaChanges: try migrator.hasSchemaChanges(db),
            count: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!)
    }
}

/// Whether `migrator` sees schema changes in `dbQueue`, asked before it
/// migrates `dbQueue`.
private func hasSchemaChangesThenMigrate(_ migrator: DatabaseMigrator, _ dbQueue: DatabaseQueue) throws -> Bool {
    let hasSchemaChanges = try dbQueue.read { db throws in try migrator.hasSchemaChanges(db) }
    try migrator.migrate(dbQueue)
    return hasSchemaChanges
}

struct SchemaChangeTests {
    @Test func unchangedMigrationsKeepTheData() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = playerMigrator("id INTEGER PRIMARY KEY, name TEXT")
        try migrator.migrate(dbQueue)
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        #expect(try hasSchemaChangesThenMigrate(migrator, dbQueue) == false)
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
        }
    }

    @Test func changedMigrationErasesAndMigratesAgain() throws {
        // The "isInured" typo of the Point-Free episode (seeds/003), fixed in
        // an already applied migration.
        let dbQueue = try DatabaseQueue()
        var migrator = playerMigrator("id INTEGER PRIMARY KEY, name TEXT NOT NULL, createdAt DATETIME NOT NULL")
        migrator.registerMigration("Add 'isInjured' to 'players'") { db throws in
            try db.execute(sql: "ALTER TABLE player ADD COLUMN isInured BOOLEAN DEFAULT 0")
        }
        try migrator.migrate(dbQueue)
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO player (name, createdAt) VALUES ('Arthur', '2024-01-01')")
        }

        var fixed = playerMigrator("id INTEGER PRIMARY KEY, name TEXT NOT NULL, createdAt DATETIME NOT NULL")
        fixed.registerMigration("Add 'isInjured' to 'players'") { db throws in
            try db.execute(sql: "ALTER TABLE player ADD COLUMN isInjured BOOLEAN DEFAULT 0")
        }
        #expect(try hasSchemaChangesThenMigrate(fixed, dbQueue))
        try dbQueue.read { db throws in
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('player')")
            #expect(columns == ["id", "name", "createdAt", "isInjured"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
            #expect(try fixed.appliedMigrations(db) == ["Create players", "Add 'isInjured' to 'players'"])
            #expect(try fixed.hasSchemaChanges(db) == false)
        }
    }

    @Test func changedMigrationIsKeptWithoutTheOption() throws {
        let dbQueue = try DatabaseQueue()
        try playerMigrator("id INTEGER PRIMARY KEY, nmae TEXT", erasing: false).migrate(dbQueue)
        let fixed = playerMigrator("id INTEGER PRIMARY KEY, name TEXT", erasing: false)
        #expect(try hasSchemaChangesThenMigrate(fixed, dbQueue))
        try dbQueue.read { db throws in
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('player')")
            #expect(columns == ["id", "nmae"])
        }
    }

    @Test func removedMigrationErasesTheDatabase() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = versionedMigrator(count: 3)
        try migrator.migrate(dbQueue)

        // "v3" is renamed to "v3-bis".
        migrator = versionedMigrator(count: 2)
        migrator.eraseDatabaseOnSchemaChange = true
        migrator.registerMigration("v3-bis") { db throws in
            try db.execute(sql: "CREATE TABLE t3 (id INTEGER PRIMARY KEY)")
        }
        #expect(try hasSchemaChangesThenMigrate(migrator, dbQueue))
        try dbQueue.read { db throws in
            #expect(try migrator.appliedIdentifiers(db) == ["v1", "v2", "v3-bis"])
        }
    }

    @Test func newMigrationsAreNotSchemaChanges() throws {
        let dbQueue = try DatabaseQueue()
        try versionedMigrator(count: 2).migrate(dbQueue)
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO t1 DEFAULT VALUES")
        }
        var migrator = versionedMigrator(count: 3)
        migrator.eraseDatabaseOnSchemaChange = true
        #expect(try hasSchemaChangesThenMigrate(migrator, dbQueue) == false)
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t1") == 1)
            #expect(try tableExists(db, "t3"))
        }
    }

    @Test func changedIndexesTriggersAndViewsAreSchemaChanges() throws {
        let base = "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);"
        let variants = [
            ("CREATE INDEX player_on_name ON player(name)", "CREATE INDEX player_on_name ON player(score)"),
            ("CREATE VIEW v AS SELECT name FROM player", "CREATE VIEW v AS SELECT score FROM player"),
            (
                "CREATE TRIGGER tr AFTER INSERT ON player BEGIN SELECT 1; END",
                "CREATE TRIGGER tr AFTER DELETE ON player BEGIN SELECT 1; END"
            ),
        ]
        for (original, changed) in variants {
            let dbQueue = try DatabaseQueue()
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db throws in try db.execute(sql: base + original) }
            try migrator.migrate(dbQueue)

            var changedMigrator = DatabaseMigrator()
            changedMigrator.registerMigration("v1") { db throws in try db.execute(sql: base + changed) }
            try dbQueue.read { db throws in
                #expect(try migrator.hasSchemaChanges(db) == false)
                #expect(try changedMigrator.hasSchemaChanges(db))
            }
        }
    }

    @Test func dataChangesAreNotSchemaChanges() throws {
        let migrator = erasingMigrator(
            "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT); INSERT INTO t DEFAULT VALUES")
        #expect(
            try migrateTwice(migrator, DatabaseQueue(), runningBetween: "INSERT INTO t DEFAULT VALUES")
                == TwiceMigrated(hasSchemaChanges: false, count: 2))
    }

    @Test func unappliedMigrationsDoNotCount() throws {
        // The comparison only replays the migrations that the database applied.
        let dbQueue = try DatabaseQueue()
        var migrator = versionedMigrator(count: 3)
        try migrator.migrate(dbQueue, upTo: "v1")
        migrator.eraseDatabaseOnSchemaChange = true
        try dbQueue.read { db throws in
            #expect(try migrator.hasSchemaChanges(db) == false)
        }
    }

    @Test func freshDatabaseUsesTheConfigurationFunctions() throws {
        // Migrations that use custom collations also run on the fresh database.
        var config = Configuration()
        config.prepareDatabase { db throws in
            db.add(collation: DatabaseCollation("reversed", function: { lhs, rhs in rhs.compare(lhs) }))
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        let migrator = erasingMigrator("CREATE TABLE t (name TEXT COLLATE reversed); CREATE INDEX t_name ON t(name)")
        #expect(
            try migrateTwice(migrator, dbQueue, runningBetween: "INSERT INTO t VALUES ('a')")
                == TwiceMigrated(hasSchemaChanges: false, count: 1))
    }

    @Test func erasingAFileDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try playerMigrator("id INTEGER PRIMARY KEY, nmae TEXT").migrate(DatabaseQueue(path: path))

        let dbQueue = try DatabaseQueue(path: path)
        try playerMigrator("id INTEGER PRIMARY KEY, name TEXT").migrate(dbQueue)
        try dbQueue.read { db throws in
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('player')")
            #expect(columns == ["id", "name"])
        }
    }

    @Test func eraseWithForeignKeys() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.eraseDatabaseOnSchemaChange = true
        migrator.registerMigration("v1") { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE author (id INTEGER PRIMARY KEY);
                    CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id));
                    INSERT INTO author VALUES (1);
                    INSERT INTO book VALUES (1, 1);
                    """)
        }
        try migrator.migrate(dbQueue)

        var changed = DatabaseMigrator()
        changed.eraseDatabaseOnSchemaChange = true
        changed.registerMigration("v1") { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
                    CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id));
                    """)
        }
        try changed.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book") == 0)
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }
}
