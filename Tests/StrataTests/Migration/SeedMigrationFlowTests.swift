import Foundation
import Strata
import StrataTestSupport
import Testing

// Migration flows of the other seeds: views and INSTEAD OF triggers
// (seeds/002), the Point-Free episode (seeds/003), the v3 chapter (seeds/001).
// Record methods (`insert`, `updateChanges`, `fetchAll`) are written as the
// SQL they run.

/// The first migration of the Point-Free episode (seeds/003).
private func registerCreatePlayers(_ migrator: inout DatabaseMigrator) {
    migrator.registerMigration("Create 'players' table") { database in
        try database.create(table: "players") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("name", .text).notNull()
            table.column("createdAt", .datetime).notNull()
        }
    }
}

/// The second migration of the episode, which adds `column`: first written
/// with a typo, then fixed.
private func registerAddIsInjured(_ migrator: inout DatabaseMigrator, column: String) {
    migrator.registerMigration("Add 'isInjured' to 'players'") { database in
        try database.alter(table: "players") { table in
            table.add(column: column, .boolean).defaults(to: false)
        }
    }
}

struct SeedMigrationFlowTests {
    @Test func viewsAndInsteadOfTriggers() throws {
        // The migrations of seeds/002, from the kit (ViewRecordsFixture).
        var migrator = ViewRecordsFixture.migrator()
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        try dbQueue.write { db throws in
            try db.execute(
                sql: """
                    INSERT INTO team VALUES ('red', 'Red'), ('blue', 'Blue');
                    INSERT INTO player VALUES ('alice', 'Alice', 'red', 1);
                    INSERT INTO player VALUES ('bob', 'Bob', 'blue', 1);
                    INSERT INTO player VALUES ('craig', 'Craig', 'blue', 0);
                    """)
            let captains = try Row.fetchAll(db, sql: "SELECT * FROM captain ORDER BY id")
            #expect(
                captains == [
                    ["id": "alice", "name": "Alice", "teamId": "red"],
                    ["id": "bob", "name": "Bob", "teamId": "blue"],
                ])
            // One unique captain per team.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player VALUES ('dan', 'Dan', 'red', 1)")
            }
        }

        ViewRecordsFixture.registerTriggers(&migrator)
        // Apply the new migration
        try migrator.migrate(dbQueue, upTo: "Captain insert")
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO team VALUES ('green', 'Green')")
            // Diane is the captain
            try db.execute(sql: "INSERT INTO captain (id, name, teamId) VALUES ('diane', 'Diane', 'green')")
            // Well, no: Eugene is the captain
            try db.execute(sql: "INSERT INTO captain (id, name, teamId) VALUES ('eugene', 'Eugene', 'green')")
            let greenPlayers = try Row.fetchAll(
                db, sql: "SELECT id, isCaptain FROM player WHERE teamId = 'green' ORDER BY id")
            #expect(greenPlayers == [["id": "diane", "isCaptain": 0], ["id": "eugene", "isCaptain": 1]])
        }

        // Apply the new migration
        try migrator.migrate(dbQueue, upTo: "Captain update")
        try dbQueue.write { db throws in
            // Bob is now Bobby, the Red captain.
            try db.execute(sql: "UPDATE captain SET name = 'Bobby', teamId = 'red' WHERE id = 'bob'")
            let captains = try Row.fetchAll(db, sql: "SELECT * FROM captain WHERE teamId IN ('red', 'blue')")
            // Alice is no longer the Red captain.
            #expect(captains == [["id": "bob", "name": "Bobby", "teamId": "red"]])
        }
        try dbQueue.read { db throws in
            #expect(
                try migrator.appliedMigrations(db)
                    == ["Teams and players", "Read-only captains", "Captain insert", "Captain update"])
        }
    }

    @Test func pointFreeEpisodeFlow() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")

        // First launch.
        var migrator = DatabaseMigrator()
        registerCreatePlayers(&migrator)
        try migrator.migrate(DatabaseQueue(path: path))
        try DatabaseQueue(path: path).read { db throws in
            // A new grdb_migrations table with a single row.
            #expect(try String.fetchAll(db, sql: "SELECT * FROM grdb_migrations") == ["Create 'players' table"])
        }

        // Second launch, with a new migration (and a typo).
        registerAddIsInjured(&migrator, column: "isInured")
        try migrator.migrate(DatabaseQueue(path: path))
        try DatabaseQueue(path: path).read { db throws in
            let identifiers = try String.fetchAll(db, sql: "SELECT * FROM grdb_migrations ORDER BY identifier")
            #expect(identifiers == ["Add 'isInjured' to 'players'", "Create 'players' table"])
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('players')")
            #expect(columns.last == "isInured")
        }

        // Third launch: the typo is fixed in the applied migration, and the
        // database is erased because its schema changed.
        var fixed = DatabaseMigrator()
        #if DEBUG
            fixed.eraseDatabaseOnSchemaChange = true
        #else
            fixed.eraseDatabaseOnSchemaChange = true  // The test needs it in release builds too.
        #endif
        registerCreatePlayers(&fixed)
        registerAddIsInjured(&fixed, column: "isInjured")
        try fixed.migrate(DatabaseQueue(path: path))
        try DatabaseQueue(path: path).read { db throws in
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('players')")
            #expect(columns == ["id", "name", "createdAt", "isInjured"])
        }
    }

    @Test func chapterV3Flow() throws {
        // 1st migration, 2nd migration, then migrations for future versions.
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
                    CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT);
                    CREATE INDEX book_on_authorId ON book(authorId);
                    """)
        }
        migrator.registerMigration("v2") { db throws in
            try db.execute(sql: "ALTER TABLE author ADD COLUMN birthYear INTEGER")
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue, upTo: "v2")
        try migrator.migrate(dbQueue)  // or migrator.migrate(dbPool)

        // Check if a migration has been applied
        let appliedMigrations = try dbQueue.read(migrator.appliedMigrations)
        #expect(appliedMigrations.contains("v2"))

        // Add a NOT NULL constraint on player.name, in a migration with
        // deferred foreign key checks (the default since v4).
        migrator.registerMigration("Players") { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
                    CREATE TABLE score (id INTEGER PRIMARY KEY, playerId INTEGER NOT NULL REFERENCES player(id));
                    INSERT INTO player (id, name) VALUES (1, 'Arthur');
                    INSERT INTO score (playerId) VALUES (1);
                    """)
        }
        // (v3 spelled it `registerMigrationWithDeferredForeignKeyCheck`.)
        migrator.registerMigration("AddNotNullCheckOnName") { db in
            try db.create(table: "new_player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.execute(sql: "INSERT INTO new_player SELECT * FROM player")
            try db.drop(table: "player")
            try db.rename(table: "new_player", to: "player")
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM score") == 1)
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            #expect(try migrator.hasCompletedMigrations(db))
        }
    }
}
