import Foundation
import Strata
import StrataTestSupport
import Testing

/// Requests interpolated into SQL literals, and the requests of common table
/// expressions (issue 28).
struct SubqueryInterpolationTests {
    @Test("B13: a request interpolated into an SQL literal is inserted as is, without parentheses")
    func interpolatedRequestHasNoParentheses() throws {
        let sql = "CREATE TABLE table1 (id INTEGER PRIMARY KEY); INSERT INTO table1 VALUES (1), (2)"
        try inMemoryWrite(sql) { db throws in
            let sqlRequest = SQLRequest<Int>(sql: "SELECT id FROM table1")
            let fromSQL = SQLRequest<Int>("SELECT * FROM (\(sqlRequest))")
            #expect(try requestSQL(db, fromSQL) == "SELECT * FROM (SELECT id FROM table1)")
            #expect(try fromSQL.fetchAll(db) == [1, 2])

            let queryRequest = Table("table1").select(Column("id"))
            let fromQuery = SQLRequest<Int>("SELECT * FROM (\(queryRequest)) ORDER BY 1 DESC")
            #expect(try requestSQL(db, fromQuery) == #"SELECT * FROM (SELECT "id" FROM "table1") ORDER BY 1 DESC"#)
            #expect(try fromQuery.fetchAll(db) == [2, 1])

            // At the top level of a compound select.
            let compound = SQLRequest<Int>("\(queryRequest) UNION ALL \(sqlRequest)")
            #expect(try compound.fetchCount(db) == 4)
        }
    }

    @Test("B13: a WITH clause built from definitionFor: and cte.all() runs")
    func withClauseFromInterpolation() throws {
        try DatabaseQueue().read { db throws in
            let cte = CommonTableExpression(named: "cte", literal: "SELECT \("O'Brien")")
            let request = SQLRequest<String>("WITH \(definitionFor: cte) \(cte.all())")
            #expect(try requestSQL(db, request) == #"WITH "cte" AS (SELECT ?) SELECT * FROM "cte""#)
            #expect(try request.fetchOne(db) == "O'Brien")

            let columns = CommonTableExpression(named: "named", columns: ["a", "b"], sql: "SELECT 1, 2")
            let named = SQLRequest<Row>("WITH \(definitionFor: columns) \(columns.all())")
            #expect(try requestSQL(db, named) == #"WITH "named"("a", "b") AS (SELECT 1, 2) SELECT * FROM "named""#)
            #expect(try named.fetchOne(db) == ["a": 1, "b": 2])
        }
    }

    @Test("B13: subquery expressions keep their parentheses")
    func subqueryExpressionsKeepParentheses() throws {
        try qiPlayerDatabase().read { db throws in
            let best = Table("player").select(max(Column("score")))
            let red = Table("player").filter(Column("team") == "red").select(Column("id"))
            let request = Table("player")
                .filter(Column("score") == best)
                .filter(red.contains(Column("id")) || red.exists())
                .select(Column("name"), best.forKey("best"))
            #expect(
                try requestSQL(db, request)
                    == """
                    SELECT "name", (SELECT MAX("score") FROM "player") AS "best" FROM "player" \
                    WHERE ("score" = (SELECT MAX("score") FROM "player")) \
                    AND (("id" IN (SELECT "id" FROM "player" WHERE "team" = ?)) \
                    OR EXISTS (SELECT "id" FROM "player" WHERE "team" = ?))
                    """)
            #expect(try Row.fetchOne(db, request) == ["name": "Barbara", "best": 2000])
            // The default count of a request wraps it in a subquery.
            #expect(try SQLRequest<Row>(sql: "SELECT * FROM player").fetchCount(db) == 4)
        }
    }

    @Test("B29: cte.all() does not carry its own WITH clause")
    func cteAllHasNoWithClause() throws {
        try qiPlayerDatabase().write { db throws in
            let answer = CommonTableExpression(named: "answer", sql: "SELECT 2000 AS value")
            let request = Table("player").with(answer).filter(Column("score") == answer.all())
            #expect(
                try requestSQL(db, request)
                    == """
                    WITH "answer" AS (SELECT 2000 AS value) SELECT * FROM "player" \
                    WHERE "score" = (SELECT * FROM "answer")
                    """)
            #expect(try Row.fetchAll(db, request).map { $0["name"] as String } == ["Barbara"])

            let annotated = Table("player").with(answer).annotated(with: answer.all().forKey("answer"))
            #expect(
                try requestSQL(db, annotated)
                    == #"WITH "answer" AS (SELECT 2000 AS value) SELECT *, (SELECT * FROM "answer") AS "answer" FROM "player""#
            )

            // On its own, the request needs the expression.
            #expect(throws: DatabaseError.self) { try Row.fetchAll(db, answer.all()) }
            #expect(try Int.fetchOne(db, answer.all().with(answer)) == 2000)
        }
    }
}
