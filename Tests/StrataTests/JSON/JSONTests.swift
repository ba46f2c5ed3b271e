import Foundation
import Strata
import StrataTestSupport
import Testing

private struct JSONPlayer: FetchableRecord, TableRecord {
    static let databaseTableName = "player"
    enum Columns {
        static let address = JSONColumn("address")
        static let name = Column("name")
    }
    var name: String
    init(row: Row) throws {
        name = row["name"]
    }
}

@Suite("JSON")
struct JSONTests {
    /// Arthur in Berlin (`a`) and Barbara in Paris (`b`), with their address as JSON.
    private func makeQueue() throws -> DatabaseQueue {
        try inMemoryDatabase(
            """
            CREATE TABLE player (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, address TEXT NOT NULL);
            INSERT INTO player VALUES
              ('a', 'Arthur', '{"street":"Hauptstraße","city":"Berlin","country":"DE"}'),
              ('b', 'Barbara', '{"street":"Main St","city":"Paris","country":"FR"}')
            """)
    }

    @Test("A JSON path index, and a filter on a JSON subcomponent")
    func indexAndFilter() throws {
        let dbQueue = try makeQueue()
        let sql = try dbQueue.write { db in
            try recordSQL(db, .withoutSchemaQueries, expanded: true) {
                try db.create(index: "player_on_country", on: "player", expressions: [JSONColumn("address")["country"]])
                let germanPlayers = try JSONPlayer.filter { $0.address["country"] == "DE" }.fetchAll(db)
                #expect(germanPlayers.map(\.name) == ["Arthur"])
            }
        }
        #expect(sql.contains(#"CREATE INDEX "player_on_country" ON "player"("address" ->> 'country')"#))
        #expect(sql.contains(#"SELECT * FROM "player" WHERE ("address" ->> 'country') = 'DE'"#))
    }

    @Test("-> returns JSON, ->> returns SQL values, jsonExtract")
    func accessors() throws {
        try makeQueue().read { db throws in
            let address = JSONColumn("address")
            let request = Table("player").filter(key: "a")
            #expect(try String.fetchOne(db, request.select(address["city"])) == "Berlin")
            #expect(try String.fetchOne(db, request.select(address.jsonRepresentation(atPath: "city"))) == #""Berlin""#)
            #expect(try String.fetchOne(db, request.select(address.jsonExtract(atPath: "$.country"))) == "DE")
            #expect(
                try String.fetchOne(db, request.select(address.jsonExtract(atPaths: ["$.city", "$.country"])))
                    == #"["Berlin","DE"]"#)
            #expect(try String.fetchOne(db, request.select(Database.jsonType(address))) == "object")
            #expect(try String.fetchOne(db, request.select(Database.jsonType(address, atPath: "$.city"))) == "text")
        }
    }

    @Test("Functions that build JSON embed JSON values as JSON")
    func building() throws {
        try makeQueue().read { db throws in
            let request = Table("player").filter(key: "a")
            let address = JSONColumn("address")
            let name = Column("name")
            #expect(
                try String.fetchOne(
                    db, request.select(Database.jsonArray([name, address["country"]] as [any SQLExpressible])))
                    == #"["Arthur","DE"]"#)
            let elements: [(key: String, value: any SQLExpressible)] = [
                (key: "name", value: name), (key: "country", value: address["country"]),
            ]
            let object = Database.jsonObject(elements)
            #expect(try String.fetchOne(db, request.select(object)) == #"{"name":"Arthur","country":"DE"}"#)
            // A JSON column is embedded as JSON, a text column as a string.
            let nested = Database.jsonArray([address.jsonExtract(atPath: "$.city"), address] as [any SQLExpressible])
            #expect(
                try String.fetchOne(db, request.select(nested))
                    == #"["Berlin",{"street":"Hauptstraße","city":"Berlin","country":"DE"}]"#)
            let asText = Database.jsonArray([Column("address")] as [any SQLExpressible])
            #expect(try String.fetchOne(db, request.select(asText))?.hasPrefix(#"["{\""#) == true)
            let asJSON = Database.jsonArray([Column("address").asJSON] as [any SQLExpressible])
            #expect(try String.fetchOne(db, request.select(asJSON))?.hasPrefix(#"[{""#) == true)
            #expect(try String.fetchOne(db, request.select(Database.jsonQuote(name))) == #""Arthur""#)
            #expect(try String.fetchOne(db, request.select(Database.json(#" { "a" : 1 } "#))) == #"{"a":1}"#)
            #expect(try Int.fetchOne(db, request.select(Database.jsonArrayLength("[1,2,3]"))) == 3)
            #expect(try Int.fetchOne(db, request.select(Database.jsonArrayLength(#"{"a":[1]}"#, atPath: "$.a"))) == 1)
            #expect(try Bool.fetchOne(db, request.select(Database.jsonIsValid(address))) == true)
            #expect(try Bool.fetchOne(db, request.select(Database.jsonIsValid(name))) == false)
        }
    }

