import Foundation
import Strata
import StrataTestSupport
import Testing

/// Views without primary key in joins and stable orders (issue 17, item 14).
struct ViewWithoutPrimaryKeyTests {
    private struct Parent: TableRecord {
        static let best = hasOne(Best.self, using: ForeignKey(["parentId"]))
    }

    private struct Best: TableRecord {
        static let databaseTableName = "best"
    }

    @Test func existsAndStableOrder() throws {
        let dbQueue = try parentChildDatabase(
            """
            CREATE VIEW best AS SELECT parentId, MAX(score) AS score FROM child GROUP BY parentId;
            INSERT INTO parent VALUES (1), (2);
            INSERT INTO child VALUES (1, 1, 10);
            """)
        try dbQueue.read { db throws in
            let alias = TableAlias()
            let request = Parent.joining(optional: Parent.best.aliased(alias)).filter(!alias.exists)
            #expect(
                try requestSQL(db, request)
                    == """
                    SELECT "parent".* FROM "parent" LEFT JOIN "best" ON "best"."parentId" = "parent"."id" \
                    WHERE ("best"."parentId" IS NULL) AND ("best"."score" IS NULL)
                    """)
            #expect(try Row.fetchAll(db, request).map { $0["id"] as Int64 } == [2])
            #expect(try requestSQL(db, Best.all().withStableOrder()) == #"SELECT * FROM "best" ORDER BY 1, 2"#)
        }
    }
}
