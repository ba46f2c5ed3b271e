import Foundation
import Strata
import StrataTestSupport
import Testing

/// The SQL of `fetchCount` and `fetchOne`, and the `*` selection.
struct CountAndSingleResultTests {
    private func makeDatabase(_ log: SQLLog) throws -> DatabaseQueue {
        try inMemoryDatabase(
            """
            CREATE TABLE readers (id INTEGER PRIMARY KEY, name TEXT, age INT);
            INSERT INTO readers (id, name, age) VALUES (1, '1', 20), (2, '0', 30), (3, NULL, 30);
            """, recordingIn: log)
    }

    /// Runs `body` in a read access of a new database of `readers`, and
    /// returns the statements it ran.
    private func readReaders(_ body: (Database, Table<Row>) throws -> Void) throws -> [String] {
        let log = SQLLog()
        try makeDatabase(log).read { db in try body(db, Table("readers")) }
        return log.statements(.user)
    }

    @Test("B14: fetchCount keeps a selection that defines aliases the filter may use")
    func countKeepsAliases() throws {
        let statements = try readReaders { db, readers throws in
            #expect(
                try readers.annotated(with: Column("name").forKey("alt")).filter(Column("alt").detached).fetchCount(db)
                    == 1)
            // Selections without aliases are replaced with COUNT(*).
            #expect(try readers.fetchCount(db) == 3)
            #expect(try readers.filter(Column("age") > 25).fetchCount(db) == 2)
            #expect(try readers.select(Column("name"), Column("age")).fetchCount(db) == 3)
            #expect(try readers.select(Column("age")).distinct().fetchCount(db) == 2)
        }
        #expect(
            statements == [
                #"SELECT COUNT(*) FROM (SELECT *, "name" AS "alt" FROM "readers" WHERE "alt")"#,
                #"SELECT COUNT(*) FROM "readers""#,
                #"SELECT COUNT(*) FROM "readers" WHERE "age" > ?"#,
                #"SELECT COUNT(*) FROM "readers""#,
                #"SELECT COUNT(DISTINCT "age") FROM "readers""#,
            ])
    }

    /// A record of the `readers` table, for the closure forms of requests.
    private struct Reader: TableRecord {
        static let databaseTableName = "readers"
        enum Columns {
            static let age = Column("age")
        }
    }

    @Test("C2: a distinct request of one aliased expression counts with COUNT(DISTINCT ...), alias or not")
    func distinctAliasedExpressionCountsDistinct() throws {
        var statements: [String] = []
        _ = try readReaders { db, readers throws in
            statements = try recordSQL(db, expanded: true) { () throws in
                #expect(try Reader.select((Column("age") * 2).forKey("ignored")).distinct().fetchCount(db) == 2)
                #expect(try Reader.select { ($0.age * 2).forKey("ignored") }.distinct().fetchCount(db) == 2)
                #expect(try readers.select((Column("age") * 2).forKey("ignored")).distinct().fetchCount(db) == 2)
                // An alias that the filter refers to is kept.
                #expect(
                    try readers.select(Column("age").forKey("a")).distinct().filter(Column("a").detached > 25)
                        .fetchCount(db) == 1)
            }
        }
        // The arguments in place (`* 2`), as SQLite's expanded SQL shows them.
        #expect(
            statements == [
                #"SELECT COUNT(DISTINCT "age" * 2) FROM "readers""#,
                #"SELECT COUNT(DISTINCT "age" * 2) FROM "readers""#,
                #"SELECT COUNT(DISTINCT "age" * 2) FROM "readers""#,
                #"SELECT COUNT(*) FROM (SELECT DISTINCT "age" AS "a" FROM "readers" WHERE "a" > 25)"#,
            ])
    }

    @Test("B39: fetchOne adds no LIMIT 1 when the filter tests a unique key with IS NULL")
    func isNullOnUniqueKeyNeedsNoLimit() throws {
        let statements = try readReaders { db, readers throws in
            #expect(try readers.filter(Column("id") == nil).fetchOne(db) == nil)
            #expect(try readers.filter(nil == Column("id")).filter(Column("age") == 30).fetchOne(db) == nil)
            #expect(try readers.filter(Column("id") == 2).fetchOne(db)?["name"] == "0")
            // A column that is not a unique key keeps LIMIT 1.
            #expect(try readers.filter(Column("name") == nil).fetchOne(db)?["id"] == 3)
            #expect(try readers.filter(Column("id") != nil).fetchOne(db) != nil)
        }
        #expect(
            statements == [
                #"SELECT * FROM "readers" WHERE "id" IS NULL"#,
                #"SELECT * FROM "readers" WHERE ("id" IS NULL) AND ("age" = ?)"#,
                #"SELECT * FROM "readers" WHERE "id" = ?"#,
                #"SELECT * FROM "readers" WHERE "name" IS NULL LIMIT 1"#,
                #"SELECT * FROM "readers" WHERE "id" IS NOT NULL LIMIT 1"#,
            ])
    }

    @Test("B40: .allColumns(excluding:) that excludes nothing, or only unknown columns, is *")
    func excludingNothingIsStar() throws {
        let statements = try readReaders { db, readers throws in
            #expect(try readers.select(.allColumns(excluding: [String]())).distinct().fetchCount(db) == 3)
            #expect(
                try requestSQL(db, readers.select(.allColumns(excluding: ["unknown", "AGEX"])))
                    == #"SELECT * FROM "readers""#)
            #expect(
                try requestSQL(db, readers.select(.allColumns(excluding: ["AGE"])))
                    == #"SELECT "id", "name" FROM "readers""#)
            let alias = TableAlias(name: "r")
            #expect(
                try requestSQL(db, readers.aliased(alias).select(.allColumns(excluding: ["unknown"])))
                    == #"SELECT "r".* FROM "readers" "r""#)
        }
        #expect(statements.first == #"SELECT COUNT(*) FROM (SELECT DISTINCT * FROM "readers")"#)
    }
}
