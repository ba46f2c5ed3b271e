import Foundation
import Strata
import StrataTestSupport
import Testing

/// Associations through pivots, to views (seed 002), to common table
/// expressions, between rows of the same table, and `request(for:)`.
struct ThroughAndViewTests {
    private struct Country: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "country"
        static let citizenships = hasMany(Citizenship.self)
        static let citizens = hasMany(Person.self, through: citizenships, using: Citizenship.person)
        var code: String
        var name: String
    }

    private struct Citizenship: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "citizenship"
        static let person = belongsTo(Person.self)
        static let country = belongsTo(Country.self)
        var countryCode: String
        var personId: Int64
    }

    private struct Person: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "person"
        static let parent = belongsTo(Person.self, key: "parent", using: ForeignKey(["parentId"]))
        static let citizenships = hasMany(Citizenship.self)
        static let countries = hasMany(Country.self, through: citizenships, using: Citizenship.country)
        var id: Int64
        var name: String
        var parentId: Int64?
    }

    private func database() throws -> DatabaseQueue {
        try inMemoryDatabase(
            """
            CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, parentId INTEGER);
            CREATE TABLE citizenship (
              countryCode TEXT NOT NULL REFERENCES country(code),
              personId INTEGER NOT NULL REFERENCES person(id),
              PRIMARY KEY (countryCode, personId));
            INSERT INTO country VALUES ('FR', 'France'), ('DE', 'Germany'), ('IT', 'Italy');
            INSERT INTO person VALUES (1, 'Arthur', NULL), (2, 'Barbara', 1), (3, 'Craig', 1);
            INSERT INTO citizenship VALUES ('FR', 1), ('DE', 1), ('FR', 2), ('IT', 3);
            """)
    }

    private struct CountryInfo: Decodable, FetchableRecord {
        var country: Country
        var people: [Person]
    }

    @Test func hasManyThrough() throws {
        try database().read { db throws in
            let request = Country.joining(required: Country.citizens.filter(Column("name") == "Arthur"))
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "country".* FROM "country" "#
                    + #"JOIN "citizenship" ON "citizenship"."countryCode" = "country"."code" "#
                    + #"JOIN "person" ON ("person"."id" = "citizenship"."personId") AND ("person"."name" = ?)"#)
            #expect(try request.fetchAll(db).map(\.code) == ["FR", "DE"])

            let infos = try Country.including(all: Country.citizens.order(Column("name")))
                .asRequest(of: CountryInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.country.code) == ["FR", "DE", "IT"])
            #expect(infos.map { $0.people.map(\.name) } == [["Arthur", "Barbara"], ["Arthur"], ["Craig"]])

            let counts = try Row.fetchAll(db, Country.annotated(with: Country.citizens.count))
            #expect(counts.map { $0["personCount"] as Int } == [1, 2, 1])  // grouped by code: DE, FR, IT
        }
    }

    @Test func requestForRecord() throws {
        try database().read { db throws in
            let arthur = try #require(try Person.fetchOne(db, key: 1))
            let request = arthur.request(for: Person.citizenships)
            #expect(try requestSQL(db, request) == #"SELECT * FROM "citizenship" WHERE "personId" = ?"#)
            #expect(try request.fetchAll(db).map(\.countryCode).sorted() == ["DE", "FR"])

            let countries = arthur.request(for: Person.countries).order(Column("name"))
            #expect(
                try requestSQL(db, countries)
                    == #"SELECT "country".* FROM "country" JOIN "citizenship" "#
                    + #"ON ("citizenship"."countryCode" = "country"."code") AND ("citizenship"."personId" = ?) "#
                    + #"ORDER BY "country"."name""#)
            #expect(try countries.fetchAll(db).map(\.name) == ["France", "Germany"])
        }
    }

    @Test func sameTableAssociation() throws {
        try database().read { db throws in
            let request = Person.including(optional: Person.parent).order(Column("id"))
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "person1".*, "person2".* FROM "person" "person1" "#
                    + #"LEFT JOIN "person" "person2" ON "person2"."id" = "person1"."parentId" "#
                    + #"ORDER BY "person1"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0.scopes["parent"]?["name"] as String? } == [nil, "Arthur", "Arthur"])
        }
    }

    @Test func cteAssociation() throws {
        try database().read { db throws in
            let cte = CommonTableExpression(
                named: "parentName", request: Person.select(Column("id"), Column("name").forKey("parentName")))
            let association = Person.association(to: cte) { person, parent in
                parent[Column("id")] == person[Column("parentId")]
            }
            let request = Person.with(cte).annotated(withOptional: association.select(Column("parentName")))
                .order(Column("id"))
            #expect(
                try requestSQL(db, request)
                    == #"WITH "parentName" AS (SELECT "id", "name" AS "parentName" FROM "person") "#
                    + #"SELECT "person".*, "parentName"."parentName" FROM "person" "#
                    + #"LEFT JOIN "parentName" ON "parentName"."id" = "person"."parentId" ORDER BY "person"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["parentName"] as String? } == [nil, "Arthur", "Arthur"])
        }
    }

    // MARK: Views (seed 002)

    private struct Team: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "team"
        static let captain = hasOne(Captain.self, using: Captain.teamForeignKey)
        var id: Int64
        var name: String
    }

    private struct Captain: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "captain"
        enum Columns {
            static let teamId = Column("teamId")
        }
        // The captain view has a foreign key to teams: SQLite does not know it.
        static let teamForeignKey = ForeignKey([Columns.teamId])
        static let team = belongsTo(Team.self, using: teamForeignKey)
        var id: Int64
        var name: String
        var teamId: Int64
    }

    private struct CaptainWithTeam: Decodable, FetchableRecord {
        var captain: Captain
        var team: Team
    }

    @Test func viewAssociations() throws {
        let dbQueue = try inMemoryDatabase(
            """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
              teamId INTEGER NOT NULL REFERENCES team(id), isCaptain BOOLEAN NOT NULL DEFAULT 0);
            CREATE VIEW captain AS SELECT id, name, teamId FROM player WHERE isCaptain;
            INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues');
            INSERT INTO player VALUES (1, 'Arthur', 1, 1), (2, 'Barbara', 1, 0), (3, 'Craig', 2, 0);
            """)
        try dbQueue.read { db throws in
            // All teams with a captain
            let teamsWithCaptain: [Team] = try Team.joining(required: Team.captain).fetchAll(db)
            #expect(teamsWithCaptain.map(\.name) == ["Reds"])
            let sql = try requestSQL(db, Team.joining(required: Team.captain))
            #expect(sql == #"SELECT "team".* FROM "team" JOIN "captain" ON "captain"."teamId" = "team"."id""#)

            // All (captain, team) pairs
            let captainsWithTeam: [CaptainWithTeam] = try Captain.including(required: Captain.team)
                .asRequest(of: CaptainWithTeam.self)
                .fetchAll(db)
            #expect(captainsWithTeam.map(\.captain.name) == ["Arthur"])
            #expect(captainsWithTeam.map(\.team.name) == ["Reds"])
        }
    }
}
