import Strata
import StrataTestSupport
import Testing

private struct PostalAddress: TableRecord {}
private struct HTTPRequest: TableRecord {}
private struct TOEFL: TableRecord {}
private struct Player: TableRecord {}

private struct RestrictedPlayer: TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }
}

private struct ExtendedPlayer: TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }
}

private struct Country: TableRecord, FetchableRecord, Identifiable, Hashable {
    var id: String
    var name: String
    init(row: Row) throws {
        id = row["isoCode"]
        name = row["name"]
    }
}

private struct Citizenship: TableRecord {}
private struct Document: TableRecord, FetchableRecord {
    var content: String
    init(row: Row) throws { content = row["content"] }
}

/// `TableRecord`: table names, selections, keys, batch updates and deletes.
struct TableRecordQueryTests {
    private func keyDatabase() throws -> DatabaseQueue {
        try qiPlayerDatabase(
            """
            CREATE TABLE country (isoCode TEXT PRIMARY KEY, name TEXT NOT NULL);
            INSERT INTO country VALUES ('FR', 'France'), ('US', 'United States'), ('DE', 'Germany');
            CREATE TABLE citizenship (citizenId INTEGER, countryCode TEXT, PRIMARY KEY (citizenId, countryCode));
            INSERT INTO citizenship VALUES (1, 'FR'), (1, 'US'), (2, 'FR');
            CREATE TABLE document (content TEXT);
            INSERT INTO document VALUES ('a'), ('b');
            CREATE UNIQUE INDEX player_email ON player(email);
            UPDATE player SET email = 'arthur@example.com' WHERE id = 1;
            """)
    }

    @Test func defaultTableNames() {
        #expect(PostalAddress.databaseTableName == "postalAddress")
        #expect(HTTPRequest.databaseTableName == "httpRequest")
        #expect(TOEFL.databaseTableName == "toefl")
        #expect(Player.databaseTableName == "player")
        #expect(QIPlayer.databaseTableName == "player")
        #expect(Country.databaseTableName == "country")
    }

    @Test func databaseSelection() throws {
        try qiPlayerDatabase().read { db throws in
            #expect(try requestSQL(db, RestrictedPlayer.all()) == "SELECT \"id\", \"name\" FROM \"player\"")
            #expect(try requestSQL(db, ExtendedPlayer.all()) == "SELECT *, \"rowid\" FROM \"player\"")
            #expect(try RestrictedPlayer.numberOfSelectedColumns(db) == 2)
            #expect(try Row.fetchOne(db, RestrictedPlayer.all())?.count == 2)
        }
    }

