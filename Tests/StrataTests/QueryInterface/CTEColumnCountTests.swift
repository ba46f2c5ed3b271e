import Foundation
import Strata
import StrataTestSupport
import Testing

/// The number of columns of a common table expression, needed to split the
/// rows of a request that includes an association to or from it (issue 28).
struct CTEColumnCountTests {
    private let cte2 = CommonTableExpression(named: "cte2", sql: "SELECT 1 AS a, 2 AS b")

    @Test("B17: a CTE defined by a request that reads another CTE gets its column count from its selection")
    func columnCountOfRequestReadingAnotherCTE() throws {
        try DatabaseQueue().read { db throws in
            let cte1 = CommonTableExpression(named: "cte1", request: Table("cte2").select(Column("a")))
            let request = cte1.all().with(cte2).with(cte1).including(required: cte1.association(to: cte2))
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.unscoped == ["a": 1])
            #expect(row.scopes["cte2"] == ["a": 1, "b": 2])

            // The expression is only known to the association.
            let request2 = cte1.all().with(cte1).including(required: cte1.association(to: cte2))
            #expect(try Row.fetchOne(db, request2)?.scopes["cte2"] == ["a": 1, "b": 2])

            // A request that selects all columns of the other CTE.
            let all = CommonTableExpression(named: "cte1", request: Table("cte2").all())
            let request3 = all.all().with(cte2).with(all).including(required: all.association(to: cte2))
            let row3 = try #require(try Row.fetchOne(db, request3))
            #expect(row3.unscoped == ["a": 1, "b": 2])
            #expect(row3.scopes["cte2"] == ["a": 1, "b": 2])
        }
    }

    @Test("B17: the error of a CTE whose columns can not be counted names the CTE and suggests columns:")
    func columnCountErrorNamesTheCTE() throws {
        try DatabaseQueue().read { db throws in
            let cte1 = CommonTableExpression(named: "cte1", sql: "SELECT * FROM cte2")
            let request = cte1.all().with(cte1).including(required: cte1.association(to: cte2))
            do {
                _ = try Row.fetchAll(db, request)
                Issue.record("Expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_ERROR)
                let message = try #require(error.message)
                #expect(message.contains(#""cte1""#))
                #expect(message.contains("no such table: cte2"))
                #expect(message.contains("`columns` parameter"))
            }

            // With explicit columns, no count is needed.
            let named = CommonTableExpression(named: "cte1", columns: ["a", "b"], sql: "SELECT * FROM cte2")
            let request2 = named.all().with(named).with(cte2).including(required: named.association(to: cte2))
            #expect(try Row.fetchOne(db, request2)?.scopes["cte2"] == ["a": 1, "b": 2])
        }
    }

    @Test("C4: the message of a CTE whose columns can not be counted is GRDB's, word for word")
    func columnCountErrorMessage() throws {
        try DatabaseQueue().read { db throws in
            let cte1 = CommonTableExpression(named: "cte1", sql: "SELECT * FROM cte2")
            let association = cte1.association(to: cte2)
            for request in [
                cte1.all().with(cte1).with(cte2).including(required: association),
                cte1.all().with(cte2).with(cte1).including(required: association),
                cte1.all().with(cte1).including(required: association),
            ] {
                let error = try #require(throws: DatabaseError.self) { try Row.fetchAll(db, request) }
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(
                    error.message
                        == """
                        Can't compute the number of columns in the "cte1" common table expression: \
                        no such table: cte2. Check the syntax of the SQL definition, or provide the explicit \
                        list of selected columns with the `columns` parameter in the CommonTableExpression \
                        initializer.
                        """)
            }
        }
    }
}
