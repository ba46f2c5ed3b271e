import Foundation
import Strata
import StrataTestSupport
import Testing

/// The SQL of prefetch queries (issue 17, items 15 and 18).
struct PrefetchSQLTests {
    private struct Team: TableRecord {
        static let players = hasMany(Player.self)
    }

    private struct Player: TableRecord {}

    private struct Country: TableRecord {
        static let cities = hasMany(City.self)
        static let streets = hasMany(Street.self, through: cities, using: City.streets)
    }

    private struct City: TableRecord {
        static let country = belongsTo(Country.self)
        static let streets = hasMany(Street.self)
    }

    private struct Street: TableRecord {}

    /// The teams and players of the kit, and countries whose cities and
    /// streets have compound foreign keys.
    private func database() throws -> DatabaseQueue {
        try teamPlayersDatabase(
            """
            CREATE TABLE country (code TEXT, region TEXT, name TEXT, PRIMARY KEY (code, region));
            CREATE TABLE city (
              id INTEGER PRIMARY KEY, countryCode TEXT, countryRegion TEXT, name TEXT,
              FOREIGN KEY (countryCode, countryRegion) REFERENCES country(code, region));
            INSERT INTO country VALUES ('FR', 'EU', 'France'), ('US', 'NA', 'USA');
            INSERT INTO city VALUES (1, 'FR', 'EU', 'Paris'), (2, 'FR', 'EU', 'Lyon'), (3, 'US', 'NA', 'Boston');
            CREATE TABLE street (id INTEGER PRIMARY KEY, cityId INTEGER REFERENCES city(id), name TEXT);
            INSERT INTO street VALUES (1, 1, 'Rivoli'), (2, 2, 'Mercière'), (3, 1, 'Bac'), (4, 3, 'Beacon');
            """)
    }

    /// Fetches rows, and returns the statements run, with their arguments.
    private func fetchTraced(_ db: Database, _ request: some FetchRequest) throws -> ([Row], [String]) {
        var rows: [Row] = []
        let sqls = try recordSQL(db, .user, expanded: true) { rows = try Row.fetchAll(db, request) }
        return (rows, sqls)
    }

