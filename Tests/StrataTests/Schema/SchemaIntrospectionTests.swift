import Foundation
import Strata
import StrataTestSupport
import Testing

struct SchemaIntrospectionTests {
    func makeLibraryQueue() throws -> DatabaseQueue {
        try inMemoryDatabase(
            """
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'Anonymous');
            CREATE TABLE book (
                id INTEGER PRIMARY KEY,
                authorId INTEGER REFERENCES author(id),
                name TEXT);
            CREATE INDEX book_on_authorId ON book(authorId);
            CREATE VIEW bookName AS SELECT id, name FROM book;
            CREATE TRIGGER bookTrigger AFTER INSERT ON book BEGIN SELECT 1; END;
            """)
    }

    @Test func existenceChecks() throws {
        try makeLibraryQueue().read { db throws in
            #expect(try db.tableExists("book"))
            #expect(try db.tableExists("BOOK"))
            #expect(try db.tableExists("book", in: "main"))
            #expect(try !db.tableExists("book", in: "temp"))
            #expect(try !db.tableExists("missing"))
            #expect(try !db.tableExists("bookName"))
            #expect(try db.tableExists("sqlite_master"))
            #expect(try db.viewExists("bookName"))
            #expect(try !db.viewExists("book"))
            #expect(try db.triggerExists("bookTrigger"))
            #expect(try !db.triggerExists("book"))
        }
    }

