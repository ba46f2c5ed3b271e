import Foundation
import Strata
import StrataTestSupport
import Testing

struct SchemaModificationTests {
    @Test func alterTable() throws {
        try inMemoryWrite("CREATE TABLE player (id INTEGER PRIMARY KEY, url TEXT, score INTEGER)") { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.alter(table: "player") { t in
                    t.add(column: "hasBonus", .boolean)
                    t.rename(column: "url", to: "homeURL")
                    t.drop(column: "score")
                    t.add(column: "rank", .integer).notNull().defaults(to: 0).indexed()
                    t.addColumn(sql: "a TEXT")
                    t.addColumn(literal: "b TEXT DEFAULT \("x")")
                }
            }
            #expect(
                sql == [
                    #"ALTER TABLE "player" ADD COLUMN "hasBonus" BOOLEAN"#,
                    #"ALTER TABLE "player" RENAME COLUMN "url" TO "homeURL""#,
                    #"ALTER TABLE "player" DROP COLUMN "score""#,
                    #"ALTER TABLE "player" ADD COLUMN "rank" INTEGER NOT NULL DEFAULT 0"#,
                    #"ALTER TABLE "player" ADD COLUMN a TEXT"#,
                    #"ALTER TABLE "player" ADD COLUMN b TEXT DEFAULT 'x'"#,
                    #"CREATE INDEX "player_on_rank" ON "player"("rank")"#,
                ])
            #expect(try db.columns(in: "player").map(\.name) == ["id", "homeURL", "hasBonus", "rank", "a", "b"])
        }
    }

    @Test func alterUnknownTableThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws -> Void in
            #expect(throws: DatabaseError.self) {
                try db.alter(table: "missing") { t in t.add(column: "a") }
            }
        }
    }

    @Test func renameAndDrop() throws {
        try inMemoryWrite("CREATE TABLE referer (id INTEGER PRIMARY KEY); CREATE VIEW v AS SELECT 1") { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.rename(table: "referer", to: "referrer")
                try db.drop(table: "referrer")
                try db.drop(view: "v")
            }
            #expect(
                sql == [
                    #"ALTER TABLE "referer" RENAME TO "referrer""#,
                    #"DROP TABLE "referrer""#,
                    #"DROP VIEW "v""#,
                ])
            #expect(try !db.tableExists("referrer"))
            #expect(try !db.viewExists("v"))
            #expect(throws: DatabaseError.self) { try db.drop(table: "missing") }
        }
    }

    @Test func indexes() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(
                sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, email TEXT, score INT, bonus INT, isCaptain BOOLEAN)"
            )
            let sql = try recordSQL(db, .changes) {
                try db.create(indexOn: "player", columns: ["email"])
                try db.create(indexOn: "player", columns: ["score", "bonus"], options: .unique)
                try db.create(
                    index: "captains", on: "player", columns: ["id"], options: [.unique, .ifNotExists],
                    condition: Column("isCaptain"))
                try db.create(index: "legacy", on: "player", columns: ["email"], unique: true, ifNotExists: true)
                try db.create(
                    index: "index_player_on_total_score", on: "player",
                    expressions: [SQL(sql: "score + bonus"), SQL(sql: "email COLLATE NOCASE")])
                try db.create(
                    index: "partial", on: "player", columns: ["score"],
                    condition: SQL(sql: "score > ?", arguments: [10]))
                try db.drop(indexOn: "player", columns: ["email"])
                try db.drop(index: "legacy")
            }
            #expect(
                sql == [
                    #"CREATE INDEX "index_player_on_email" ON "player"("email")"#,
                    #"CREATE UNIQUE INDEX "index_player_on_score_bonus" ON "player"("score", "bonus")"#,
                    #"CREATE UNIQUE INDEX IF NOT EXISTS "captains" ON "player"("id") WHERE "isCaptain""#,
                    #"CREATE UNIQUE INDEX IF NOT EXISTS "legacy" ON "player"("email")"#,
                    #"CREATE INDEX "index_player_on_total_score" ON "player"(score + bonus, email COLLATE NOCASE)"#,
                    #"CREATE INDEX "partial" ON "player"("score") WHERE score > 10"#,
                    #"DROP INDEX "index_player_on_email""#,
                    #"DROP INDEX "legacy""#,
                ])
            let names = Set(try db.indexes(on: "player").map(\.name))
            #expect(names == ["index_player_on_score_bonus", "captains", "partial"])
            #expect(throws: DatabaseError.self) { try db.drop(index: "missing") }
            #expect(throws: DatabaseError.self) { try db.create(indexOn: "missing", columns: ["a"]) }
        }
    }

    @Test func views() throws {
        try inMemoryWrite("CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT)") { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(
                    view: "good", as: SQLRequest<Row>(sql: "SELECT * FROM player WHERE score > ?", arguments: [10]))
                try db.create(
                    view: "named", options: [.temporary, .ifNotExists], columns: ["a", "b"],
                    asLiteral: "SELECT id, name FROM player WHERE name <> \("O'Brien")")
            }
            #expect(
                sql == [
                    #"CREATE VIEW "good" AS SELECT * FROM player WHERE score > 10"#,
                    #"CREATE TEMPORARY VIEW IF NOT EXISTS "named" ("a", "b") AS "#
                        + #"SELECT id, name FROM player WHERE name <> 'O''Brien'"#,
                ])
            #expect(try db.viewExists("good"))
            #expect(try db.columns(in: "named").map(\.name) == ["a", "b"])
        }
    }

    struct ColumnsModule: VirtualTableModule {
        final class Definition {
            var columns: [String] = []
            func column(_ name: String) { columns.append(name) }
        }

        var moduleName: String { "fts5" }

        func makeTableDefinition(configuration: VirtualTableConfiguration) -> Definition {
            Definition()
        }

        func moduleArguments(for definition: Definition, in db: Database) throws -> [String] {
            definition.columns
        }

        func database(_ db: Database, didCreate tableName: String, using definition: Definition) throws {
            try db.execute(sql: "CREATE TABLE \(tableName)_created (x)")
        }
    }

    @Test func virtualTables() throws {
        try DatabaseQueue().write { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(virtualTable: "document", using: ColumnsModule()) { t in
                    t.column("content")
                }
                try db.create(virtualTable: "scratch", options: [.temporary, .ifNotExists], using: "fts5(body)")
                try db.create(virtualTable: "legacy", ifNotExists: true, using: "fts5(body)")
            }
            #expect(
                sql == [
                    #"CREATE VIRTUAL TABLE "document" USING fts5(content)"#,
                    "CREATE TABLE document_created (x)",
                    #"CREATE VIRTUAL TABLE IF NOT EXISTS temp."scratch" USING fts5(body)"#,
                    #"CREATE VIRTUAL TABLE IF NOT EXISTS "legacy" USING fts5(body)"#,
                ])
            #expect(try db.tableExists("document"))
            #expect(try db.tableExists("scratch", in: "temp"))
        }
    }

    @Test func optionSets() {
        #expect(TableOptions(rawValue: TableOptions.strict.rawValue) == .strict)
        #expect(IndexOptions([.unique, .ifNotExists]).contains(.unique))
        #expect(!ViewOptions.temporary.contains(.ifNotExists))
        #expect(VirtualTableOptions.temporary != .ifNotExists)
    }
}

