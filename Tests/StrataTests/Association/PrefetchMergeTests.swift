import Foundation
import Strata
import StrataTestSupport
import Testing

/// `including(all:)` of has-many-through associations whose pivots are
/// refined in several ways (issue 28).
struct PrefetchMergeTests {
    /// `p(id)`, pivots `b(id, pId, kind)`, targets `c(colc1, bId)`:
    /// p 1 has b 1 (kind x) with c 10, and b 2 (kind y) with c 20.
    private func makeQueue(_ log: SQLLog) throws -> DatabaseQueue {
        try inMemoryDatabase(
            """
            CREATE TABLE p (id INTEGER PRIMARY KEY);
            CREATE TABLE b (id INTEGER PRIMARY KEY, pId INTEGER REFERENCES p(id), kind TEXT);
            CREATE TABLE c (colc1 INTEGER PRIMARY KEY, bId INTEGER REFERENCES b(id));
            INSERT INTO p VALUES (1);
            INSERT INTO b VALUES (1, 1, 'x'), (2, 1, 'y');
            INSERT INTO c VALUES (10, 1), (20, 2);
            """, recordingIn: log)
    }

    private let p = Table("p")
    private var pToB: HasOneAssociation<Row, Row> { p.hasOne(Table("b")) }
    private var bToCs: HasManyAssociation<Row, Row> { Table("b").hasMany(Table("c")) }

    private func cs(_ pivot: HasOneAssociation<Row, Row>) -> HasManyThroughAssociation<Row, Row> {
        p.hasMany(Row.self, through: pivot, using: bToCs).order(Column("colc1"))
    }

    private func prefetched(_ db: Database, _ request: QueryInterfaceRequest<Row>, _ key: String) throws -> [Int64] {
        try Row.fetchOne(db, request)?.prefetchedRows[key]?.map { $0["colc1"] as Int64 } ?? []
    }

    @Test("B07: same prefetch key, same pivot key: one prefetch with both pivot filters, ordered once")
    func samePrefetchKeySamePivotKey() throws {
        let log = SQLLog()
        try makeQueue(log).read { db throws in
            let request =
                p
                .including(all: cs(pToB.filter(Column("kind") == "x")))
                .including(all: cs(pToB.filter(Column("id") > 0)))
            #expect(try prefetched(db, request, "cs") == [10])
            #expect(
                log.statements(.user) == [
                    #"SELECT * FROM "p" LIMIT 1"#,
                    """
                    SELECT "c".*, "b"."pId" AS "grdb_pId" FROM "c" \
                    JOIN "b" ON ("b"."id" = "c"."bId") AND ("b"."kind" = ?) AND ("b"."id" > ?) \
                    AND ("b"."pId" = ?) ORDER BY "c"."colc1"
                    """,
                ])
        }
    }

    @Test("B07: different prefetch keys through the same pivot key share the refinements of the pivot")
    func differentPrefetchKeysSharePivot() throws {
        let log = SQLLog()
        try makeQueue(log).read { db throws in
            let request =
                p
                .including(all: cs(pToB.filter(Column("kind") == "x")).forKey("x"))
                .including(all: cs(pToB.filter(Column("id") > 1)).forKey("y"))
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.prefetchedRows["x"]?.count == 0)
            #expect(row.prefetchedRows["y"]?.count == 0)
            let prefetchSQL = log.statements(.user).dropFirst()
            #expect(prefetchSQL.count == 2)
            for sql in prefetchSQL {
                #expect(sql.contains(#"("b"."kind" = ?) AND ("b"."id" > ?)"#))
            }

            // The later pivot filter applies to the earlier prefetch as well.
            let single =
                p
                .including(all: cs(pToB).forKey("x"))
                .including(all: cs(pToB.filter(Column("kind") == "y")).forKey("y"))
            #expect(try prefetched(db, single, "x") == [20])
            #expect(try prefetched(db, single, "y") == [20])
        }
    }

    @Test("B07: the same prefetch key through pivots under different keys makes two prefetches")
    func samePrefetchKeyDifferentPivotKeys() throws {
        let log = SQLLog()
        try makeQueue(log).read { db throws in
            let request =
                p
                .including(all: cs(pToB.forKey("b1").filter(Column("kind") == "x")))
                .including(all: cs(pToB.forKey("b2").filter(Column("kind") == "y")))
            let statements = try recordSQL(db, .withoutSchemaQueries, expanded: true) {
                _ = try Row.fetchOne(db, request)
            }
            #expect(
                Array(statements.dropFirst()) == [
                    """
                    SELECT "c".*, "b"."pId" AS "grdb_pId" FROM "c" \
                    JOIN "b" ON ("b"."id" = "c"."bId") AND ("b"."kind" = 'x') AND ("b"."pId" = 1) \
                    ORDER BY "c"."colc1"
                    """,
                    """
                    SELECT "c".*, "b"."pId" AS "grdb_pId" FROM "c" \
                    JOIN "b" ON ("b"."id" = "c"."bId") AND ("b"."kind" = 'y') AND ("b"."pId" = 1) \
                    ORDER BY "c"."colc1"
                    """,
                ])
        }
    }
}
