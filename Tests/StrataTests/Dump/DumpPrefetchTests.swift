import Foundation
import Strata
import StrataTestSupport
import Testing

/// Dumps of requests with prefetched rows (issue 28).
struct DumpPrefetchTests {
    private struct Team: TableRecord {
        static let players = hasMany(Player.self)
    }
    private struct Player: TableRecord {}

    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                    CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT);
                    INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues');
                    INSERT INTO player VALUES (1, 1, 'Arthur'), (2, 1, 'Barbara'), (3, 2, 'Craig');
                    """)
        }
        return dbQueue
    }

    @Test("B23: dumpRequest does not print the hidden pivot column of prefetched rows")
    func dumpRequestHidesPivotColumn() throws {
        let dbQueue = try makeQueue()
        let request = Team.orderByPrimaryKey().including(all: Team.players.orderByPrimaryKey())
        let stream = TestStream()
        try dbQueue.read { db in try db.dumpRequest(request, to: stream) }
        #expect(
            stream.output == """
                1|Reds
                2|Blues

                players
                1|1|Arthur
                2|1|Barbara
                3|2|Craig

                """)

        let json = TestStream()
        try dbQueue.read { db in try db.dumpRequest(request, format: .json(), to: json) }
        #expect(!json.output.contains("grdb_"))
        #expect(json.output.contains(#""teamId":1"#))

        // The prefetched rows still know their team.
        let rows = try dbQueue.read { db in try Row.fetchAll(db, request) }
        #expect(rows.map { $0.prefetchedRows["players"]?.count } == [2, 1])
    }
}
