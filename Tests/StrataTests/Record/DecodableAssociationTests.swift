import Foundation
import Testing

@testable import Strata
import StrataTestSupport

// Associated records decode from row scopes (`including(required:)`,
// adapters) and from prefetched rows (`including(all:)`).

private struct Player: Codable, FetchableRecord, TableRecord, Equatable {
    var id: Int64
    var name: String
}

private struct Team: Codable, FetchableRecord, TableRecord, Equatable {
    var id: Int64
    var name: String
    var color: String
}

private struct PlayerInfo: Decodable, FetchableRecord {
    var player: Player
    var team: Team?
    var maxScore: Int

    /// The request of the seed, with scopes built from splitting adapters.
    static func all() -> AdaptedFetchRequest<SQLRequest<PlayerInfo>> {
        let request: SQLRequest<PlayerInfo> = """
            SELECT
                \(columnsOf: Player.self),
                \(columnsOf: Team.self),
                MAX(round.score) AS maxScore
            FROM player
            LEFT JOIN team ON team.id = player.teamId
            LEFT JOIN round ON round.playerId = player.id
            GROUP BY player.id
            ORDER BY player.id
            """
        return request.adapted { db in
            let adapters = try splittingRowAdapters(columnCounts: [
                Player.numberOfSelectedColumns(db),
                Team.numberOfSelectedColumns(db),
            ])
            return ScopeAdapter([
                "player": adapters[0],
                "team": adapters[1],
            ])
        }
    }
}

/// A plain Decodable (not a record) in a scope.
private struct TeamSummary: Decodable, Equatable {
    var name: String
}

private struct PlayerWithSummary: Decodable, FetchableRecord {
    var name: String
    var team: TeamSummary
}

/// The base record decodes from the row itself: there is no "book" scope.
private struct Book: Decodable, FetchableRecord, Equatable {
    var id: Int64
    var title: String
}

private struct Author: Decodable, FetchableRecord, Equatable {
    var id: Int64
    var name: String
}

private struct Country: Decodable, FetchableRecord, Equatable {
    var code: String
}

private struct BookInfo: Decodable, FetchableRecord {
    var book: Book
    var author: Author
    var country: Country?
}

private struct LiteraryCareer: Decodable, FetchableRecord {
    var author: Author
    var books: [Book]
    var bookSet: Set<String>?
}

private struct TitleOnly: Decodable, FetchableRecord, Hashable {
    var title: String
}

private struct Career: Decodable, FetchableRecord {
    var name: String
    var books: [TitleOnly]
    var titles: Set<TitleOnly>
}

/// A hand-written `init(from:)` that reads scopes and prefetched rows with
/// nested containers.
private struct ManualInfo: Decodable, FetchableRecord {
    var name: String
    var teamName: String
    var bookTitles: [String]

    enum CodingKeys: String, CodingKey { case name, team, books }
    enum TeamKeys: String, CodingKey { case name }
    enum BookKeys: String, CodingKey { case title }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        let team = try container.nestedContainer(keyedBy: TeamKeys.self, forKey: .team)
        teamName = try team.decode(String.self, forKey: .name)
        var books = try container.nestedUnkeyedContainer(forKey: .books)
        var titles: [String] = []
        while !books.isAtEnd {
            let book = try books.nestedContainer(keyedBy: BookKeys.self)
            titles.append(try book.decode(String.self, forKey: .title))
        }
        bookTitles = titles
    }
}

/// Decodable records and associated records.
struct DecodableAssociationTests {
    private func playerDatabase() throws -> DatabaseQueue {
        try inMemoryDatabase { db in
            try db.execute(
                sql: """
                    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL, color TEXT NOT NULL);
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, teamId INTEGER REFERENCES team);
                    CREATE TABLE round (id INTEGER PRIMARY KEY, playerId INTEGER REFERENCES player, score INT);
                    INSERT INTO team VALUES (1, 'Reds', 'red');
                    INSERT INTO player VALUES (1, 'Arthur', 1), (2, 'Barbara', NULL);
                    INSERT INTO round (playerId, score) VALUES (1, 10), (1, 20), (2, 5);
                    """)
        }
    }

    @Test func splittingRowsTheCodableWay() throws {
        let dbQueue = try playerDatabase()
        let playerInfos = try dbQueue.read { db in try PlayerInfo.all().fetchAll(db) }
        #expect(playerInfos.count == 2)
        #expect(playerInfos[0].player == Player(id: 1, name: "Arthur"))
        #expect(playerInfos[0].team == Team(id: 1, name: "Reds", color: "red"))
        #expect(playerInfos[0].maxScore == 20)
        #expect(playerInfos[1].player == Player(id: 2, name: "Barbara"))
        #expect(playerInfos[1].team == nil)
        #expect(playerInfos[1].maxScore == 5)
    }

