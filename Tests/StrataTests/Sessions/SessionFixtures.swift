import Foundation
import Strata
import StrataTestSupport

/// The schema of the Sessions tests: teams with a unique name, players that
/// belong to a team, and a table without a primary key.
let sessionSchema = """
    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT, score INT);
    CREATE TABLE note (text TEXT);
    INSERT INTO team VALUES (1, 'Red');
    INSERT INTO player VALUES (1, 1, 'Arthur', 10);
    INSERT INTO player VALUES (2, 1, 'Barbara', 20);
    """

/// A new in-memory database with ``sessionSchema``.
func makeSessionDatabase() throws -> DatabaseQueue {
    try inMemoryDatabase(sessionSchema)
}

/// The rows of the `team` and `player` tables, as text, for comparing two
/// copies of a database.
func sessionDump(_ reader: some DatabaseReader) throws -> String {
    try TextCollector.collect { try reader.dumpTables(["team", "player"], stableOrder: true, to: $0) }
}

/// The changes of a changeset as lines: "INSERT player [3] new: [3, 1, 'Craig', 5]".
func describe(_ changeset: Changeset) -> [String] {
    func text(_ values: [DatabaseValue?]) -> String {
        "[" + values.map { $0.map(\.description) ?? "-" }.joined(separator: ", ") + "]"
    }
    return changeset.map { change in
        var line = "\(change.operation) \(change.table) \(text(change.primaryKey))"
        if !change.oldValues.isEmpty { line += " old: " + text(change.oldValues) }
        if !change.newValues.isEmpty { line += " new: " + text(change.newValues) }
        return line
    }
}
