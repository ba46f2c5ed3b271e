import Foundation
import Strata

/// The schema and records of the ViewRecords article (seed 002): teams,
/// players, and the `captain` view with its INSTEAD OF triggers. Used by
/// `ViewRecordsArticleTests` (the article's samples) and
/// `PersistableViewTests` (persistence through the view).
package enum ViewRecordsFixture {
    package struct Team: Codable, Identifiable, FetchableRecord, PersistableRecord {
        package var id: String
        package var name: String

        package init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    package struct Player: Codable, Identifiable, FetchableRecord, PersistableRecord {
        package var id: String
        package var name: String
        package var teamId: String?
        package var isCaptain: Bool

        package init(id: String, name: String, teamId: String? = nil, isCaptain: Bool) {
            self.id = id
            self.name = name
            self.teamId = teamId
            self.isCaptain = isCaptain
        }
    }

    package struct Captain: Codable, Identifiable, FetchableRecord, PersistableRecord, Equatable {
        package var id: String
        package var name: String
        package var teamId: String

        package init(id: String, name: String, teamId: String) {
            self.id = id
            self.name = name
            self.teamId = teamId
        }
    }

    package struct GameSchemaSource: DatabaseSchemaSource {
        package init() {}

        /// Returns the names of the columns for the primary key in the
        /// provided database view.
        package func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            ["id"]
        }
    }

    /// The migrations of the article before its triggers: the tables, then
    /// the read-only `captain` view.
    package static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        registerTeamsAndPlayers(&migrator)
        migrator.registerMigration("Read-only captains") { db in
            try db.execute(
                sql: """
                    CREATE VIEW captain AS
                    SELECT id, name, teamId
                    FROM player
                    WHERE isCaptain AND teamId IS NOT NULL;
                    """)
        }
        return migrator
    }

    /// The article's first migration, "Teams and players": the `team` and
    /// `player` tables, with one unique captain per team.
    package static func registerTeamsAndPlayers(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("Teams and players") { db in
            try db.create(table: "team") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
            }
            try db.create(table: "player") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.belongsTo("team", onDelete: .setNull)
                t.column("isCaptain", .boolean).notNull()
            }
            // One unique captain per team
            try db.create(
                indexOn: "player", columns: ["teamId"],
                options: .unique,
                condition: Column("isCaptain"))
        }
    }

    /// The migrations of the triggers.
    package static func registerTriggers(_ migrator: inout DatabaseMigrator) {
        let triggers = [
            (
                "Captain insert",
                """
                -- Insert trigger
                CREATE TRIGGER captain_insert
                INSTEAD OF INSERT ON captain
                BEGIN
                  -- Remove previous captain
                  UPDATE player SET isCaptain = 0
                  WHERE teamId = NEW.teamId AND isCaptain;
                  -- Insert new captain
                  INSERT INTO player(id, name, teamId, isCaptain)
                  VALUES (NEW.id, NEW.name, NEW.teamId, 1);
                END;
                """
            ),
            (
                "Captain update",
                """
                -- Update trigger
                CREATE TRIGGER captain_update
                INSTEAD OF UPDATE ON captain
                BEGIN
                  -- Remove previous captain
                  UPDATE player SET isCaptain = 0
                  WHERE teamId = NEW.teamId AND isCaptain AND id <> NEW.id;
                  -- Update captain
                  UPDATE player SET name = NEW.name, teamId = NEW.teamId, isCaptain = 1
                  WHERE id = NEW.id;
                END;
                """
            ),
            (
                "Captain delete",
                """
                -- Delete trigger
                CREATE TRIGGER captain_delete
                INSTEAD OF DELETE ON captain
                BEGIN
                  DELETE FROM player WHERE id = OLD.id;
                END;
                """
            ),
        ]
        for (identifier, sql) in triggers {
            migrator.registerMigration(identifier) { db in try db.execute(sql: sql) }
        }
    }

    /// A database queue with the schema source and every migration, triggers
    /// included.
    package static func databaseWithTriggers() throws -> DatabaseQueue {
        var config = Configuration()
        config.schemaSource = GameSchemaSource()
        let dbQueue = try DatabaseQueue(configuration: config)
        var migrator = migrator()
        registerTriggers(&migrator)
        try migrator.migrate(dbQueue)
        return dbQueue
    }
}
