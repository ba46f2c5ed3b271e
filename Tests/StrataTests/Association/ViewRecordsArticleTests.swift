import Foundation
import Strata
import StrataTestSupport
import Testing

/// The samples of the ViewRecords article (seed 002), in the order of the
/// article, with the article's own migrations and records (issue 17, "Done
/// when"). The schema is in `ViewRecordsFixture`, shared with `PersistableViewTests`.
struct ViewRecordsArticleTests {
    private typealias Team = ViewRecordsFixture.Team
    private typealias Player = ViewRecordsFixture.Player
    private typealias Captain = ViewRecordsFixture.Captain
    private typealias GameSchemaSource = ViewRecordsFixture.GameSchemaSource

    private func migrator() -> DatabaseMigrator { ViewRecordsFixture.migrator() }

    private func registerTriggers(_ migrator: inout DatabaseMigrator) {
        ViewRecordsFixture.registerTriggers(&migrator)
    }

    private func insertTeams(_ db: Database) throws {
        try Team(id: "red", name: "Red").insert(db)
        try Team(id: "blue", name: "Blue").insert(db)
    }

    private func insertTeamsAndPlayers(_ db: Database) throws {
        try insertTeams(db)
        try Player(id: "alice", name: "Alice", teamId: "red", isCaptain: true).insert(db)
        try Player(id: "bob", name: "Bob", teamId: "blue", isCaptain: true).insert(db)
        try Player(id: "craig", name: "Craig", teamId: "blue", isCaptain: false).insert(db)
    }