    @Test func filterByKey() throws {
        try keyDatabase().read { db throws in
            #expect(try requestSQL(db, QIPlayer.filter(key: 1)) == "SELECT * FROM \"player\" WHERE \"id\" = ?")
            #expect(
                try requestSQL(db, Country.filter(keys: ["FR", "US"]))
                    == "SELECT * FROM \"country\" WHERE \"isoCode\" IN (?, ?)")
            #expect(
                try requestSQL(db, Country.filter(ids: ["FR", "US"]))
                    == "SELECT * FROM \"country\" WHERE \"isoCode\" IN (?, ?)")
            #expect(try requestSQL(db, Country.filter(id: "FR")) == "SELECT * FROM \"country\" WHERE \"isoCode\" = ?")
            #expect(
                try requestSQL(db, Citizenship.filter(key: ["citizenId": 1, "countryCode": "FR"]))
                    == "SELECT * FROM \"citizenship\" WHERE (\"citizenId\" = ?) AND (\"countryCode\" = ?)")
            #expect(
                try requestSQL(db, QIPlayer.filter(key: ["email": "arthur@example.com"]))
                    == "SELECT * FROM \"player\" WHERE \"email\" = ?")
            #expect(try requestSQL(db, Document.filter(key: 1)) == "SELECT * FROM \"document\" WHERE \"rowid\" = ?")
            #expect(try requestSQL(db, QIPlayer.filter(keys: [Int]())) == "SELECT * FROM \"player\" WHERE 0")
            #expect(try requestSQL(db, QIPlayer.filter(key: nil)) == "SELECT * FROM \"player\" WHERE 0")
            #expect(try requestSQL(db, Table("player").filter(key: 2)) == "SELECT * FROM \"player\" WHERE \"id\" = ?")

            #expect(try QIPlayer.fetchOne(db, key: 2)?.name == "Barbara")
            #expect(try QIPlayer.fetchOne(db, key: ["email": "arthur@example.com"])?.id == 1)
            #expect(try Country.fetchOne(db, id: "DE")?.name == "Germany")
            #expect(try Country.fetchAll(db, ids: ["FR", "US"]).count == 2)
            #expect(try Country.fetchSet(db, keys: ["FR"]).map(\.name) == ["France"])
            #expect(try Country.fetchAll(db, keys: ["FR", "US", "XX"]).count == 2)
            #expect(try Document.fetchOne(db, key: 2)?.content == "b")
            #expect(
                try Citizenship.filter(keys: [
                    ["citizenId": 1, "countryCode": "FR"], ["citizenId": 2, "countryCode": "FR"],
                ]).fetchCount(db) == 2)
            #expect(try QIPlayer.exists(db, key: 1))
            #expect(try !QIPlayer.exists(db, key: 99))
            #expect(try Country.exists(db, id: "FR"))
            #expect(try Citizenship.exists(db, key: ["citizenId": 2, "countryCode": "FR"]))
        }
    }

    @Test func orderAndGroupByPrimaryKey() throws {
        try keyDatabase().read { db throws in
            #expect(try requestSQL(db, QIPlayer.orderByPrimaryKey()) == "SELECT * FROM \"player\" ORDER BY \"id\"")
            #expect(try requestSQL(db, Country.orderByPrimaryKey()) == "SELECT * FROM \"country\" ORDER BY \"isoCode\"")
            #expect(
                try requestSQL(db, Citizenship.orderByPrimaryKey())
                    == "SELECT * FROM \"citizenship\" ORDER BY \"citizenId\", \"countryCode\"")
            #expect(try requestSQL(db, Document.orderByPrimaryKey()) == "SELECT * FROM \"document\" ORDER BY \"rowid\"")
            #expect(
                try requestSQL(db, Country.all().groupByPrimaryKey()) == "SELECT * FROM \"country\" GROUP BY \"rowid\"")
            #expect(try Country.orderByPrimaryKey().reversed().fetchAll(db).map(\.id) == ["US", "FR", "DE"])
            #expect(
                try requestSQL(db, Country.order(Column("name")).withStableOrder())
                    == "SELECT * FROM \"country\" ORDER BY \"name\", \"isoCode\"")
        }
    }

    @Test func nonUniqueKeysAreFatal() async {
        await #expect(processExitsWith: .failure) {
            try DatabaseQueue().read { db throws in
                try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
                _ = try Table("player").filter(key: ["name": "Arthur"]).fetchAll(db)
            }
        }
        await #expect(processExitsWith: .failure) {
            try DatabaseQueue().read { db throws in
                try db.execute(sql: "CREATE TABLE t (a INT, b INT, PRIMARY KEY (a, b))")
                _ = try Table("t").filter(key: 1).fetchAll(db)
            }
        }
    }

    @Test func deletion() throws {
        try keyDatabase().write { db throws in
            var statements: [String] = []
            db.trace { statements.append($0.description) }
            #expect(try Country.deleteOne(db, id: "FR"))
            #expect(try !Country.deleteOne(db, key: "XX"))
            #expect(try Citizenship.deleteOne(db, key: ["citizenId": 1, "countryCode": "US"]))
            #expect(try Country.deleteAll(db, ids: ["US", "DE"]) == 2)
            #expect(try QIPlayer.filter(Column("team") == "red").deleteAll(db) == 2)
            #expect(try QIPlayer.order(Column("score")).limit(1).deleteAll(db) == 1)
            #expect(try QIPlayer.fetchAll(db).map(\.id) == [2])
            #expect(try QIPlayer.deleteAll(db) == 1)
            db.trace(nil)
            #expect(
                statements.filter { $0.hasPrefix("DELETE") } == [
                    "DELETE FROM \"country\" WHERE \"isoCode\" = ?",
                    "DELETE FROM \"country\" WHERE \"isoCode\" = ?",
                    "DELETE FROM \"citizenship\" WHERE (\"citizenId\" = ?) AND (\"countryCode\" = ?)",
                    "DELETE FROM \"country\" WHERE \"isoCode\" IN (?, ?)",
                    "DELETE FROM \"player\" WHERE \"team\" = ?",
                    "DELETE FROM \"player\" ORDER BY \"score\" LIMIT 1",
                    "DELETE FROM \"player\"",
                ])
        }
    }

    @Test func batchUpdates() throws {
        try keyDatabase().write { db throws in
            var statements: [String] = []
            db.trace { statements.append($0.description) }
            #expect(
                try QIPlayer.updateAll(
                    db, Column("score").set(to: 0), Column("verified").set(to: true), Column("bonus").set(to: nil))
                    == 4)
            try QIPlayer.filter(Column("team") == "red").updateAll(db, Column("score").set(to: 10))
            try QIPlayer.order(Column("score").desc).limit(1).updateAll(db, Column("verified").set(to: false))
            try QIPlayer.updateAll(db, Column("score").set(to: Column("score") + Column("id") * 2))
            try QIPlayer.updateAll(db, Column("score") += Column("id") * 2)
            try QIPlayer.updateAll(db, Column("score") -= 1, Column("bonus") *= 2)
            try QIPlayer.updateAll(db, onConflict: .ignore, Column("score") /= 1)
            try QIPlayer.updateAll(db) { $0.score.set(to: 5) }
            try Country.filter(id: "FR").updateAll(db, Column("name").set(to: "République française"))
            #expect(try QIPlayer.updateAll(db, []) == 0)
            db.trace(nil)
            #expect(
                statements.filter { $0.hasPrefix("UPDATE") } == [
                    "UPDATE \"player\" SET \"score\" = ?, \"verified\" = ?, \"bonus\" = NULL",
                    "UPDATE \"player\" SET \"score\" = ? WHERE \"team\" = ?",
                    "UPDATE \"player\" SET \"verified\" = ? ORDER BY \"score\" DESC LIMIT 1",
                    "UPDATE \"player\" SET \"score\" = \"score\" + (\"id\" * ?)",
                    "UPDATE \"player\" SET \"score\" = \"score\" + (\"id\" * ?)",
                    "UPDATE \"player\" SET \"score\" = \"score\" - ?, \"bonus\" = \"bonus\" * ?",
                    "UPDATE OR IGNORE \"player\" SET \"score\" = \"score\" / ?",
                    "UPDATE \"player\" SET \"score\" = ?",
                    "UPDATE \"country\" SET \"name\" = ? WHERE \"isoCode\" = ?",
                ])
            #expect(try Int.fetchAll(db, QIPlayer.select(Column("score")).distinct()) == [5])
            #expect(
                try String.fetchOne(db, sql: "SELECT name FROM country WHERE isoCode = 'FR'") == "République française")
        }
    }
}
