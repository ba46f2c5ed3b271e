import Strata

/// A player record for query interface tests.
package struct QIPlayer: TableRecord, FetchableRecord, Hashable {
    package static let databaseTableName = "player"
    package enum Columns {
        package static let id = Column("id")
        package static let name = Column("name")
        package static let score = Column("score")
        package static let team = Column("team")
    }
    package var id: Int64
    package var name: String?
    package var score: Int?

    package init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        score = row["score"]
    }
}

/// A database with a populated player table (and empty `team` and
/// `playerSelection` tables), then `sql`.
package func qiPlayerDatabase(_ sql: String = "") throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db throws in
        try db.execute(
            sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT, team TEXT, \
                email TEXT, bonus INT, verified BOOLEAN, height DOUBLE, temperature DOUBLE, createdAt TEXT, date TEXT, \
                firstName TEXT, lastName TEXT, creationDate TEXT, teamID TEXT, coachId INT, a INT, b INT);
                CREATE TABLE team (id TEXT PRIMARY KEY);
                CREATE TABLE playerSelection (playerId INTEGER);
                INSERT INTO player (id, name, score, team, bonus) VALUES
                  (1, 'Arthur', 1000, 'red', 10), (2, 'Barbara', 2000, 'blue', 20),
                  (3, 'Craig', 500, 'red', NULL), (4, NULL, 1500, 'blue', 5);
                """ + sql)
    }
    return dbQueue
}