    @Test func readOnlyCaptains() throws {
        let dbQueue = try DatabaseQueue()
        try migrator().migrate(dbQueue)
        try dbQueue.write { db in
            try insertTeamsAndPlayers(db)
            // OK: Works out of the box
            let captains = try Captain.fetchAll(db)
            // The article prints Alice first: SQLite reads the view through
            // the unique partial index on teamId, hence Bob (blue) first.
            #expect(
                captains == [
                    Captain(id: "bob", name: "Bob", teamId: "blue"),
                    Captain(id: "alice", name: "Alice", teamId: "red"),
                ])
            #expect(try Captain.fetchCount(db) == 2)

            // KO: Requires extra configuration
            #expect {
                try Captain.find(db, id: "bob")
            } throws: { error in
                let error = error as? DatabaseError
                return error?.resultCode == .SQLITE_ERROR
                    && error?.description == "SQLite error 1: database view captain has no primary key"
            }
        }
    }

    @Test func primaryKeyFromSchemaSource() throws {
        var config = Configuration()
        config.schemaSource = GameSchemaSource()
        let dbQueue = try DatabaseQueue(configuration: config)
        try migrator().migrate(dbQueue)
        try dbQueue.write { db in
            try insertTeamsAndPlayers(db)
            let captains = try Captain.orderByPrimaryKey().fetchAll(db)
            #expect(captains.map(\.id) == ["alice", "bob"])
            let alice = try Captain.find(db, id: "alice")
            #expect(alice == Captain(id: "alice", name: "Alice", teamId: "red"))

            // KO: the view is read-only until it has INSTEAD OF triggers.
            var bob = try Captain.find(db, id: "bob")
            bob.name = "Bobby"
            #expect {
                try bob.update(db)
            } throws: { error in
                (error as? DatabaseError)?.description
                    == "SQLite error 1: cannot modify captain because it is a view - "
                    + #"while executing `UPDATE "captain" SET "name"=?, "teamId"=? WHERE "id"=?`"#
            }
        }
    }

    private struct CaptainWithTeam: Decodable, FetchableRecord {
        var captain: Captain
        var team: Team
    }

    @Test func associations() throws {
        let log = SQLLog()
        var config = log.configuration()
        config.schemaSource = GameSchemaSource()
        let dbQueue = try DatabaseQueue(configuration: config)
        try migrator().migrate(dbQueue)
        try dbQueue.write { db in try insertTeamsAndPlayers(db) }
        try dbQueue.read { db throws in
            // The captain view has a foreign key to teams,
            // from the teamId column to the team primary key.
            // SQLite does not know about it, so we declare it explicitly:
            let teamForeignKey = ForeignKey([Column("teamId")])
            let captainTeam = Captain.belongsTo(Team.self, using: teamForeignKey)
            let teamCaptain = Team.hasOne(Captain.self, using: teamForeignKey)

            // All teams with a captain
            log.clear()
            let teamsWithCaptain: [Team] = try Team.joining(required: teamCaptain).fetchAll(db)
            #expect(Set(teamsWithCaptain.map(\.id)) == ["red", "blue"])
            #expect(
                log.statements(.user) == [
                    #"SELECT "team".* FROM "team" JOIN "captain" ON "captain"."teamId" = "team"."id""#
                ])

            // All (captain, team) pairs
            log.clear()
            let captainsWithTeam: [CaptainWithTeam] = try Captain.including(required: captainTeam)
                .asRequest(of: CaptainWithTeam.self)
                .fetchAll(db)
            #expect(captainsWithTeam.map(\.captain.id).sorted() == ["alice", "bob"])
            #expect(captainsWithTeam.allSatisfy { $0.captain.teamId == $0.team.id })
            #expect(
                log.statements(.user) == [
                    #"SELECT "captain".*, "team".* FROM "captain" JOIN "team" ON "team"."id" = "captain"."teamId""#
                ])
        }
    }

    /// A database with the captain triggers.
    private func databaseWithTriggers() throws -> DatabaseQueue {
        var config = Configuration()
        config.schemaSource = GameSchemaSource()
        let dbQueue = try DatabaseQueue(configuration: config)
        var migrator = migrator()
        try migrator.migrate(dbQueue)
        registerTriggers(&migrator)
        // Apply the new migrations
        try migrator.migrate(dbQueue)
        return dbQueue
    }

    /// The dump of the teams, the players and the captains.
    private func dumpTables(_ db: Database) throws -> String {
        let stream = TextCollector()
        try db.dumpTables(["team", "player", "captain"], to: stream)
        return stream.text
    }

    @Test func insertThroughTrigger() throws {
        let dbQueue = try databaseWithTriggers()
        try dbQueue.write { db in
            try Team(id: "green", name: "Green").insert(db)
            // Diane is the captain
            try Captain(id: "diane", name: "Diane", teamId: "green").insert(db)
            // Well, no: Eugene is the captain
            try Captain(id: "eugene", name: "Eugene", teamId: "green").insert(db)
            #expect(
                try dumpTables(db) == """
                    team
                    green|Green

                    player
                    diane|Diane|green|0
                    eugene|Eugene|green|1

                    captain
                    eugene|Eugene|green

                    """)
        }
    }

    @Test func updateThroughTrigger() throws {
        let dbQueue = try databaseWithTriggers()
        try dbQueue.write { db in
            try insertTeams(db)
            try Captain(id: "alice", name: "Alice", teamId: "red").insert(db)
            // Bob is the Blue captain.
            var bob = Captain(id: "bob", name: "Bob", teamId: "blue")
            try bob.insert(db)
            // Bob is now Bobby, the Red captain.
            // Alice is no longer the Red captain.
            try bob.updateChanges(db) {
                $0.name = "Bobby"
                $0.teamId = "red"
            }
            #expect(
                try dumpTables(db) == """
                    team
                    blue|Blue
                    red|Red

                    player
                    alice|Alice|red|0
                    bob|Bobby|red|1

                    captain
                    bob|Bobby|red

                    """)
        }
    }

    @Test func deleteThroughTrigger() throws {
        let dbQueue = try databaseWithTriggers()
        try dbQueue.write { db in
            try insertTeams(db)
            try Captain(id: "alice", name: "Alice", teamId: "red").insert(db)
            try Captain(id: "bob", name: "Bob", teamId: "blue").insert(db)
            try Player(id: "craig", name: "Craig", teamId: "blue", isCaptain: false).insert(db)
        }
        try dbQueue.write { db in
            // Delete Alice
            try Captain.deleteOne(db, id: "alice")
            // Delete Bob
            let bob = try Captain.find(db, id: "bob")
            try bob.delete(db)
            #expect(try Player.fetchAll(db).map(\.id) == ["craig"])
            // Delete all captains
            try Player(id: "diane", name: "Diane", teamId: "red", isCaptain: true).insert(db)
            try Captain.deleteAll(db)
            #expect(try Player.fetchAll(db).map(\.id) == ["craig"])
        }
    }

    private struct EnrolledPlayer: Codable, Identifiable, FetchableRecord, TableRecord {
        var id: String
        var name: String
        var teamId: String
        var isCaptain: Bool
    }

    private struct TeamWithCaptainId: Codable, Identifiable, FetchableRecord, TableRecord {
        var id: String
        var name: String
        var captainId: String
    }

    private struct TeamCaptain: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "captain"
        var teamId: String
        var name: String
    }

    /// Primary keys of the views of the exercises.
    private struct ExerciseSchemaSource: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            switch view.name {
            case "captain": ["teamId"]
            default: ["id"]
            }
        }
    }

    @Test func exercises() throws {
        var config = Configuration()
        config.schemaSource = ExerciseSchemaSource()
        let dbQueue = try DatabaseQueue(configuration: config)
        var migrator = DatabaseMigrator()
        ViewRecordsFixture.registerTeamsAndPlayers(&migrator)
        migrator.registerMigration("Exercises") { db in
            try db.execute(
                sql: """
                    CREATE VIEW enrolledPlayer AS
                    SELECT id, name, teamId, isCaptain
                    FROM player
                    WHERE teamId IS NOT NULL;
                    CREATE VIEW teamWithCaptainId AS
                    SELECT team.id, team.name, player.id AS captainId
                    FROM team
                    JOIN player ON player.teamId = team.id AND player.isCaptain;
                    CREATE VIEW captain AS
                    SELECT teamId, name
                    FROM player
                    WHERE isCaptain AND teamId IS NOT NULL;
                    """)
        }
        try migrator.migrate(dbQueue)
        try dbQueue.write { db in
            try insertTeamsAndPlayers(db)
            try Player(id: "dan", name: "Dan", teamId: nil, isCaptain: false).insert(db)
        }
        try dbQueue.read { db throws in
            #expect(try EnrolledPlayer.orderByPrimaryKey().fetchAll(db).map(\.id) == ["alice", "bob", "craig"])
            #expect(try EnrolledPlayer.fetchOne(db, id: "dan") == nil)
            #expect(try TeamWithCaptainId.find(db, id: "blue").captainId == "bob")
            #expect(try TeamCaptain.fetchOne(db, key: "red")?.name == "Alice")
            #expect(try TeamCaptain.orderByPrimaryKey().fetchAll(db).map(\.teamId) == ["blue", "red"])
        }
    }
}
