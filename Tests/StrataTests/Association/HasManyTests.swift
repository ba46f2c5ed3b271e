import Foundation
import Strata
import StrataTestSupport
import Testing

/// `hasMany`, `including(all:)` and the teams and players of seed 000.
struct HasManyTests {
    private struct Team: Codable, FetchableRecord, TableRecord, Hashable {
        static let databaseTableName = "team"
        static let players = hasMany(Player.self)
        var id: Int64
        var name: String
    }

    private struct Player: Codable, FetchableRecord, TableRecord, Hashable {
        static let databaseTableName = "player"
        static let team = belongsTo(Team.self)
        var id: Int64
        var teamId: Int64?
        var name: String
        var score: Int
    }

    private func teamDatabase() throws -> DatabaseQueue {
        try inMemoryDatabase(
            """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE player (
              id INTEGER PRIMARY KEY,
              teamId INTEGER REFERENCES team(id),
              name TEXT NOT NULL,
              score INTEGER NOT NULL);
            INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues'), (3, 'Greens');
            INSERT INTO player VALUES (1, 1, 'Arthur', 100), (2, 1, 'Barbara', 300), (3, 2, 'Craig', 200),
              (4, NULL, 'David', 50), (5, 1, 'Eve', 10), (6, 1, 'Fiona', 20), (7, 1, 'Gus', 30);
            """)
    }

    @Test func defaultKeys() {
        #expect(Team.players.databaseTableName == "player")
        #expect(Player.team.databaseTableName == "team")
    }

    @Test func includingRequiredTeam() throws {
        // SELECT player.*, team.* FROM player JOIN team ON team.id = player.teamId
        try teamDatabase().read { db throws in
            let request = Player.including(required: Player.team)
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId""#)
            #expect(try Row.fetchAll(db, request).count == 6)
        }
    }

