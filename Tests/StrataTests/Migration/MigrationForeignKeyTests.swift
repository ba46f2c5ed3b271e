import Foundation
import Strata
import StrataTestSupport
import Testing

/// Creates `author` and `book` tables, with a foreign key from book to author.
private func registerAuthorsAndBooks(_ migrator: inout DatabaseMigrator) {
    migrator.registerMigration("Authors and books") { db throws in
        try db.execute(
            sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT);
                """)
    }
}

/// The database error that `migrator` throws as it migrates `dbQueue`; nil,
/// with an issue recorded, when it throws none.
private func migrationError(
    _ migrator: DatabaseMigrator, in dbQueue: DatabaseQueue, sourceLocation: SourceLocation = #_sourceLocation
) -> DatabaseError? {
    #expect(throws: DatabaseError.self, sourceLocation: sourceLocation) { try migrator.migrate(dbQueue) }
}

struct MigrationForeignKeyTests {
    @Test func deferredMigrationsDisableForeignKeys() throws {
        var migrator = DatabaseMigrator()
        registerAuthorsAndBooks(&migrator)
        migrator.registerMigration("Deferred") { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == false)
            // A temporary violation is fixed before the end of the migration.
            try db.execute(sql: "INSERT INTO book (id, authorId, title) VALUES (1, 1, 'Moby-Dick')")
            try db.execute(sql: "INSERT INTO author (id, name) VALUES (1, 'Melville')")
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book") == 1)
        }
    }

    @Test func deferredViolationFailsTheMigration() throws {
        var migrator = DatabaseMigrator()
        registerAuthorsAndBooks(&migrator)
        migrator.registerMigration("Violation") { db throws in
            try db.execute(sql: "INSERT INTO author (id, name) VALUES (1, 'Melville')")
            try db.execute(sql: "INSERT INTO book (id, authorId, title) VALUES (7, 2, 'Unknown')")
        }
        migrator.registerMigration("Later") { db throws in
            try db.execute(sql: "CREATE TABLE later (id INTEGER PRIMARY KEY)")
        }
        let dbQueue = try DatabaseQueue()
        let error = migrationError(migrator, in: dbQueue)
        #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(
            error?.message
                == #"FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:7 authorId:2 title:"Unknown"]"#
        )
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["Authors and books"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM author") == 0)
            #expect(try !tableExists(db, "later"))
            // Foreign keys are enabled again after the failure.
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }

    @Test func deferredCheckCoversTheWholeDatabase() throws {
        // A violation committed by an unchecked migration makes the next
        // checked migration fail, even if it does not touch the tables.
        var migrator = DatabaseMigrator()
        registerAuthorsAndBooks(&migrator)
        var unchecked = migrator.disablingDeferredForeignKeyChecks()
        unchecked.registerMigration("Unchecked violation") { db throws in
            try db.execute(sql: "INSERT INTO book (id, authorId) VALUES (1, 2)")
        }
        let dbQueue = try DatabaseQueue()
        try unchecked.migrate(dbQueue)

        migrator.registerMigration("Unchecked violation") { _ in }
        migrator.registerMigration("Checked") { db throws in
            try db.execute(sql: "CREATE TABLE other (id INTEGER PRIMARY KEY)")
        }
        let error = migrationError(migrator, in: dbQueue)
        #expect(
            error?.message
                == "FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:2 title:NULL]"
        )
        try dbQueue.read { db throws in
            #expect(try migrator.completedMigrations(db) == ["Authors and books", "Unchecked violation"])
        }
    }

    /// A migration whose rows violate a foreign key, and the message of the
    /// error it throws.
    struct Violation: Sendable, CustomStringConvertible {
        /// The identifier of the migration.
        var description: String
        var sql: String
        var message: String
    }

    @Test(
        "The message of a violation names the columns of a key to an implicit primary key, or of a WITHOUT ROWID table",
        arguments: [
            Violation(
                description: "Composite",
                sql: """
                    CREATE TABLE parent (a INTEGER, b INTEGER, PRIMARY KEY (a, b));
                    CREATE TABLE child (id INTEGER PRIMARY KEY, pa INTEGER, pb INTEGER,
                      FOREIGN KEY (pa, pb) REFERENCES parent);
                    INSERT INTO child VALUES (1, 2, 3);
                    """,
                message: "FOREIGN KEY constraint violation - from child(pa, pb) to parent(a, b), in [id:1 pa:2 pb:3]"),
            Violation(
                description: "Without rowid",
                sql: """
                    CREATE TABLE parent (id INTEGER PRIMARY KEY);
                    CREATE TABLE child (code TEXT PRIMARY KEY, parentId INTEGER REFERENCES parent(id)) WITHOUT ROWID;
                    INSERT INTO child VALUES ('a', 2);
                    """,
                message: "FOREIGN KEY constraint violation - from child(parentId) to parent(id)"),
        ])
    func violationMessage(_ violation: Violation) throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(violation.description) { db throws in try db.execute(sql: violation.sql) }
        let error = try migrationError(migrator, in: DatabaseQueue())
        #expect(error?.message == violation.message)
    }

    @Test func immediateMigrationsKeepForeignKeys() throws {
        var migrator = DatabaseMigrator()
        registerAuthorsAndBooks(&migrator)
        migrator.registerMigration("Immediate", foreignKeyChecks: .immediate) { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
            try db.execute(sql: "INSERT INTO book (id, authorId, title) VALUES (1, 1, 'Moby-Dick')")
        }
        let dbQueue = try DatabaseQueue()
        let error = migrationError(migrator, in: dbQueue)
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(error?.message == "FOREIGN KEY constraint failed")
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["Authors and books"])
        }
    }

    @Test func disablingDeferredChecksOnlyAffectsLaterRegistrations() throws {
        var migrator = DatabaseMigrator()
        registerAuthorsAndBooks(&migrator)
        migrator.registerMigration("Checked") { db throws in
            try db.execute(sql: "INSERT INTO book (id, authorId) VALUES (1, 2)")
        }
        migrator = migrator.disablingDeferredForeignKeyChecks()
        migrator.registerMigration("Unchecked") { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == false)
            try db.execute(sql: "INSERT INTO book (id, authorId) VALUES (2, 3)")
        }
        let dbQueue = try DatabaseQueue()
        #expect(throws: DatabaseError.self) {
            try migrator.migrate(dbQueue)
        }
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["Authors and books"])
        }
    }

    @Test func disablingDeferredChecksReturnsACopy() throws {
        var migrator = DatabaseMigrator()
        registerAuthorsAndBooks(&migrator)
        let unchecked = migrator.disablingDeferredForeignKeyChecks()
        #expect(unchecked.migrations == migrator.migrations)
        // The original migrator still checks its new migrations.
        migrator.registerMigration("Checked") { db throws in
            try db.execute(sql: "INSERT INTO book (id, authorId) VALUES (1, 2)")
        }
        #expect(throws: DatabaseError.self) {
            try migrator.migrate(DatabaseQueue())
        }
    }

    @Test func connectionWithoutForeignKeysSkipsChecks() throws {
        var config = Configuration()
        config.foreignKeysEnabled = false
        let dbQueue = try DatabaseQueue(configuration: config)
        var migrator = DatabaseMigrator()
        registerAuthorsAndBooks(&migrator)
        migrator.registerMigration("Violation") { db throws in
            try db.execute(sql: "INSERT INTO book (id, authorId) VALUES (1, 2)")
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == false)
            #expect(try migrator.hasCompletedMigrations(db))
        }
    }

    @Test func errorDescriptionShowsTheRowEvenWithPrivateArguments() throws {
        var migrator = DatabaseMigrator()
        registerAuthorsAndBooks(&migrator)
        migrator.registerMigration("Violation") { db throws in
            try db.execute(sql: "INSERT INTO book (id, authorId, title) VALUES (1, 2, 'Moby-Dick')")
        }
        let error = try migrationError(migrator, in: DatabaseQueue())
        #expect(error?.sql == nil)
        #expect(
            error.map(String.init(describing:))
                == #"SQLite error 19: FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:2 title:"Moby-Dick"]"#
        )
    }
}
