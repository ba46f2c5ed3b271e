import Foundation
import Strata
import StrataTestSupport
import Testing

// The code samples of the "Migrations" article (GRDB 7 DocC, seeds/004).

/// The two migrations of the article overview.
private func overviewMigrator() -> DatabaseMigrator {
    var migrator = DatabaseMigrator()

    // 1st migration
    migrator.registerMigration("Create authors") { db in
        try db.create(table: "author") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("creationDate", .datetime)
            t.column("name", .text)
        }
    }

    // 2nd migration
    migrator.registerMigration("Add books and author.birthYear") { db in
        try db.create(table: "book") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("author").notNull()
            t.column("title", .text).notNull()
        }

        try db.alter(table: "author") { t in
            t.add(column: "birthYear", .integer)
        }
    }
    return migrator
}

/// The overview migrations, then a "Pets" migration whose `pet` table
/// refers to authors: the scaffolding of the partially checked migrations.
private func petsMigrator() -> DatabaseMigrator {
    var migrator = overviewMigrator()
    migrator.registerMigration("Pets") { db throws in
        try db.execute(sql: "CREATE TABLE pet (id INTEGER PRIMARY KEY, ownerId INTEGER REFERENCES author(id))")
    }
    return migrator
}

/// The overview migrations, then one that inserts an author and a book.
private func authorsAndBooksMigrator() -> DatabaseMigrator {
    var migrator = overviewMigrator()
    migrator.registerMigration("Some authors and books") { db throws in
        try db.execute(
            sql: """
                INSERT INTO author (id, name) VALUES (1, 'Herman Melville');
                INSERT INTO book (authorId, title) VALUES (1, 'Moby-Dick');
                """)
    }
    return migrator
}