    @Test func singleKeyPrefetchUsesEquality() throws {
        try database().read { db throws in
            _ = try Row.fetchAll(db, Team.including(all: Team.players))  // Loads the schema
            let (rows, sqls) = try fetchTraced(db, Team.filter(key: 1).including(all: Team.players))
            #expect(
                sqls == [
                    #"SELECT * FROM "team" WHERE "id" = 1"#,
                    #"SELECT *, "teamId" AS "grdb_teamId" FROM "player" WHERE "teamId" = 1"#,
                ])
            let players = try #require(rows.first?.prefetchedRows["players"])
            #expect(players.map { $0["name"] as String } == ["Arthur", "Barbara"])
            #expect(Array(players[0].columnNames) == ["id", "teamId", "name", "grdb_teamId"])
            // unscoped drops the prefetched rows too.
            let row = try #require(rows.first)
            #expect(row.unscoped.prefetchedRows.isEmpty)
            #expect(row != row.unscoped)
        }
    }

    @Test func compoundKeyPrefetchUsesBaseCTE() throws {
        try database().read { db throws in
            _ = try Row.fetchAll(db, Country.including(all: Country.cities))  // Loads the schema
            let (rows, sqls) = try fetchTraced(
                db, Country.filter(Column("name") != "Italy").including(all: Country.cities).order(Column("name")))
            #expect(
                sqls == [
                    #"SELECT * FROM "country" WHERE "name" <> 'Italy' ORDER BY "name""#,
                    """
                    WITH "grdb_base" AS (SELECT "code", "region" FROM "country" WHERE "name" <> 'Italy') \
                    SELECT *, "countryCode" AS "grdb_countryCode", "countryRegion" AS "grdb_countryRegion" \
                    FROM "city" WHERE ("countryCode", "countryRegion") IN "grdb_base"
                    """,
                ])
            #expect(rows.map { $0.prefetchedRows["cities"]?.count } == [2, 1])
        }
    }

    @Test func compoundKeyPrefetchThroughPivotUsesBaseCTE() throws {
        try database().read { db throws in
            _ = try Row.fetchAll(db, Country.including(all: Country.streets))  // Loads the schema
            let (rows, sqls) = try fetchTraced(
                db, Country.including(all: Country.streets.order(Column("name"))).order(Column("name")))
            #expect(
                sqls == [
                    #"SELECT * FROM "country" ORDER BY "name""#,
                    """
                    WITH "grdb_base" AS (SELECT "code", "region" FROM "country") \
                    SELECT "street".*, "city"."countryCode" AS "grdb_countryCode", \
                    "city"."countryRegion" AS "grdb_countryRegion" \
                    FROM "street" \
                    JOIN "city" ON ("city"."id" = "street"."cityId") \
                    AND (("city"."countryCode", "city"."countryRegion") IN "grdb_base") \
                    ORDER BY "street"."name"
                    """,
                ])
            #expect(
                rows.map { $0.prefetchedRows["streets"]?.map { $0["name"] as String } }
                    == [["Bac", "Mercière", "Rivoli"], ["Beacon"]])
        }
    }

    @Test func compoundKeyPrefetchNestedInToOneUsesBaseCTEOfTheJoinPath() throws {
        try database().read { db throws in
            _ = try Row.fetchAll(db, City.including(required: City.country.including(all: Country.cities)))
            let (rows, sqls) = try fetchTraced(
                db,
                City.filter(Column("name") != "Lyon")
                    .including(required: City.country.including(all: Country.cities.order(Column("name"))))
                    .order(Column("id")))
            #expect(
                sqls == [
                    """
                    SELECT "city".*, "country".* FROM "city" \
                    JOIN "country" ON ("country"."code" = "city"."countryCode") \
                    AND ("country"."region" = "city"."countryRegion") \
                    WHERE "city"."name" <> 'Lyon' ORDER BY "city"."id"
                    """,
                    """
                    WITH "grdb_base" AS (SELECT "city"."countryCode", "city"."countryRegion" FROM "city" \
                    JOIN "country" ON ("country"."code" = "city"."countryCode") \
                    AND ("country"."region" = "city"."countryRegion") \
                    WHERE "city"."name" <> 'Lyon') \
                    SELECT "city".*, "country"."code" AS "grdb_code", "country"."region" AS "grdb_region" \
                    FROM "city" \
                    JOIN "country" ON ("country"."code" = "city"."countryCode") \
                    AND ("country"."region" = "city"."countryRegion") \
                    AND (("country"."code", "country"."region") IN "grdb_base") \
                    ORDER BY "city"."name"
                    """,
                ])
            #expect(
                rows.map { $0.scopes["country"]?.prefetchedRows["cities"]?.map { $0["name"] as String } }
                    == [["Lyon", "Paris"], ["Boston"]])
        }
    }

    private struct Parent: TableRecord {
        static let children = hasMany(Child.self)
    }

    private struct Child: TableRecord {
        static let toys = hasMany(Toy.self)
    }

    private struct Toy: TableRecord {}

    @Test func compoundKeyPrefetchNestedInCompoundKeyPrefetch() throws {
        let dbQueue = try inMemoryDatabase(
            """
            CREATE TABLE parent (a INTEGER, b INTEGER, PRIMARY KEY (a, b));
            CREATE TABLE child (
              x INTEGER, y INTEGER, a INTEGER, b INTEGER, PRIMARY KEY (x, y),
              FOREIGN KEY (a, b) REFERENCES parent(a, b));
            CREATE TABLE toy (
              id INTEGER PRIMARY KEY, x INTEGER, y INTEGER, FOREIGN KEY (x, y) REFERENCES child(x, y));
            INSERT INTO parent VALUES (1, 1), (1, 2);
            INSERT INTO child VALUES (10, 10, 1, 1), (10, 20, 1, 1), (20, 20, 1, 2);
            INSERT INTO toy VALUES (1, 10, 10), (2, 10, 20), (3, 10, 20), (4, 20, 20);
            """)
        try dbQueue.read { db throws in
            _ = try Row.fetchAll(db, Parent.including(all: Parent.children.including(all: Child.toys)))
            let (rows, sqls) = try fetchTraced(
                db, Parent.including(all: Parent.children.including(all: Child.toys)).order(Column("b")))
            #expect(
                sqls.last
                    == """
                    WITH "grdb_base" AS (\
                    WITH "grdb_base" AS (SELECT "a", "b" FROM "parent") \
                    SELECT "x", "y" FROM "child" WHERE ("a", "b") IN "grdb_base") \
                    SELECT *, "x" AS "grdb_x", "y" AS "grdb_y" FROM "toy" WHERE ("x", "y") IN "grdb_base"
                    """)
            let toyCounts = rows.map { row in row.prefetchedRows["children"]!.map { $0.prefetchedRows["toys"]!.count } }
            #expect(toyCounts == [[1, 2], [1]])
        }
    }
}
