import Foundation
import Strata
import StrataTestSupport
import Testing

/// JSON expressions given to the functions that build JSON.
struct JSONBuildingArgumentTests {
    @Test("B33: asJSON does not wrap NULL nor the result of -> in JSON(...)")
    func nullAndArrowResultsAreNotWrapped() throws {
        try inMemoryWrite(
            """
            CREATE TABLE player (id INTEGER PRIMARY KEY, info TEXT);
            INSERT INTO player VALUES (1, '{"address":{"city":"Paris"}}');
            """
        ) { db throws in
            let info = JSONColumn("info")
            let array = Database.jsonArray(
                [DatabaseValue.null.asJSON, info.jsonRepresentation(atPath: "address").asJSON, Column("info").asJSON]
                    as [any SQLExpressible])
            let request = Table("player").select(array, as: String.self)
            #expect(
                try requestSQL(db, request)
                    == #"SELECT JSON_ARRAY(NULL, "info" -> ?, JSON("info")) FROM "player""#)
            #expect(try request.fetchOne(db) == #"[null,{"city":"Paris"},{"address":{"city":"Paris"}}]"#)
        }
    }
}
