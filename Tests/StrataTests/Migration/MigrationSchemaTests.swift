import Foundation
import Strata
import StrataTestSupport
import Testing

/// What migrations see of the schema, and how schema changes are detected.
struct MigrationSchemaTests {
    /// A schema source that claims every view has an `id` primary key.
    private struct ViewSource: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? { ["id"] }
    }

    @Test("Migrations run without schema source, with a fresh schema cache")
    func noSchemaSourceDuringMigrations() throws {
        var configuration = Configuration()
        configuration.schemaSource = ViewSource()
        let dbQueue = try DatabaseQueue(configuration: configuration)
        let seen = LockedBox<[String]>([])
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            seen.append(db.schemaSource == nil ? "nil" : "source")
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "CREATE VIEW playerView AS SELECT * FROM player")
            // The view has no primary key without the schema source.
            seen.append((try? db.primaryKey("playerView")) == nil ? "no key" : "key")
        }
        try dbQueue.read { db throws in
            // Cache the absence of the table before migrating.
            #expect(try !db.tableExists("player"))
        }
        try migrator.migrate(dbQueue)
        #expect(seen.value == ["nil", "no key"])
        try dbQueue.read { db throws in
            #expect(db.schemaSource != nil)
            #expect(try db.tableExists("player"))
            #expect(try db.primaryKey("playerView").columns == ["id"])
        }
    }

    @Test("eraseDatabaseOnSchemaChange migrates a temporary file, so file controls apply")
    func schemaChangesOnAFile() throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // Persistent WAL is a file control: it fails on in-memory databases.
            var flag: CInt = 1
            let code = withUnsafeMutablePointer(to: &flag) {
                sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, $0)
            }
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        }
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"), configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.eraseDatabaseOnSchemaChange = true
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY)")
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try !migrator.hasSchemaChanges(db))
        }
        // A schema change that no migration made is detected, and erases the database.
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE extra(a)") }
        try dbQueue.read { db throws in
            #expect(try migrator.hasSchemaChanges(db))
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try !db.tableExists("extra"))
            #expect(try db.tableExists("player"))
        }
    }
}
