import Foundation
import Strata
import StrataTestSupport
import Testing

// The SQL text of schema definitions: foreign keys, conflict clauses, views,
// REINDEX, and the statements of multi-statement schema changes.

struct SchemaDefinitionTextTests {
    @Test("B12: a column with two references(...) keeps both foreign keys")
    func twoReferencesOnOneColumn() throws {
        try DatabaseQueue().write { db throws in
            try db.create(table: "parent") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).unique()
                t.column("email", .text).unique()
            }
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "child") { t in
                    t.column("x", .text).references("parent", column: "name").references("parent", column: "email")
                }
            }
            #expect(
                sql == [
                    #"CREATE TABLE "child" ("x" TEXT REFERENCES "parent"("name") REFERENCES "parent"("email"))"#
                ])
            #expect(Set(try db.foreignKeys(on: "child").flatMap(\.destinationColumns)) == ["name", "email"])
        }
    }

    @Test("B16: drop(indexOn:columns:) drops the index on those columns whatever its name")
    func dropIndexOnColumns() throws {
        try inMemoryWrite("CREATE TABLE test (a INTEGER, b INTEGER)") { db throws in
            try db.create(index: "custom_name_a", on: "test", columns: ["a"])
            try db.create(index: "custom_name_a_b", on: "test", columns: ["a", "b"])
            let sql = try recordSQL(db, .changes) {
                try db.drop(indexOn: "TEST", columns: ["A"])
            }
            #expect(sql == [#"DROP INDEX "custom_name_a""#])
            #expect(try db.indexes(on: "test").map(\.name) == ["custom_name_a_b"])
            // No index on those columns: nothing happens.
            let none = try recordSQL(db, .changes) {
                try db.drop(indexOn: "test", columns: ["b"])
                try db.drop(indexOn: "test", columns: ["b", "a"])
            }
            #expect(none.isEmpty)
            #expect(try db.indexes(on: "test").map(\.name) == ["custom_name_a_b"])
            // A missing table throws.
            #expect(throws: DatabaseError.self) { try db.drop(indexOn: "missing", columns: ["a"]) }
        }
    }

    @Test("B25: outside a transaction, the statements of a schema change run one after the other")
    func schemaChangesAreNotWrappedInATransaction() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db in
            // Every statement but the schema reads of the library.
            func statements(_ block: () throws -> Void) throws -> [String] {
                try recordSQL(db, .withoutSchemaQueries, block)
            }
            let created = try statements {
                try db.create(table: "test") { t in
                    t.column("a", .integer).indexed()
                    t.column("b", .integer).indexed()
                }
            }
            #expect(
                created == [
                    #"CREATE TABLE "test" ("a" INTEGER, "b" INTEGER)"#,
                    #"CREATE INDEX "test_on_a" ON "test"("a")"#,
                    #"CREATE INDEX "test_on_b" ON "test"("b")"#,
                ])
            let altered = try statements {
                try db.alter(table: "test") { t in
                    t.add(column: "c", .text)
                    t.add(column: "d", .text)
                }
            }
            #expect(
                altered == [
                    #"ALTER TABLE "test" ADD COLUMN "c" TEXT"#,
                    #"ALTER TABLE "test" ADD COLUMN "d" TEXT"#,
                ])
        }
    }

    @Test("B32: foreign keys without columns name the referenced primary key, or rowid; PRIMARY KEY comes first")
    func foreignKeysNameTheReferencedPrimaryKey() throws {
        let schema = """
            CREATE TABLE test1 (id INTEGER PRIMARY KEY AUTOINCREMENT);
            CREATE TABLE test2 (name TEXT);
            CREATE TABLE test3 (a INTEGER, b INTEGER, PRIMARY KEY (a, b));
            """
        try inMemoryWrite(schema) { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "child") { t in
                    t.column("c", .integer)
                    t.column("d", .integer)
                    t.column("test1Id", .integer).references("test1")
                    t.column("test2Id", .integer).references("test2")
                    t.foreignKey(["c", "d"], references: "test3")
                    t.foreignKey(["d", "c"], references: "child")
                    t.primaryKey(["c", "d"])
                }
                try db.create(table: "tree") { t in
                    t.column("parentId", .integer).references("tree")
                }
                try db.alter(table: "tree") { t in
                    t.add(column: "test1Id", .integer).references("test1")
                    t.add(column: "otherParentId", .integer).references("tree")
                }
            }
            #expect(
                sql == [
                    """
                    CREATE TABLE "child" ("c" INTEGER, "d" INTEGER, \
                    "test1Id" INTEGER REFERENCES "test1"("id"), \
                    "test2Id" INTEGER REFERENCES "test2"("rowid"), \
                    PRIMARY KEY ("c", "d"), \
                    FOREIGN KEY ("c", "d") REFERENCES "test3"("a", "b"), \
                    FOREIGN KEY ("d", "c") REFERENCES "child"("c", "d"))
                    """,
                    #"CREATE TABLE "tree" ("parentId" INTEGER REFERENCES "tree"("rowid"))"#,
                    #"ALTER TABLE "tree" ADD COLUMN "test1Id" INTEGER REFERENCES "test1"("id")"#,
                    #"ALTER TABLE "tree" ADD COLUMN "otherParentId" INTEGER REFERENCES "tree"("rowid")"#,
                ])
        }
    }

    @Test("B34: NOT NULL and UNIQUE with the default ABORT policy write no conflict clause")
    func abortIsNotWrittenOut() throws {
        try DatabaseQueue().write { db throws in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            let sql = try recordSQL(db, .changes) {
                try db.create(table: "test") { t in
                    t.column("a", .integer).notNull(onConflict: .abort)
                    t.column("b", .integer).unique(onConflict: .abort)
                    t.column("c", .integer).notNull(onConflict: .replace).unique(onConflict: .ignore)
                    t.belongsTo("team", indexed: false).notNull(onConflict: .abort)
                }
            }
            #expect(
                sql == [
                    """
                    CREATE TABLE "test" ("a" INTEGER NOT NULL, "b" INTEGER UNIQUE, \
                    "c" INTEGER NOT NULL ON CONFLICT REPLACE UNIQUE ON CONFLICT IGNORE, \
                    "teamId" INTEGER NOT NULL REFERENCES "team"("id"))
                    """
                ])
        }
    }

    @Test("B42: reindex(collation:) writes the name of a custom collation as is")
    func reindexCustomCollation() throws {
        try DatabaseQueue().write { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.reindex(collation: .localizedCompare)
                try db.reindex(collation: .nocase)
            }
            #expect(sql == ["REINDEX swiftLocalizedCompare", "REINDEX NOCASE"])
        }
    }

    @Test("B43: create(view:columns:as:) puts a space before the column list")
    func viewColumnList() throws {
        try inMemoryWrite("CREATE TABLE test (x, y, z)") { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(view: "view4", columns: ["a", "b", "c"], as: SQLRequest<Row>(sql: "SELECT * FROM test"))
            }
            #expect(sql == [#"CREATE VIEW "view4" ("a", "b", "c") AS SELECT * FROM test"#])
            #expect(try db.columns(in: "view4").map(\.name) == ["a", "b", "c"])
        }
    }
}