    @Test func missingRequiredScopeIsAnError() throws {
        let dbQueue = try playerDatabase()
        #expect {
            try dbQueue.read { db in
                _ = try PlayerWithSummary.fetchOne(
                    db,
                    sql: "SELECT player.name, team.name FROM player LEFT JOIN team ON team.id = player.teamId "
                        + "WHERE player.id = 2",
                    adapter: ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 1)]))
            }
        } throws: { error in
            error is RowDecodingError && "\(error)".contains(#"column: "name""#)
        }
    }

    @Test func plainDecodableInScope() throws {
        let dbQueue = try playerDatabase()
        let record = try dbQueue.read { db in
            try PlayerWithSummary.fetchOne(
                db,
                sql: "SELECT player.name, team.name FROM player JOIN team ON team.id = player.teamId",
                adapter: ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 1)]))
        }
        #expect(record?.name == "Arthur")
        #expect(record?.team == TeamSummary(name: "Reds"))
    }

    @Test func nestedScopesAndBaseRecord() throws {
        let dbQueue = try DatabaseQueue()
        // book columns, then author columns with a nested country scope
        let sql = "SELECT 1 AS id, 'Moby-Dick' AS title, 2 AS id, 'Herman Melville' AS name, 'US' AS code"
        let adapter = ScopeAdapter([
            "author": ScopeAdapter(
                base: RangeRowAdapter(2..<4),
                scopes: ["country": SuffixRowAdapter(fromIndex: 4)])
        ])
        let info = try dbQueue.read { db in try BookInfo.fetchOne(db, sql: sql, adapter: adapter) }
        #expect(info?.book == Book(id: 1, title: "Moby-Dick"))
        #expect(info?.author == Author(id: 2, name: "Herman Melville"))
        #expect(info?.country == Country(code: "US"))

        let noCountry = try dbQueue.read { db in
            try BookInfo.fetchOne(
                db,
                sql: "SELECT 1 AS id, 'Moby-Dick' AS title, 2 AS id, 'Herman Melville' AS name, NULL AS code",
                adapter: adapter)
        }
        #expect(noCountry?.country == nil)
    }

    @Test func prefetchedRows() throws {
        let row: Row = ["id": 1, "name": "Herman Melville"]
        row.prefetchStorage.rows["books"] = [
            ["id": 1, "title": "Moby-Dick"],
            ["id": 2, "title": "Pierre"],
        ]
        let career = try LiteraryCareer(row: row)
        #expect(career.author == Author(id: 1, name: "Herman Melville"))
        #expect(career.books == [Book(id: 1, title: "Moby-Dick"), Book(id: 2, title: "Pierre")])
        #expect(career.bookSet == nil)

        let empty: Row = ["id": 1, "name": "Anonymous"]
        empty.prefetchStorage.rows["books"] = []
        #expect(try LiteraryCareer(row: empty).books == [])
    }

    @Test func prefetchedRowsInCollections() throws {
        let row: Row = ["name": "Herman Melville"]
        row.prefetchStorage.rows["books"] = [["title": "Moby-Dick"], ["title": "Pierre"]]
        row.prefetchStorage.rows["titles"] = [["title": "Moby-Dick"], ["title": "Moby-Dick"]]
        let career = try Career(row: row)
        #expect(career.books.map(\.title) == ["Moby-Dick", "Pierre"])
        #expect(career.titles == [TitleOnly(title: "Moby-Dick")])
    }

    @Test func nestedContainers() throws {
        let dbQueue = try playerDatabase()
        let info = try dbQueue.read { db throws -> ManualInfo? in
            let row = try Row.fetchOne(
                db,
                sql: "SELECT player.name, team.name FROM player JOIN team ON team.id = player.teamId",
                adapter: ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 1)]))
            guard let row else { return nil }
            row.prefetchStorage.rows["books"] = [["title": "Moby-Dick"], ["title": "Pierre"]]
            return try ManualInfo(row: row)
        }
        #expect(info?.name == "Arthur")
        #expect(info?.teamName == "Reds")
        #expect(info?.bookTitles == ["Moby-Dick", "Pierre"])
        #expect {
            try ManualInfo(row: ["name": "Arthur"])
        } throws: { error in
            error is RowDecodingError && "\(error)".contains(#"key not found: "team""#)
        }
    }

    @Test func missingPrefetchedRows() throws {
        let row: Row = ["id": 1, "name": "Herman Melville"]
        #expect {
            try LiteraryCareer(row: row)
        } throws: { error in
            error is RowDecodingError && "\(error)".contains(#"key not found: "books""#)
        }
    }

    @Test func badPrefetchedRow() throws {
        let row: Row = ["id": 1, "name": "Herman Melville"]
        row.prefetchStorage.rows["books"] = [["id": 1, "title": nil]]
        #expect {
            try LiteraryCareer(row: row)
        } throws: { error in
            error is RowDecodingError && "\(error)".contains(#"column: "title""#)
        }
    }
}
