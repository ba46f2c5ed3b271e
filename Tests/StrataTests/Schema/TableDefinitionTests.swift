import Foundation
import Strata
import StrataTestSupport
import Testing

struct TableDefinitionTests {
    @Test func placeTable() throws {
        try DatabaseQueue().write { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "place") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("title", .text)
                    t.column("favorite", .boolean).notNull().defaults(to: false)
                    t.column("longitude", .double).notNull()
                    t.column("latitude", .double).notNull()
                }
            }
            #expect(
                sql == [
                    """
                    CREATE TABLE "place" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT, \
                    "favorite" BOOLEAN NOT NULL DEFAULT 0, "longitude" DOUBLE NOT NULL, "latitude" DOUBLE NOT NULL)
                    """
                ])
            #expect(try db.columns(in: "place").map(\.name) == ["id", "title", "favorite", "longitude", "latitude"])
            #expect(try db.primaryKey("place").rowIDColumn == "id")
        }
    }

    @Test func tableOptions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "a", options: [.temporary, .ifNotExists]) { t in t.column("x") }
                try db.create(table: "a", options: [.temporary, .ifNotExists]) { t in t.column("x") }
                try db.create(table: "b", options: .withoutRowID) { t in t.primaryKey("id", .integer) }
                try db.create(table: "c", options: [.strict, .withoutRowID]) { t in t.primaryKey("id", .integer) }
                try db.create(table: "d", temporary: true, ifNotExists: true, withoutRowID: false) { t in
                    t.column("x")
                }
            }
            #expect(
                sql == [
                    #"CREATE TEMPORARY TABLE IF NOT EXISTS "a" ("x")"#,
                    #"CREATE TEMPORARY TABLE IF NOT EXISTS "a" ("x")"#,
                    #"CREATE TABLE "b" ("id" INTEGER PRIMARY KEY) WITHOUT ROWID"#,
                    #"CREATE TABLE "c" ("id" INTEGER PRIMARY KEY) WITHOUT ROWID, STRICT"#,
                    #"CREATE TEMPORARY TABLE IF NOT EXISTS "d" ("x")"#,
                ])
            #expect(try db.tableExists("a", in: "temp"))
            #expect(try !db.primaryKey("b").isRowID)
            // STRICT tables check types
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO c (id) VALUES ('not an integer')")
            }
        }
    }

    @Test func columnTypesAndConstraints() throws {
        try DatabaseQueue().write { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "player") { t in
                    t.column("score")
                    t.column("name", .text).notNull().defaults(to: "Anonymous")
                    t.column("creationDate", .datetime)
                    t.column("address", .jsonText)
                    t.column("email", .text).unique(onConflict: .replace).collate(.nocase)
                    t.column("bonus", .integer).check(sql: "bonus > 0")
                    t.column("nickname", .text).check { column in SQL(sql: "LENGTH(\(column.name)) > 0") }
                    t.column("createdAt", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
                    t.column("ratio", .double).defaults(to: 1.5).notNull(onConflict: .ignore)
                    t.column("quote", .text).defaults(to: "O'Brien")
                    t.column("data", .blob).defaults(to: Data([1, 2, 255]))
                }
            }
            #expect(
                sql == [
                    """
                    CREATE TABLE "player" ("score", "name" TEXT NOT NULL DEFAULT 'Anonymous', \
                    "creationDate" DATETIME, "address" TEXT, \
                    "email" TEXT UNIQUE ON CONFLICT REPLACE COLLATE NOCASE, \
                    "bonus" INTEGER CHECK (bonus > 0), "nickname" TEXT CHECK (LENGTH(nickname) > 0), \
                    "createdAt" DATETIME DEFAULT CURRENT_TIMESTAMP, \
                    "ratio" DOUBLE NOT NULL ON CONFLICT IGNORE DEFAULT 1.5, \
                    "quote" TEXT DEFAULT 'O''Brien', "data" BLOB DEFAULT X'0102FF')
                    """
                ])
            let columns = try db.columns(in: "player")
            #expect(columns.first { $0.name == "name" }?.defaultValueSQL == "'Anonymous'")
            #expect(columns.first { $0.name == "name" }?.isNotNull == true)
            try db.execute(sql: "INSERT INTO player (bonus) VALUES (1)")
            let row = try #require(try Row.fetchOne(db, sql: "SELECT name, quote, data, ratio FROM player"))
            #expect(row["name"] == "Anonymous")
            #expect(row["quote"] == "O'Brien")
            #expect(row["data"] == Data([1, 2, 255]))
            #expect(row["ratio"] == 1.5)
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (bonus) VALUES (0)")
            }
        }
    }

    @Test func primaryKeys() throws {
        try DatabaseQueue().write { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "a") { t in t.primaryKey("uuid", .text) }
                try db.create(table: "b") { t in
                    t.primaryKey {
                        t.column("teamName", .text)
                        t.column("position", .integer)
                    }
                }
                try db.create(table: "appConfiguration") { t in
                    t.primaryKey("id", .integer, onConflict: .replace).check(sql: "id = 1")
                    t.column("storedFlag", .boolean)
                }
                try db.create(table: "c") { t in
                    t.column("a", .integer)
                    t.column("b", .integer)
                    t.primaryKey(["a", "b"], onConflict: .fail)
                }
                try db.create(table: "d") { t in
                    t.autoIncrementedPrimaryKey("id", onConflict: .abort)
                }
                try db.create(table: "e") { t in
                    t.column("code", .text).primaryKey(onConflict: .rollback)
                }
            }
            #expect(
                sql == [
                    #"CREATE TABLE "a" ("uuid" TEXT PRIMARY KEY NOT NULL)"#,
                    #"CREATE TABLE "b" ("teamName" TEXT NOT NULL, "position" INTEGER NOT NULL, "#
                        + #"PRIMARY KEY ("teamName", "position"))"#,
                    #"CREATE TABLE "appConfiguration" ("id" INTEGER PRIMARY KEY ON CONFLICT REPLACE CHECK (id = 1), "#
                        + #""storedFlag" BOOLEAN)"#,
                    #"CREATE TABLE "c" ("a" INTEGER, "b" INTEGER, PRIMARY KEY ("a", "b") ON CONFLICT FAIL)"#,
                    #"CREATE TABLE "d" ("id" INTEGER PRIMARY KEY ON CONFLICT ABORT AUTOINCREMENT)"#,
                    #"CREATE TABLE "e" ("code" TEXT PRIMARY KEY ON CONFLICT ROLLBACK)"#,
                ])
            #expect(try db.primaryKey("b").columns == ["teamName", "position"])
        }
    }

    @Test func belongsTo() throws {
        try DatabaseQueue().write { db throws in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "country") { t in t.primaryKey("code", .text) }
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.belongsTo("team", onDelete: .cascade)
                    t.belongsTo("country").notNull()
                    t.belongsTo("mentor", inTable: "player", onUpdate: .setNull, deferred: true, indexed: false)
                    t.column("score", .integer).indexed()
                }
            }
            #expect(
                sql == [
                    """
                    CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
                    "teamId" INTEGER REFERENCES "team"("id") ON DELETE CASCADE, \
                    "countryCode" TEXT NOT NULL REFERENCES "country"("code"), \
                    "mentorId" INTEGER REFERENCES "player"("id") ON UPDATE SET NULL DEFERRABLE INITIALLY DEFERRED, \
                    "score" INTEGER)
                    """,
                    #"CREATE INDEX "player_on_teamId" ON "player"("teamId")"#,
                    #"CREATE INDEX "player_on_countryCode" ON "player"("countryCode")"#,
                    #"CREATE INDEX "player_on_score" ON "player"("score")"#,
                ])
            let foreignKeys = try db.foreignKeys(on: "player")
            #expect(Set(foreignKeys.map(\.destinationTable)) == ["team", "country", "player"])
        }
    }

    @Test func compositeBelongsTo() throws {
        let schema = """
            CREATE TABLE player (id INTEGER PRIMARY KEY AUTOINCREMENT);
            CREATE TABLE team (id TEXT PRIMARY KEY NOT NULL);
            CREATE TABLE log (message TEXT);
            CREATE TABLE pair (a TEXT, b INTEGER, PRIMARY KEY (a, b));
            """
        try inMemoryWrite(schema) { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "membership") { t in
                    t.primaryKey {
                        t.belongsTo("player")
                        t.belongsTo("team")
                    }
                    t.column("role", .text).notNull()
                }
                try db.create(table: "item") { t in
                    t.belongsTo("log", indexed: false)
                    t.belongsTo("pair").unique()
                }
            }
            #expect(
                sql == [
                    """
                    CREATE TABLE "membership" ("playerId" INTEGER NOT NULL REFERENCES "player"("id"), \
                    "teamId" TEXT NOT NULL REFERENCES "team"("id"), "role" TEXT NOT NULL, \
                    PRIMARY KEY ("playerId", "teamId"))
                    """,
                    #"CREATE INDEX "membership_on_teamId" ON "membership"("teamId")"#,
                    """
                    CREATE TABLE "item" ("logId" INTEGER REFERENCES "log", "pairA" TEXT, "pairB" INTEGER, \
                    FOREIGN KEY ("pairA", "pairB") REFERENCES "pair"("a", "b"))
                    """,
                    #"CREATE UNIQUE INDEX "index_item_on_pairA_pairB" ON "item"("pairA", "pairB")"#,
                ])
        }
    }

    @Test func belongsToUnknownTableThrows() throws {
        try DatabaseQueue().write { db throws in
            #expect(throws: DatabaseError.self) {
                try db.create(table: "player") { t in t.belongsTo("team") }
            }
            #expect(try !db.tableExists("player"))
        }
    }

    @Test func tableConstraints() throws {
        try inMemoryWrite("CREATE TABLE parents (c INTEGER, d INTEGER, PRIMARY KEY (c, d))") { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "child") { t in
                    t.column("a", .integer)
                    t.column("b", .integer)
                    t.column(sql: "name TEXT")
                    t.column(literal: "nickname TEXT DEFAULT \("Arthur")")
                    t.uniqueKey(["a", "b"], onConflict: .replace)
                    t.foreignKey(["a", "b"], references: "parents")
                    t.foreignKey(["b"], references: "other", columns: ["x"], onDelete: .restrict, deferred: true)
                    t.check(sql: "a + b < 10")
                    t.check(SQL(sql: "a > ?", arguments: [0]))
                    t.constraint(sql: "CHECK (a + b < 20)")
                    t.constraint(literal: "CHECK (a + b < \(30))")
                }
            }
            #expect(
                sql == [
                    """
                    CREATE TABLE "child" ("a" INTEGER, "b" INTEGER, name TEXT, nickname TEXT DEFAULT 'Arthur', \
                    UNIQUE ("a", "b") ON CONFLICT REPLACE, FOREIGN KEY ("a", "b") REFERENCES "parents"("c", "d"), \
                    FOREIGN KEY ("b") REFERENCES "other"("x") ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED, \
                    CHECK (a + b < 10), CHECK (a > 0), CHECK (a + b < 20), CHECK (a + b < 30))
                    """
                ])
        }
    }

    @Test func generatedColumns() throws {
        try DatabaseQueue().write { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "player") { t in
                    t.column("score", .integer)
                    t.column("bonus", .integer)
                    t.column("totalScore", .integer).generatedAs(sql: "score + bonus")
                    t.column("storedScore", .integer).generatedAs(SQL(sql: "score * ?", arguments: [2]), .stored)
                }
            }
            #expect(
                sql == [
                    """
                    CREATE TABLE "player" ("score" INTEGER, "bonus" INTEGER, \
                    "totalScore" INTEGER GENERATED ALWAYS AS (score + bonus) VIRTUAL, \
                    "storedScore" INTEGER GENERATED ALWAYS AS (score * 2) STORED)
                    """
                ])
            try db.execute(sql: "INSERT INTO player (score, bonus) VALUES (10, 1)")
            #expect(try Int.fetchOne(db, sql: "SELECT totalScore + storedScore FROM player") == 31)
        }
    }

    @Test func references() throws {
        try DatabaseQueue().write { db throws in
            try db.create(table: "team") { t in t.primaryKey("code", .text) }
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "player") { t in
                    t.column("teamCode", .text).references("team", onDelete: .setDefault)
                    t.column("otherCode", .text).references(
                        "team", column: "code", onUpdate: .cascade, deferred: true)
                }
            }
            #expect(
                sql == [
                    """
                    CREATE TABLE "player" ("teamCode" TEXT REFERENCES "team"("code") ON DELETE SET DEFAULT, \
                    "otherCode" TEXT REFERENCES "team"("code") ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED)
                    """
                ])
        }
    }
}