struct SchemaDefinitionEdgeCaseTests {
    struct BodyError: Error {}

    @Test func failingBodyCreatesNothing() throws {
        try DatabaseQueue().write { db throws in
            #expect(throws: BodyError.self) {
                try db.create(table: "player") { t in
                    t.column("name")
                    throw BodyError()
                }
            }
            #expect(try !db.tableExists("player"))
        }
    }

    @Test func uniqueConstraintsCannotBeDroppedButUniqueIndexesCan() throws {
        try DatabaseQueue().write { db throws in
            try db.create(table: "player") { t in
                t.column("name", .text).unique()
            }
            try db.create(table: "team") { t in
                t.column("name", .text)
            }
            try db.create(indexOn: "team", columns: ["name"], options: .unique)
            #expect(try db.table("player", hasUniqueKey: ["name"]))
            #expect(try db.table("team", hasUniqueKey: ["name"]))
            let constraintIndex = try #require(try db.indexes(on: "player").first)
            #expect(constraintIndex.origin == .uniqueConstraint)
            #expect(throws: DatabaseError.self) { try db.drop(index: constraintIndex.name) }
            try db.drop(indexOn: "team", columns: ["name"])
            #expect(try !db.table("team", hasUniqueKey: ["name"]))
        }
    }

    @Test func duplicateTableThrowsUnlessIfNotExists() throws {
        try DatabaseQueue().write { db throws in
            try db.create(table: "player") { t in t.column("score", .integer).indexed() }
            #expect(throws: DatabaseError.self) {
                try db.create(table: "player") { t in t.column("score", .integer) }
            }
            try db.create(table: "player", options: .ifNotExists) { t in t.column("score", .integer).indexed() }
            #expect(try db.indexes(on: "player").map(\.name) == ["player_on_score"])
        }
    }
}
