import Foundation
import Strata
import StrataTestSupport
import Testing

/// Schema definitions write the same SQL as GRDB 7 (issue 17, items 1, 2, 19, 20).
struct GRDBSchemaParityTests {
    @Test func belongsToFindsSingularThenPluralTable() throws {
        try DatabaseQueue().write { db throws in
            try db.create(table: "teams") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "country") { t in t.primaryKey("code", .text) }
            try db.create(table: "countries") { t in t.primaryKey("isoCode", .text) }
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "player") { t in
                    t.belongsTo("team")
                    t.belongsTo("country")
                }
            }
            #expect(
                sql == [
                    #"CREATE TABLE "player" ("teamId" INTEGER REFERENCES "teams"("id"), "countryCode" TEXT REFERENCES "country"("code"))"#,
                    #"CREATE INDEX "player_on_teamId" ON "player"("teamId")"#,
                    #"CREATE INDEX "player_on_countryCode" ON "player"("countryCode")"#,
                ])
            #expect(throws: DatabaseError.self) {
                try db.create(table: "coach") { t in t.belongsTo("club") }
            }
            do {
                try db.create(table: "coach") { t in t.belongsTo("club") }
            } catch let error as DatabaseError {
                #expect(error.message == "no such table: club")
            }
        }
    }

    @Test func automaticIndexNames() throws {
        let schema = """
            CREATE TABLE team (id INTEGER PRIMARY KEY AUTOINCREMENT);
            CREATE TABLE pair (a TEXT, b TEXT, PRIMARY KEY (a, b));
            """
        try inMemoryWrite(schema) { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.belongsTo("team")
                    t.belongsTo("pair")
                    t.column("score", .integer).indexed()
                }
                try db.alter(table: "player") { t in t.add(column: "rank", .integer).indexed() }
                try db.create(indexOn: "player", columns: ["teamId"])
            }
            #expect(
                sql == [
                    """
                    CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
                    "teamId" INTEGER REFERENCES "team"("id"), "pairA" TEXT, "pairB" TEXT, "score" INTEGER, \
                    FOREIGN KEY ("pairA", "pairB") REFERENCES "pair"("a", "b"))
                    """,
                    #"CREATE INDEX "player_on_teamId" ON "player"("teamId")"#,
                    #"CREATE INDEX "index_player_on_pairA_pairB" ON "player"("pairA", "pairB")"#,
                    #"CREATE INDEX "player_on_score" ON "player"("score")"#,
                    #"ALTER TABLE "player" ADD COLUMN "rank" INTEGER"#,
                    #"CREATE INDEX "player_on_rank" ON "player"("rank")"#,
                    #"CREATE INDEX "index_player_on_teamId" ON "player"("teamId")"#,
                ])
        }
    }

    @Test func notNullBeforeReferences() throws {
        try DatabaseQueue().write { db throws in
            try db.create(table: "author") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author", onDelete: .cascade).notNull()
                t.column("editorId", .integer).notNull().references("author")
            }
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'book'")
            #expect(
                sql == """
                    CREATE TABLE "book" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
                    "authorId" INTEGER NOT NULL REFERENCES "author"("id") ON DELETE CASCADE, \
                    "editorId" INTEGER NOT NULL REFERENCES "author"("id"))
                    """)
        }
    }

    @Test func schemaLookupsRunPragmaDatabaseList() throws {
        let log = SQLLog()
        try DatabaseQueue(configuration: log.configuration()).write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
            log.clear()
            _ = try db.tableExists("t")
        }
        #expect(log.statements().contains("PRAGMA database_list"))
        #expect(!log.statements().contains { $0.contains("pragma_database_list") })
    }
}