    @Test("Aggregates")
    func aggregates() throws {
        try makeQueue().read { db throws in
            let address = JSONColumn("address")
            let names = Database.jsonGroupArray(Column("name"))
            #expect(try String.fetchOne(db, Table("player").select(names)) == #"["Arthur","Barbara"]"#)
            let filtered = Database.jsonGroupArray(Column("name"), filter: address["country"] == "FR")
            #expect(try String.fetchOne(db, Table("player").select(filtered)) == #"["Barbara"]"#)
            let byName = Database.jsonGroupObject(key: Column("name"), value: address["country"])
            #expect(try String.fetchOne(db, Table("player").select(byName)) == #"{"Arthur":"DE","Barbara":"FR"}"#)
            let cities = Database.jsonGroupObject(key: Column("id"), value: address)
            #expect(try String.fetchOne(db, Table("player").select(cities))?.hasPrefix(#"{"a":{"street""#) == true)
        }
    }

    @Test("Modifications: insert, replace, set, remove, patch")
    func modifications() throws {
        try DatabaseQueue().read { db throws in
            let value = #"{"a":1,"b":2}"#
            let nested: [(key: String, value: any SQLExpressible)] = [(key: "$.c", value: Database.json("[1]"))]
            let assignments: [(key: String, value: any SQLExpressible)] = [
                (key: "$.a", value: 9), (key: "$.c", value: 3),
            ]
            func eval(_ expression: SQLExpression) throws -> String? {
                try String.fetchOne(db, SQLRequest<String>(literal: "SELECT \(expression)"))
            }
            #expect(try eval(Database.jsonInsert(value, assignments)) == #"{"a":1,"b":2,"c":3}"#)
            #expect(try eval(Database.jsonReplace(value, assignments)) == #"{"a":9,"b":2}"#)
            #expect(try eval(Database.jsonSet(value, assignments)) == #"{"a":9,"b":2,"c":3}"#)
            #expect(try eval(Database.jsonSet(value, nested)) == #"{"a":1,"b":2,"c":[1]}"#)
            #expect(try eval(Database.jsonRemove(value, atPath: "$.a")) == #"{"b":2}"#)
            #expect(try eval(Database.jsonRemove(value, atPaths: ["$.a", "$.b"])) == "{}")
            #expect(try eval(Database.jsonPatch(value, with: #"{"b":null,"d":4}"#)) == #"{"a":1,"d":4}"#)
        }
    }

    @Test("Invalid JSON gives an SQLite error")
    func invalidJSON() throws {
        let dbQueue = try DatabaseQueue()
        #expect(throws: DatabaseError.self) {
            try dbQueue.read { db throws in
                try String.fetchOne(db, SQLRequest<String>(literal: "SELECT \(Database.json("{oops"))"))
            }
        }
    }

    @Test("Aliased JSON columns")
    func alias() throws {
        try makeQueue().read { db throws in
            let alias = TableAlias<JSONPlayer>(name: "p")
            let request = JSONPlayer.aliased(alias).filter(alias.address["country"] == "FR")
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara"])
            let sql = try request.makePreparedRequest(db).statement.sql
            #expect(sql == #"SELECT "p".* FROM "player" "p" WHERE ("p"."address" ->> ?) = ?"#)
        }
    }
}