    @Test func unknownSchemaThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws -> Void in
            #expect(throws: DatabaseError.self) { _ = try db.tableExists("book", in: "missing") }
        }
    }

    @Test func tempAndAttachedSchemas() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "ATTACH DATABASE ? AS other", arguments: [directory.path("other.sqlite")])
            try db.execute(sql: "CREATE TABLE other.remote (a, b)")
            try db.execute(sql: "CREATE TEMP TABLE scratch (id INTEGER PRIMARY KEY)")
            #expect(try db.tableExists("remote"))
            #expect(try db.tableExists("remote", in: "other"))
            #expect(try !db.tableExists("remote", in: "main"))
            #expect(try db.tableExists("scratch", in: "temp"))
            #expect(try db.columns(in: "remote").map(\.name) == ["a", "b"])
            #expect(try db.primaryKey("scratch").rowIDColumn == "id")
        }
    }

    @Test func columns() throws {
        try makeLibraryQueue().read { db throws in
            let columns = try db.columns(in: "author")
            #expect(columns.map(\.name) == ["id", "name"])
            #expect(columns.map(\.type) == ["INTEGER", "TEXT"])
            #expect(columns.map(\.isNotNull) == [false, true])
            #expect(columns.map(\.defaultValueSQL) == [nil, "'Anonymous'"])
            #expect(columns.map(\.primaryKeyIndex) == [1, 0])
            #expect(try db.columns(in: "bookName").map(\.name) == ["id", "name"])
        }
    }

    @Test func columnsIncludeGeneratedColumns() throws {
        try inMemoryWrite("CREATE TABLE t (a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2))") { db throws in
            #expect(try db.columns(in: "t").map(\.name) == ["a", "b"])
        }
    }

    @Test func columnsOfUnknownTableThrow() throws {
        try DatabaseQueue().read { db throws in
            do {
                _ = try db.columns(in: "missing")
                Issue.record("Expected error")
            } catch let error as DatabaseError {
                #expect(error.message == "no such table: missing")
            }
            #expect(throws: DatabaseError.self) { try db.primaryKey("missing") }
            #expect(throws: DatabaseError.self) { try db.foreignKeys(on: "missing") }
            #expect(throws: DatabaseError.self) { try db.indexes(on: "missing") }
            #expect(throws: DatabaseError.self) { try db.foreignKeyViolations(in: "missing") }
            #expect(throws: DatabaseError.self) { try db.checkForeignKeys(in: "missing") }
        }
    }

    @Test func primaryKeys() throws {
        try inMemoryWrite(
            """
            CREATE TABLE hidden (name TEXT);
            CREATE TABLE aliased (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE uuid (uuid TEXT PRIMARY KEY);
            CREATE TABLE composite (a INTEGER, b TEXT, PRIMARY KEY (b, a));
            CREATE TABLE withoutRowID (id INTEGER PRIMARY KEY) WITHOUT ROWID;
            """
        ) { db throws in
            let hidden = try db.primaryKey("hidden")
            #expect(hidden.columns == ["rowid"])
            #expect(hidden.isRowID)
            #expect(hidden.rowIDColumn == nil)

            let aliased = try db.primaryKey("aliased")
            #expect(aliased.columns == ["id"])
            #expect(aliased.isRowID)
            #expect(aliased.rowIDColumn == "id")

            let uuid = try db.primaryKey("uuid")
            #expect(uuid.columns == ["uuid"])
            #expect(!uuid.isRowID)
            #expect(uuid.rowIDColumn == nil)

            #expect(try db.primaryKey("composite").columns == ["b", "a"])

            let withoutRowID = try db.primaryKey("withoutRowID")
            #expect(withoutRowID.columns == ["id"])
            #expect(!withoutRowID.isRowID)
        }
    }

    struct CaptainSchemaSource: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            view.name == "captain" ? ["id"] : nil
        }
    }

    struct OtherSchemaSource: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            view.name == "other" ? ["code"] : nil
        }
    }

    @Test func viewPrimaryKeyNeedsSchemaSource() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE player (id TEXT, code TEXT); CREATE VIEW captain AS SELECT * FROM player")
            #expect(throws: DatabaseError.self) { try db.primaryKey("captain") }
            let columns = try db.withSchemaSource(CaptainSchemaSource()) {
                try db.primaryKey("captain").columns
            }
            #expect(columns == ["id"])
        }
    }

    @Test func configurationSchemaSource() throws {
        var config = Configuration()
        config.schemaSource = OtherSchemaSource().then(CaptainSchemaSource())
        try DatabaseQueue(configuration: config).write { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE player (id TEXT, code TEXT);
                    CREATE VIEW captain AS SELECT * FROM player;
                    CREATE VIEW other AS SELECT * FROM player;
                    CREATE VIEW none AS SELECT * FROM player;
                    """)
            #expect(try db.primaryKey("captain").columns == ["id"])
            #expect(try db.primaryKey("other").columns == ["code"])
            #expect(throws: DatabaseError.self) { try db.primaryKey("none") }
        }
    }

    @Test func schemaIDs() {
        #expect(DatabaseSchemaID.main.name == "main")
        #expect(DatabaseSchemaID.temp.name == "temp")
        #expect(DatabaseSchemaID.attached("x").name == "x")
        #expect(DatabaseSchemaID.main.schemaTableName == "sqlite_master")
        #expect(DatabaseSchemaID.temp.schemaTableName == "sqlite_temp_master")
        #expect(DatabaseSchemaID.attached("x").schemaTableName == "\"x\".sqlite_master")
        #expect(DatabaseObjectID(name: "t", schemaID: .main) == DatabaseObjectID(name: "t", schemaID: .main))
    }

    @Test func foreignKeys() throws {
        try inMemoryWrite(
            """
            CREATE TABLE parent (a TEXT, b TEXT, PRIMARY KEY (a, b));
            CREATE TABLE author (id INTEGER PRIMARY KEY);
            CREATE TABLE child (
                authorId INTEGER REFERENCES author,
                pa TEXT, pb TEXT,
                FOREIGN KEY (pa, pb) REFERENCES parent(a, b));
            """
        ) { db throws in
            let foreignKeys = try db.foreignKeys(on: "child")
            #expect(foreignKeys.count == 2)
            let toAuthor = try #require(foreignKeys.first { $0.destinationTable == "author" })
            #expect(toAuthor.originColumns == ["authorId"])
            #expect(toAuthor.destinationColumns == ["id"])
            let toParent = try #require(foreignKeys.first { $0.destinationTable == "parent" })
            #expect(toParent.originColumns == ["pa", "pb"])
            #expect(toParent.destinationColumns == ["a", "b"])
            #expect(toParent.mapping.map(\.origin) == ["pa", "pb"])
            #expect(try db.foreignKeys(on: "author").isEmpty)
        }
    }

    @Test func indexes() throws {
        try inMemoryWrite(
            """
            CREATE TABLE player (
                uuid TEXT PRIMARY KEY,
                email TEXT UNIQUE,
                teamId INTEGER,
                position INTEGER);
            CREATE INDEX player_on_team ON player(teamId);
            CREATE UNIQUE INDEX player_on_team_position ON player(teamId, position);
            CREATE INDEX player_on_expression ON player(position * 2);
            """
        ) { db throws in
            let indexes = try db.indexes(on: "player")
            #expect(Set(indexes.map(\.name)).count == 4)
            let byTeam = try #require(indexes.first { $0.name == "player_on_team" })
            #expect(byTeam.columns == ["teamId"])
            #expect(!byTeam.isUnique)
            #expect(byTeam.origin == .createIndex)
            let byTeamPosition = try #require(indexes.first { $0.name == "player_on_team_position" })
            #expect(byTeamPosition.columns == ["teamId", "position"])
            #expect(byTeamPosition.isUnique)
            let email = try #require(indexes.first { $0.columns == ["email"] })
            #expect(email.origin == .uniqueConstraint)
            #expect(email.isUnique)
            let primaryKey = try #require(indexes.first { $0.columns == ["uuid"] })
            #expect(primaryKey.origin == .primaryKeyConstraint)
            #expect(IndexInfo.Origin(rawValue: "c") == .createIndex)
        }
    }

    @Test func hasUniqueKey() throws {
        try inMemoryWrite(
            """
            CREATE TABLE player (id INTEGER PRIMARY KEY, email TEXT UNIQUE, teamId INTEGER, position INTEGER);
            CREATE UNIQUE INDEX player_on_team_position ON player(teamId, position);
            CREATE INDEX player_on_team ON player(teamId);
            CREATE TABLE log (message TEXT);
            """
        ) { db throws in
            #expect(try db.table("player", hasUniqueKey: ["id"]))
            #expect(try db.table("player", hasUniqueKey: ["EMAIL"]))
            #expect(try db.table("player", hasUniqueKey: ["position", "teamId"]))
            #expect(try !db.table("player", hasUniqueKey: ["teamId"]))
            // A superset of a unique key is unique too.
            #expect(try db.table("player", hasUniqueKey: ["id", "email"]))
            #expect(try db.table("log", hasUniqueKey: ["rowid"]))
            #expect(try !db.table("log", hasUniqueKey: ["message"]))
            #expect(throws: DatabaseError.self) { try db.table("missing", hasUniqueKey: ["id"]) }
        }
    }

    @Test func reservedTables() {
        #expect(Database.isSQLiteInternalTable("sqlite_sequence"))
        #expect(Database.isSQLiteInternalTable("sqlite_master"))
        #expect(!Database.isSQLiteInternalTable("player"))
        #expect(Database.isGRDBInternalTable("grdb_migrations"))
        #expect(!Database.isGRDBInternalTable("player"))
    }

    @Test func cacheIsClearedAfterSchemaChanges() throws {
        try inMemoryWrite("CREATE TABLE player (id INTEGER PRIMARY KEY)") { db throws in
            #expect(try db.columns(in: "player").map(\.name) == ["id"])
            #expect(try db.indexes(on: "player").isEmpty)
            try db.execute(sql: "ALTER TABLE player ADD COLUMN name TEXT")
            try db.execute(sql: "CREATE INDEX player_on_name ON player(name)")
            #expect(try db.columns(in: "player").map(\.name) == ["id", "name"])
            #expect(try db.indexes(on: "player").map(\.name) == ["player_on_name"])
            try db.execute(sql: "DROP TABLE player")
            #expect(try !db.tableExists("player"))
        }
    }

    @Test func cacheIsClearedAfterRollback() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db throws in
            try db.inTransaction {
                try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)")
                #expect(try db.tableExists("player"))
                return .rollback
            }
            #expect(try !db.tableExists("player"))
        }
    }
}

struct SchemaIntrospectionPoolTests {
    @Test func readersSeeSchemaChangesOfTheWriter() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try WriterKind.pool.open(directory)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)")
        }
        let before = try dbPool.read { db in try db.columns(in: "player").map(\.name) }
        #expect(before == ["id"])
        try dbPool.write { db in
            try db.execute(sql: "ALTER TABLE player ADD COLUMN name TEXT")
        }
        let after = try dbPool.read { db in try db.columns(in: "player").map(\.name) }
        #expect(after == ["id", "name"])
    }
}

struct SchemaCacheSavepointTests {
    @Test func cacheIsClearedAfterSavepointRollback() throws {
        try DatabaseQueue().write { db throws in
            try db.inSavepoint {
                try db.create(table: "player") { t in t.column("name") }
                #expect(try db.tableExists("player"))
                return .rollback
            }
            #expect(try !db.tableExists("player"))
        }
    }
}