struct MigrationsArticleTests {
    @Test func overviewMigratesAFileDatabase() throws {
        let directory = try TemporaryDirectory()
        let migrator = overviewMigrator()
        let dbQueue = try DatabaseQueue(path: directory.path("database.sqlite"))

        // Migrate the database up to the latest version
        try migrator.migrate(dbQueue)

        try dbQueue.read { db throws in
            #expect(try tableExists(db, "author"))
            #expect(try tableExists(db, "book"))
            let authorColumns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('author')")
            #expect(authorColumns == ["id", "creationDate", "name", "birthYear"])
            let identifiers = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
            #expect(identifiers == ["Create authors", "Add books and author.birthYear"])
            #expect(try migrator.hasCompletedMigrations(db))
        }

        // A new connection to the same file has nothing left to apply.
        let other = try DatabaseQueue(path: directory.path("database.sqlite"))
        try migrator.migrate(other)
        try other.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["Create authors", "Add books and author.birthYear"])
        }
    }

    @Test func migrateUpToASpecificVersion() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = versionedMigrator()
        try migrator.migrate(dbQueue, upTo: "v2")
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["v1", "v2"])
            #expect(try !tableExists(db, "t3"))
        }

        // Migrating to the same version again is fine.
        try migrator.migrate(dbQueue, upTo: "v2")
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["v1", "v2", "v3"])
        }
    }

    @Test func migrationsOnlyRunForward() async throws {
        // try migrator.migrate(dbQueue, upTo: "v2")
        // try migrator.migrate(dbQueue, upTo: "v1")
        // ^ fatal error: database is already migrated beyond migration "v1"
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            let migrator = versionedMigrator()
            try migrator.migrate(dbQueue, upTo: "v2")
            try migrator.migrate(dbQueue, upTo: "v1")
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(#"database is already migrated beyond migration "v1""#))
    }

    @Test func extraChecksForDeployedVersions() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = versionedMigrator(count: 2)

        func check(tooOld: Bool, tooNew: Bool) throws {
            try dbQueue.read { db throws in
                // Read-only apps or extensions may want to check if the database
                // lacks expected migrations:
                var databaseTooOld = false
                if try migrator.hasCompletedMigrations(db) == false {
                    // database too old
                    databaseTooOld = true
                }

                // Some apps may want to check if the database
                // contains unknown (future) migrations:
                var databaseTooNew = false
                if try migrator.hasBeenSuperseded(db) {
                    // database too new
                    databaseTooNew = true
                }
                #expect(databaseTooOld == tooOld)
                #expect(databaseTooNew == tooNew)
            }
        }

        try check(tooOld: true, tooNew: false)
        try migrator.migrate(dbQueue, upTo: "v1")
        try check(tooOld: true, tooNew: false)
        try migrator.migrate(dbQueue)
        try check(tooOld: false, tooNew: false)

        // A newer version of the app migrates further.
        var newerMigrator = migrator
        newerMigrator.registerMigration("v3") { db throws in
            try db.execute(sql: "CREATE TABLE t3 (id INTEGER PRIMARY KEY)")
        }
        try newerMigrator.migrate(dbQueue)
        try check(tooOld: false, tooNew: true)

        // The old app registers a migration that the database lacks.
        migrator.registerMigration("v2.1") { _ in }
        try check(tooOld: true, tooNew: true)
    }

    @Test func failingMigrationIsRolledBackAndStopsLaterMigrations() throws {
        struct MigrationError: Error {}
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db throws in
            try db.execute(sql: "CREATE TABLE t1 (id INTEGER PRIMARY KEY)")
        }
        migrator.registerMigration("v2") { db throws in
            try db.execute(sql: "CREATE TABLE t2 (id INTEGER PRIMARY KEY)")
            throw MigrationError()
        }
        migrator.registerMigration("v3") { db throws in
            try db.execute(sql: "CREATE TABLE t3 (id INTEGER PRIMARY KEY)")
        }
        #expect(throws: MigrationError.self) {
            try migrator.migrate(dbQueue)
        }
        try dbQueue.read { db throws in
            #expect(try tableExists(db, "t1"))
            #expect(try !tableExists(db, "t2"))
            #expect(try !tableExists(db, "t3"))
            #expect(try migrator.appliedMigrations(db) == ["v1"])
        }
    }

    @Test func failingSQLInMigrationIsRethrown() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db throws in
            try db.execute(sql: "CREATE TABLE t1 (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "CREATE TABLE t1 (id INTEGER PRIMARY KEY)")
        }
        let error = #expect(throws: DatabaseError.self) {
            try migrator.migrate(dbQueue)
        }
        #expect(error?.resultCode == .SQLITE_ERROR)
        #expect(error?.message == "table t1 already exists")
        try dbQueue.read { db throws in
            #expect(try !tableExists(db, "t1"))
            #expect(try migrator.appliedMigrations(db) == [])
        }
    }

    @Test func renameForeignKeyWithImmediateChecks() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("Teams") { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT NOT NULL);
                    INSERT INTO team VALUES (1, 'Red');
                    INSERT INTO player VALUES (1, 1, 'Arthur');
                    """)
        }

        // IMPORTANT: rename foreign keys with immediate foreign key checks.
        migrator.registerMigration("Guilds", foreignKeyChecks: .immediate) { db in
            try db.rename(table: "team", to: "guild")

            try db.alter(table: "player") { t in
                // Rename a foreign key
                t.rename(column: "teamId", to: "guildId")
            }
        }
        try migrator.migrate(dbQueue)

        try dbQueue.read { db throws in
            let foreignKey = try Row.fetchOne(
                db, sql: #"SELECT "table", "from", "to" FROM pragma_foreign_key_list('player')"#)
            #expect(foreignKey == ["table": "guild", "from": "guildId", "to": "id"])
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
        }
        try dbQueue.write { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (guildId, name) VALUES (2, 'Barbara')")
            }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        }
    }

    @Test func recreateATable() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = authorsAndBooksMigrator()
        migrator.registerMigration("Add NOT NULL check on author.name") { db in
            try db.create(table: "new_author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("creationDate", .datetime)
                t.column("name", .text).notNull()
                t.column("birthYear", .integer)  // Added by the overview migrations
            }
            try db.execute(sql: "INSERT INTO new_author SELECT * FROM author")
            try db.drop(table: "author")
            try db.rename(table: "new_author", to: "author")
        }
        try migrator.migrate(dbQueue)

        try dbQueue.write { db throws in
            // Books were not deleted by the drop of the author table, and
            // still refer to their author.
            #expect(try String.fetchOne(db, sql: "SELECT title FROM book") == "Moby-Dick")
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            let foreignKeyTable = try String.fetchOne(db, sql: #"SELECT "table" FROM pragma_foreign_key_list('book')"#)
            #expect(foreignKeyTable == "author")
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO author (name) VALUES (NULL)")
            }
        }
    }

    @Test func recreatingATableWithImmediateChecksFails() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = authorsAndBooksMigrator()
        // Migrations that run with `.immediate` foreign key checks can not
        // be used to recreate database tables.
        migrator.registerMigration("Recreate", foreignKeyChecks: .immediate) { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE new_author (id INTEGER PRIMARY KEY, creationDate DATETIME, name TEXT NOT NULL,
                      birthYear INTEGER);
                    INSERT INTO new_author SELECT * FROM author;
                    DROP TABLE author;
                    """)
        }
        let error = #expect(throws: DatabaseError.self) {
            try migrator.migrate(dbQueue)
        }
        #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        try dbQueue.read { db throws in
            #expect(
                try migrator.appliedMigrations(db) == [
                    "Create authors", "Add books and author.birthYear", "Some authors and books",
                ])
            #expect(try tableExists(db, "author"))
            #expect(try !tableExists(db, "new_author"))
        }
    }

    @Test func migrationsDefineTheSchemaWithStrings() throws {
        // RECOMMENDED: the migration only talks to the database, with strings.
        var migrator = DatabaseMigrator()
        migrator.registerMigration("Create authors") { db in
            // RECOMMENDED
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
            }
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in #expect(try tableExists(db, "author")) }
    }

    @Test func eraseDatabaseOnSchemaChangeSample() throws {
        var migrator = DatabaseMigrator()
        #if DEBUG
            // Speed up development by nuking the database when migrations change
            migrator.eraseDatabaseOnSchemaChange = true
        #endif
        #expect(migrator.eraseDatabaseOnSchemaChange == _isDebugAssertConfiguration())
    }

    @Test func fastMigrationWithImmediateChecks() throws {
        var migrator = overviewMigrator()
        migrator.registerMigration("Fast migration", foreignKeyChecks: .immediate) { db throws in
            // Foreign keys stay enabled during the migration.
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
            try db.execute(sql: "INSERT INTO author (id, name) VALUES (1, 'Melville')")
            try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (1, 'Moby-Dick')")
            // A violation fails at once.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (2, 'Unknown')")
            }
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book") == 1)
        }
    }

    @Test func fastButUncheckedMigration() throws {
        var migrator = overviewMigrator()
        migrator = migrator.disablingDeferredForeignKeyChecks()
        migrator.registerMigration("Fast but unchecked migration") { db throws in
            // Foreign keys are disabled, and violations are not checked.
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == false)
            try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (2, 'Unknown')")
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count == 1)
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }

    @Test func fastAndCheckedMigration() throws {
        var migrator = overviewMigrator()
        migrator = migrator.disablingDeferredForeignKeyChecks()
        migrator.registerMigration("Fast and checked migration", foreignKeyChecks: .immediate) { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
            try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (2, 'Unknown')")
        }
        let dbQueue = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) {
            try migrator.migrate(dbQueue)
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        try dbQueue.read { db throws in
            #expect(try migrator.hasCompletedMigrations(db) == false)
        }
    }

    @Test func partiallyCheckedMigration() throws {
        var migrator = petsMigrator()
        migrator = migrator.disablingDeferredForeignKeyChecks()
        migrator.registerMigration("Partially checked") { db throws in
            try db.execute(sql: "INSERT INTO pet (ownerId) VALUES (3)")
            try db.execute(sql: "INSERT INTO book (id, authorId, title) VALUES (1, 2, 'Moby-Dick')")

            // Throws an error and stops migrations if there exists a
            // foreign key violation in the 'book' table.
            try db.checkForeignKeys(in: "book")
        }
        let dbQueue = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) {
            try migrator.migrate(dbQueue)
        }
        #expect(
            error?.message?.hasPrefix("FOREIGN KEY constraint violation - from book(authorId) to author(id)") == true)
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["Create authors", "Add books and author.birthYear", "Pets"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pet") == 0)
        }
    }

    @Test func partiallyCheckedMigrationIgnoresOtherTables() throws {
        var migrator = petsMigrator()
        migrator = migrator.disablingDeferredForeignKeyChecks()
        migrator.registerMigration("Partially checked") { db throws in
            try db.execute(sql: "INSERT INTO pet (ownerId) VALUES (3)")
            try db.checkForeignKeys(in: "book")
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pet") == 1)
        }
    }

    @Test func deferredCheckErrorIsNicelyDetailed() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("Books") { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE author (id INTEGER PRIMARY KEY);
                    CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), name TEXT);
                    INSERT INTO book (id, authorId, name) VALUES (1, 2, 'Moby-Dick');
                    """)
        }
        let dbQueue = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) {
            try migrator.migrate(dbQueue)
        }
        // SQLite error 19: FOREIGN KEY constraint violation - from book(authorId) to author(id),
        // in [id:1 authorId:2 name:"Moby-Dick"]
        #expect(
            error?.description
                == #"SQLite error 19: FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:2 name:"Moby-Dick"]"#
        )
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        try dbQueue.read { db throws in
            #expect(try !tableExists(db, "book"))
            #expect(try migrator.appliedMigrations(db) == [])
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }
}
