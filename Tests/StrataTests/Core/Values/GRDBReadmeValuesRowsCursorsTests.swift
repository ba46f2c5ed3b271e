import Foundation
import Strata
import StrataTestSupport
import Testing

/// Samples of the v5.8 README's chapters on values, rows and cursors, in their
/// GRDB 7 spelling.
struct GRDBReadmeValuesRowsCursorsTests {
    enum Color: String, DatabaseValueConvertible {
        case red, white, rose
    }

    struct Player: FetchableRecord {
        var id: Int64
        var teamID: Int64
        var name: String
        init(row: Row) throws {
            id = row["id"]
            teamID = row["teamID"]
            name = row["name"]
        }
    }

    struct Coordinate {
        var latitude: Double
        var longitude: Double
    }

    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE wine (name TEXT, color TEXT);
                    INSERT INTO wine VALUES ('Margaux', 'red'), ('Chablis', 'white');
                    CREATE TABLE player (id INTEGER PRIMARY KEY, teamID INTEGER, name TEXT);
                    INSERT INTO player VALUES (1, 1, 'Arthur'), (2, 1, 'Barbara'), (3, 2, 'Craig');
                    CREATE TABLE link (url TEXT);
                    INSERT INTO link VALUES ('https://github.com/groue'), ('https://example.com');
                    CREATE TABLE place (latitude REAL, longitude REAL);
                    INSERT INTO place VALUES (48.85, 2.35);
                    """)
        }
        return dbQueue
    }

    @Test func rowQueries() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM wine")
            var wines: [String] = []
            while let row = try rows.next() {
                let name: String = row["name"]
                let color: Color = row["color"]
                wines.append("\(name) \(color)")
            }
            #expect(wines == ["Margaux red", "Chablis white"])
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM player WHERE name = ?", arguments: ["Arthur"]).count == 1)
            #expect(
                try Row.fetchAll(db, sql: "SELECT * FROM player WHERE name = :name", arguments: ["name": "Arthur"])
                    .count == 1)
        }
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM player")
        }
        #expect(rows.count == 3)
    }

    @Test func cursorsFeedCollections() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db in
            let array = try Array(String.fetchCursor(db, sql: "SELECT name FROM player ORDER BY id"))
            #expect(array == ["Arthur", "Barbara", "Craig"])
            let set = try Set(Int.fetchCursor(db, sql: "SELECT teamID FROM player"))
            #expect(set == [1, 2])
            let grouped = try Dictionary(
                grouping: Player.fetchCursor(db, sql: "SELECT * FROM player"), by: { $0.teamID })
            #expect(grouped[1]?.map(\.name) == ["Arthur", "Barbara"])
            let byID = try Dictionary(
                uniqueKeysWithValues: Player.fetchCursor(db, sql: "SELECT * FROM player").map { ($0.id, $0) })
            #expect(byID[3]?.name == "Craig")
            let reserved = try Array(String.fetchCursor(db, sql: "SELECT name FROM player"), minimumCapacity: 10)
            #expect(reserved.count == 3)
        }
    }

    @Test func cursorOperators() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db in
            var githubLinks: [URL] = []
            try URL
                .fetchCursor(db, sql: "SELECT url FROM link")
                .filter { url in url.host == "github.com" }
                .forEach { url in githubLinks.append(url) }
            #expect(githubLinks == [URL(string: "https://github.com/groue")!])

            let locations =
                try Row
                .fetchCursor(db, sql: "SELECT latitude, longitude FROM place")
                .map { row in
                    Coordinate(latitude: row[0], longitude: row[1])
                }
            let first = try locations.next()
            #expect(first?.latitude == 48.85)
            #expect(first?.longitude == 2.35)
        }
    }

    @Test func valuesInQueries() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            let url = URL(string: "https://www.example.com")!
            try db.execute(sql: "INSERT INTO link (url) VALUES (?)", arguments: [url])
            let link = try URL.fetchOne(db, sql: "SELECT url FROM link WHERE url = ?", arguments: [url])
            #expect(link == url)
            let row = try Row.fetchOne(db, sql: "SELECT * FROM link WHERE url = ?", arguments: [url])!
            let fetched: URL = row["url"]
            #expect(fetched == url)
            // Fetched values
            #expect(try Color.fetchAll(db, sql: "SELECT color FROM wine") == [.red, .white])
            #expect(try Color?.fetchOne(db, sql: "SELECT NULL") == .some(nil))
            do {
                _ = try Color.fetchOne(db, sql: "SELECT 'unknown'")
                Issue.record("Expected error")
            } catch {
                #expect("\(error)".hasPrefix("could not decode Color from database value \"unknown\""))
            }
            #expect(throws: RowDecodingError.self) { try Color.fetchAll(db, sql: "SELECT 'blue'") }
        }
    }

    @Test func rowsAsDictionaries() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT 1 AS a, 'x' AS b")!
            // [String: DatabaseValue]
            let dict = Dictionary(row.map { ($0.0, $0.1) }, uniquingKeysWith: { left, _ in left })
            #expect(dict == ["a": 1.databaseValue, "b": "x".databaseValue])
            // [String: AnyObject] through storage.value
            let values = Dictionary(
                row.map { ($0.0, $0.1.storage.value) }, uniquingKeysWith: { left, _ in left })
            #expect(values["a"]??.databaseValue == 1.databaseValue)
        }
    }

    @Test func dataWithoutCopy() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE document (data BLOB); INSERT INTO document VALUES (x'0102')")
            let rows = try Row.fetchCursor(db, sql: "SELECT data FROM document")
            while let row = try rows.next() {
                let data = row.dataNoCopy(named: "data")
                #expect(data == Data([1, 2]))
            }
        }
    }
}

/// The query interface example of Strata's own README.
struct StrataReadmeTests {
    struct Player: FetchableRecord, TableRecord {
        var name: String
        var score: Int
        init(row: Row) throws {
            name = row["name"]
            score = row["score"]
        }
    }

    @Test func queryInterfaceExample() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT NOT NULL);
                    INSERT INTO player (name, score) VALUES ('Arthur', 100), ('Barbara', 1500), ('Craig', 2000);
                    """)
        }
        let bestPlayers = try dbQueue.read { db in
            try Player.filter(Column("score") > 1000).order(Column("score").desc).limit(10).fetchAll(db)
        }
        #expect(bestPlayers.map(\.name) == ["Craig", "Barbara"])
        let sql = try dbQueue.read { db in
            try Player.filter(Column("score") > 1000).order(Column("score").desc).limit(10)
                .makePreparedRequest(db, forSingleResult: false).statement.sql
        }
        #expect(sql == #"SELECT * FROM "player" WHERE "score" > ? ORDER BY "score" DESC LIMIT 10"#)
    }
}
