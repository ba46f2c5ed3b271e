import Foundation
import Strata
import StrataTestSupport
import Testing

/// Dumps of requests with prefetched rows (issue 28), on the kit's teams and
/// players.
struct DumpPrefetchTests {
    private struct Team: TableRecord {
        static let players = hasMany(Player.self)
    }
    private struct Player: TableRecord {}

    private let request = Team.orderByPrimaryKey().including(all: Team.players.orderByPrimaryKey())

    /// The list dump of ``request``: the teams, then their players under the
    /// association key.
    private let listDump = """
        1|Reds
        2|Blues

        players
        1|1|Arthur
        2|1|Barbara
        3|2|Craig

        """

    /// The dump of `request`, from inside a read access.
    private func dump(
        _ dbQueue: DatabaseQueue, _ request: some FetchRequest, format: some DumpFormat = .debug()
    ) throws -> String {
        try TextCollector.collect { stream in
            try dbQueue.read { db in try db.dumpRequest(request, format: format, to: stream) }
        }
    }

    @Test("dumpRequest prints prefetched rows after the main rows, under the association key")
    func dumpRequestWithPrefetchedRows() throws {
        let dbQueue = try teamPlayersDatabase()
        #expect(try dump(dbQueue, request) == listDump)
        // Without prefetched rows, only the main rows.
        #expect(try dump(dbQueue, Team.orderByPrimaryKey()) == "1|Reds\n2|Blues\n")
    }

    @Test("B23: dumpRequest does not print the hidden pivot column of prefetched rows")
    func dumpRequestHidesPivotColumn() throws {
        let dbQueue = try teamPlayersDatabase()
        #expect(try dump(dbQueue, request) == listDump)

        let json = try dump(dbQueue, request, format: .json())
        #expect(!json.contains("grdb_"))
        #expect(json.contains(#""teamId":1"#))

        // The prefetched rows still know their team.
        let rows = try dbQueue.read { db in try Row.fetchAll(db, request) }
        #expect(rows.map { $0.prefetchedRows["players"]?.count } == [2, 1])
    }
}