    @Test func annotatedWithAlias() throws {
        // SELECT player.*, team.name FROM player JOIN team ON team.id = player.teamId
        try teamDatabase().read { db throws in
            let nameColumn = Column("name")
            let teamAlias = TableAlias()
            let request =
                Player
                .annotated(with: teamAlias[nameColumn])
                .joining(required: Player.team.aliased(teamAlias))
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "player".*, "team"."name" FROM "player" JOIN "team" ON "team"."id" = "player"."teamId""#
            )
            let rows = try Row.fetchAll(db, request)
            #expect(rows.first?.count == 5)
        }
    }

    private struct TeamInfo: Decodable, FetchableRecord {
        var team: Team
        var players: [Player]
    }

    @Test func includingAll() throws {
        let dbQueue = try teamDatabase()
        var sqls: [String] = []
        try dbQueue.read { db throws in
            db.trace { sqls.append($0.expandedDescription) }
            let request = Team.including(all: Team.players)
            #expect(try requestSQL(db, request) == #"SELECT * FROM "team""#)
            _ = try Row.fetchAll(db, request)  // Loads the schema
            sqls = []
            let rows = try Row.fetchAll(db, request)
            #expect(
                sqls == [
                    #"SELECT * FROM "team""#,
                    #"SELECT *, "teamId" AS "grdb_teamId" FROM "player" WHERE "teamId" IN (1, 2, 3)"#,
                ])
            #expect(rows.count == 3)
            #expect(
                rows[0].prefetchedRows["players"]?.map { $0["name"] as String } == [
                    "Arthur", "Barbara", "Eve", "Fiona", "Gus",
                ])
            // The pivot column is an ordinary column, after the player columns.
            #expect(rows[0].prefetchedRows["players"]?.first.map { Array($0.columnNames).last } == "grdb_teamId")
            #expect(rows[2].prefetchedRows["players"] == [])

            // Seed 000: rows map to TeamInfo.
            let teamInfos = try rows.map(TeamInfo.init(row:))
            #expect(teamInfos.map(\.players.count) == [5, 1, 0])
            let decoded = try request.asRequest(of: TeamInfo.self).fetchAll(db)
            #expect(decoded.map(\.team.name) == ["Reds", "Blues", "Greens"])
            #expect(
                decoded.map { $0.players.map(\.name) } == [
                    ["Arthur", "Barbara", "Eve", "Fiona", "Gus"], ["Craig"], [],
                ])
            let one = try request.asRequest(of: TeamInfo.self).fetchOne(db)
            #expect(one?.players.count == 5)
        }
    }

    @Test func includingAllRefined() throws {
        try teamDatabase().read { db throws in
            let request =
                Team
                .filter(Column("id") != 3)
                .including(all: Team.players.filter(Column("score") >= 100).order(Column("score").desc).forKey("stars"))
            let rows = try Row.fetchAll(db, request)
            #expect(
                rows.map { $0.prefetchedRows["stars"]!.map { $0["name"] as String } } == [
                    ["Barbara", "Arthur"], ["Craig"],
                ])
            #expect(rows[0].prefetchedRows["players"] == nil)
            let empty = try Row.fetchAll(db, Team.none().including(all: Team.players))
            #expect(empty.isEmpty)
        }
    }

    @Test func includingAllManyOrigins() throws {
        // More origin rows than SQLite accepts statement arguments (32766):
        // the prefetch runs in chunks, and each team gets its own players.
        let dbQueue = try inMemoryDatabase(
            """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE player (
              id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT NOT NULL,
              score INTEGER NOT NULL);
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 40000)
            INSERT INTO team SELECT x, 'team' || x FROM c;
            INSERT INTO player (teamId, name, score) SELECT id, 'a' || id, id FROM team WHERE id % 2 = 0;
            INSERT INTO player (teamId, name, score) SELECT id, 'b' || id, -id FROM team WHERE id % 2 = 0;
            """)
        try dbQueue.read { db in
            let request = Team.including(all: Team.players.order(Column("score")))
            let rows = try Row.fetchAll(db, request)
            #expect(rows.count == 40000)
            let names = rows.map { row in row.prefetchedRows["players"]!.map { $0["name"] as String } }
            #expect(names[0] == [])
            #expect(names[1] == ["b2", "a2"])
            #expect(names[39999] == ["b40000", "a40000"])
            #expect(names.map(\.count).reduce(0, +) == 40000)
        }
    }

    private struct Parent: TableRecord {
        static let databaseTableName = "parent"
        static let children = hasMany(Child.self)
    }

    private struct Child: TableRecord {
        static let databaseTableName = "child"
    }

    @Test func includingAllManyOriginsWithCompositeKeys() throws {
        // Keys of two columns are matched with `(a = ? AND b = ?) OR ...`:
        // the prefetch runs in chunks below SQLite's expression depth limit.
        let dbQueue = try inMemoryDatabase(
            """
            CREATE TABLE parent (a INTEGER, b INTEGER, PRIMARY KEY (a, b));
            CREATE TABLE child (
              id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, FOREIGN KEY (a, b) REFERENCES parent(a, b));
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000)
            INSERT INTO parent SELECT x, -x FROM c;
            INSERT INTO child (a, b) SELECT a, b FROM parent WHERE a % 3 = 0;
            """)
        try dbQueue.read { db in
            let rows = try Row.fetchAll(db, Parent.including(all: Parent.children))
            #expect(rows.count == 3000)
            let counts = rows.map { $0.prefetchedRows["children"]!.count }
            #expect(counts.reduce(0, +) == 1000)
            #expect(zip(rows, counts).allSatisfy { row, count in count == ((row["a"] as Int) % 3 == 0 ? 1 : 0) })
        }
    }

    @Test func includingAllTracksJoinedTables() throws {
        // Observing association requests tracks every joined table (seed 000 ValueObservation).
        try teamDatabase().read { db throws in
            let region = try Team.including(all: Team.players).databaseRegion(db)
            #expect(region.description.contains("team"))
            #expect(region.description.contains("player"))
            let joined = try Player.including(required: Player.team).databaseRegion(db)
            #expect(joined.description.contains("team"))
            #expect(joined.description.contains("player"))
        }
    }

    @Test func countAggregate() throws {
        // SELECT team.*, COUNT(DISTINCT player.id) AS playerCount FROM team
        // LEFT JOIN player ON player.teamId = team.id GROUP BY team.id
        try teamDatabase().read { db throws in
            let request = Team.annotated(with: Team.players.count)
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "team".*, COUNT(DISTINCT "player"."id") AS "playerCount" FROM "team" "#
                    + #"LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["playerCount"] as Int } == [5, 1, 0])
            #expect(try request.fetchCount(db) == 3)
        }
    }

    @Test func havingAggregate() throws {
        // SELECT team.* FROM team LEFT JOIN player ON player.teamId = team.id
        // GROUP BY team.id HAVING COUNT(DISTINCT player.id) >= 5
        try teamDatabase().read { db throws in
            let request = Team.having(Team.players.count >= 5)
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "team".* FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" "#
                    + #"GROUP BY "team"."id" HAVING COUNT(DISTINCT "player"."id") >= ?"#)
            #expect(try requestArguments(db, request) == [5])
            #expect(try request.fetchAll(db).map(\.name) == ["Reds"])
            #expect(try Team.having(Team.players.isEmpty).fetchAll(db).map(\.name) == ["Greens"])
            #expect(try Team.all().having(!Team.players.isEmpty).fetchCount(db) == 2)
        }
    }

    @Test func otherAggregates() throws {
        try teamDatabase().read { db throws in
            let score = Column("score")
            let request = Team.annotated(with: [
                Team.players.isEmpty,
                Team.players.min(score),
                Team.players.max(score),
                Team.players.sum(score),
                Team.players.average(score),
                Team.players.total(score).forKey("scoreTotal"),
            ])
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "team".*, COUNT(DISTINCT "player"."id") = 0 AS "hasNoPlayer", "#
                    + #"MIN("player"."score") AS "minPlayerScore", MAX("player"."score") AS "maxPlayerScore", "#
                    + #"SUM("player"."score") AS "playerScoreSum", AVG("player"."score") AS "averagePlayerScore", "#
                    + #"TOTAL("player"."score") AS "scoreTotal" FROM "team" "#
                    + #"LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["hasNoPlayer"] as Bool } == [false, false, true])
            #expect(rows.map { $0["minPlayerScore"] as Int? } == [10, 200, nil])
            #expect(rows.map { $0["maxPlayerScore"] as Int? } == [300, 200, nil])
            #expect(rows.map { $0["playerScoreSum"] as Int? } == [460, 200, nil])
            #expect(rows.map { $0["averagePlayerScore"] as Double? } == [92, 200, nil])
            #expect(rows.map { $0["scoreTotal"] as Double } == [460, 200, 0])
        }
    }

    @Test func aggregateOperators() throws {
        try teamDatabase().read { db throws in
            let score = Column("score")
            let request = Team.annotated(with: [
                (Team.players.count * 10 + 1).forKey("weighted"),
                (Team.players.max(score) - Team.players.min(score)).forKey("spread"),
                (Team.players.max(score) ?? 0).forKey("best"),
                cast(Team.players.count, as: .real).forKey("realCount"),
            ])
            .having(Team.players.count > 0 && Team.players.max(score) >= 200)
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "team".*, (COUNT(DISTINCT "player"."id") * ?) + ? AS "weighted", "#
                    + #"MAX("player"."score") - MIN("player"."score") AS "spread", "#
                    + #"IFNULL(MAX("player"."score"), ?) AS "best", "#
                    + #"CAST(COUNT(DISTINCT "player"."id") AS REAL) AS "realCount" FROM "team" "#
                    + #"LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id" "#
                    + #"HAVING (COUNT(DISTINCT "player"."id") > ?) AND (MAX("player"."score") >= ?)"#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["weighted"] as Int } == [51, 11])
            #expect(rows.map { $0["spread"] as Int } == [290, 0])
            #expect(rows.map { $0["realCount"] as Double } == [5, 1])
        }
    }

    @Test func filteredAggregateNeedsItsOwnKey() throws {
        try teamDatabase().read { db throws in
            let stars = Team.players.filter(Column("score") >= 100).forKey("stars")
            let request = Team.annotated(with: Team.players.count, stars.count)
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "team".*, COUNT(DISTINCT "player1"."id") AS "playerCount", "#
                    + #"COUNT(DISTINCT "player2"."id") AS "starCount" FROM "team" "#
                    + #"LEFT JOIN "player" "player1" ON "player1"."teamId" = "team"."id" "#
                    + #"LEFT JOIN "player" "player2" ON ("player2"."teamId" = "team"."id") AND ("player2"."score" >= ?) "#
                    + #"GROUP BY "team"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["playerCount"] as Int } == [5, 1, 0])
            #expect(rows.map { $0["starCount"] as Int } == [2, 1, 0])
        }
    }

    private struct TeamWithCount: Decodable, FetchableRecord {
        var team: Team
        var playerCount: Int
    }

    @Test func decodeAnnotatedRecord() throws {
        try teamDatabase().read { db throws in
            let infos = try Team.annotated(with: Team.players.count).asRequest(of: TeamWithCount.self).fetchAll(db)
            #expect(infos.map(\.team.name) == ["Reds", "Blues", "Greens"])
            #expect(infos.map(\.playerCount) == [5, 1, 0])
        }
    }
}
