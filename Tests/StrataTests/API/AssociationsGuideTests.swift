import Strata
import StrataTestSupport
import Testing

/// Runs the samples of `Sources/Strata/Strata.docc/Associations.md`: each
/// ```swift block of the article is a piece of this file (`ArticleSampleTests`
/// checks it).
struct AssociationsGuideTests {
    struct Team: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String

        static let players = hasMany(Player.self)
        static let coach = hasOne(Coach.self)
        static let awards = hasMany(Award.self, through: players, using: Player.awards)
    }

    struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var teamId: Int64?

        static let team = belongsTo(Team.self)
        static let awards = hasMany(Award.self)
        static let coach = hasOne(Coach.self, through: team, using: Team.coach)
    }

    struct Coach: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var teamId: Int64
    }

    struct Award: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var title: String
        var playerId: Int64
    }

    struct PlayerInfo: Decodable, FetchableRecord {
        var player: Player
        var team: Team
    }

    struct PlayerWithOptionalTeam: Decodable, FetchableRecord {
        var player: Player
        var team: Team?
    }

    struct TeamInfo: Decodable, FetchableRecord {
        var team: Team
        var players: [Player]
    }

    struct TeamRoster: Decodable, FetchableRecord {
        var team: Team
        var roster: [Player]
    }

    /// The schema of the article and a few rows: two teams, three players
    /// (one without a team), one coach and two awards.
    static func makeDatabase() throws -> DatabaseQueue {
        try inMemoryDatabase { db in
            try db.create(table: "team") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.belongsTo("team")  // the teamId column, a foreign key to team
            }
            try db.create(table: "coach") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.belongsTo("team").notNull().unique()  // one coach per team
            }
            try db.create(table: "award") { t in
                t.primaryKey("id", .integer)
                t.column("title", .text).notNull()
                t.belongsTo("player").notNull()
            }
            try Team(id: 1, name: "Reds").insert(db)
            try Team(id: 2, name: "Blues").insert(db)
            try Player(id: 1, name: "Arthur", teamId: 1).insert(db)
            try Player(id: 2, name: "Barbara", teamId: 1).insert(db)
            try Player(id: 3, name: "Craig", teamId: nil).insert(db)
            try Coach(id: 1, name: "Diane", teamId: 1).insert(db)
            try Award(id: 1, title: "MVP", playerId: 1).insert(db)
            try Award(id: 2, title: "Rookie", playerId: 2).insert(db)
        }
    }

    @Test func schemaSampleRuns() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Team.fetchCount(db) == 2)
            #expect(try Award.fetchCount(db) == 2)
        }
    }

    @Test func requestForOneRecord() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db in
            let reds = try Team.find(db, key: 1)
            let players = try reds.request(for: Team.players).fetchAll(db)  // [Player]
            let coach = try reds.request(for: Team.coach).fetchOne(db)  // Coach?
            let awards = try reds.request(for: Team.awards).fetchAll(db)  // [Award], through the players
            #expect(players.map(\.name) == ["Arthur", "Barbara"])
            #expect(coach?.name == "Diane")
            #expect(Set(awards.map(\.title)) == ["MVP", "Rookie"])
            let arthur = try Player.find(db, key: 1)
            #expect(try arthur.request(for: Player.team).fetchOne(db)?.name == "Reds")
            #expect(try arthur.request(for: Player.coach).fetchOne(db)?.name == "Diane")
        }
    }

    @Test func includingRequired() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db in
            let request = Player.including(required: Player.team).asRequest(of: PlayerInfo.self)
            let infos = try request.fetchAll(db)
            for info in infos {
                print("\(info.player.name) plays for \(info.team.name)")
            }
            #expect(infos.map(\.player.name) == ["Arthur", "Barbara"])
            #expect(infos.map(\.team.name) == ["Reds", "Reds"])
        }
    }

    @Test func includingOptional() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db in
            let request = Player.including(optional: Player.team).asRequest(of: PlayerWithOptionalTeam.self)
            let infos = try request.fetchAll(db)
            // Craig has no team: his info has a nil team
            #expect(infos.map(\.player.name) == ["Arthur", "Barbara", "Craig"])
            #expect(infos.map(\.team?.name) == ["Reds", "Reds", nil])
        }
    }

    @Test func includingAll() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db in
            let request = Team.including(all: Team.players).asRequest(of: TeamInfo.self)
            let teams = try request.fetchAll(db)
            // Reds: [Arthur, Barbara], Blues: []
            #expect(teams.map(\.team.name) == ["Reds", "Blues"])
            #expect(teams.map { $0.players.map(\.name) } == [["Arthur", "Barbara"], []])
        }
    }

    @Test func joining() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db in
            let reds = Player.team.filter(Column("name") == "Reds")
            let redPlayers = try Player.joining(required: reds).fetchAll(db)  // [Player]: the team is not fetched
            let coachedTeams = try Team.joining(required: Team.coach).fetchAll(db)  // [Team]: the teams with a coach
            #expect(redPlayers.map(\.name) == ["Arthur", "Barbara"])
            #expect(coachedTeams.map(\.name) == ["Reds"])
        }
    }

    @Test func forKey() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db in
            let request = Team.including(all: Team.players.forKey("roster")).asRequest(of: TeamRoster.self)
            let rosters = try request.fetchAll(db)
            #expect(rosters.map { $0.roster.count } == [2, 0])
        }
    }
}
