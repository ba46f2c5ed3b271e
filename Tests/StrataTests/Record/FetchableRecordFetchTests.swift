import Foundation
import Strata
import StrataTestSupport
import Testing

private struct Coordinate: Hashable {
    var latitude: Double
    var longitude: Double
}

/// The hand-written record of the Records chapter.
private struct Place: FetchableRecord, TableRecord, Hashable {
    var id: Int64?
    var title: String
    var coordinate: Coordinate

    init(row: Row) {
        id = row["id"]
        title = row["title"]
        coordinate = Coordinate(latitude: row["latitude"], longitude: row["longitude"])
    }
}

/// The same record, reading columns through a column enum.
private struct EnumPlace: FetchableRecord, Hashable {
    enum Columns: String, ColumnExpression {
        case id, title, latitude, longitude
    }

    var id: Int64?
    var title: String
    var coordinate: Coordinate

    init(row: Row) {
        id = row[Columns.id]
        title = row[Columns.title]
        coordinate = Coordinate(latitude: row[Columns.latitude], longitude: row[Columns.longitude])
    }
}

/// A throwing initializer, for untrusted data.
private struct StrictPlace: FetchableRecord {
    var title: String
    init(row: Row) throws {
        title = try row.decode(forColumn: "title")
    }
}

private struct Player: Codable, Identifiable, FetchableRecord, TableRecord, Hashable {
    var id: Int64
    var name: String
    var score: Int
}

private struct Country: Decodable, Identifiable, FetchableRecord, TableRecord, Hashable {
    var isoCode: String
    var name: String
    var id: String { isoCode }
}

private struct Citizenship: Decodable, FetchableRecord, TableRecord, Hashable {
    var citizenId: Int64
    var countryCode: String
}

/// The row is reused during iteration: a record that keeps it copies it.
private struct RowKeeper: FetchableRecord {
    var row: Row
    init(row: Row) { self.row = row.copy() }
}

/// Fetching methods of `FetchableRecord`.
struct FetchableRecordFetchTests {
    private func database() throws -> DatabaseQueue {
        try inMemoryDatabase { db in
            try db.execute(
                sql: """
                    CREATE TABLE place (id INTEGER PRIMARY KEY, title TEXT NOT NULL, latitude DOUBLE, longitude DOUBLE);
                    INSERT INTO place VALUES (1, 'Paris', 48.8566, 2.3522), (2, 'Rome', 41.9028, 12.4964);
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT NOT NULL, email TEXT UNIQUE);
                    INSERT INTO player VALUES (1, 'Arthur', 100, 'arthur@example.com'), (2, 'Barbara', 1000, NULL),
                        (3, 'Craig', 500, NULL);
                    CREATE TABLE country (isoCode TEXT PRIMARY KEY, name TEXT NOT NULL);
                    INSERT INTO country VALUES ('FR', 'France'), ('US', 'United States'), ('DE', 'Germany');
                    CREATE TABLE citizenship (citizenId INTEGER, countryCode TEXT, PRIMARY KEY (citizenId, countryCode));
                    INSERT INTO citizenship VALUES (1, 'FR'), (1, 'US'), (2, 'FR');
                    """)
        }
    }

    @Test func fromSQL() throws {
        let dbQueue = try database()
        try dbQueue.read { db throws in
            let sql = "SELECT * FROM place ORDER BY id"
            let paris = try #require(try Place.fetchOne(db, sql: sql))
            #expect(paris.title == "Paris")
            #expect(paris.coordinate == Coordinate(latitude: 48.8566, longitude: 2.3522))
            #expect(try Place.fetchAll(db, sql: sql).map(\.title) == ["Paris", "Rome"])
            #expect(try Place.fetchSet(db, sql: sql).count == 2)
            let cursor = try Place.fetchCursor(db, sql: sql)
            #expect(try cursor.next()?.title == "Paris")
            #expect(try cursor.next()?.title == "Rome")
            #expect(try cursor.next() == nil)
            #expect(try Place.fetchOne(db, sql: "SELECT * FROM place WHERE title = ?", arguments: ["Rome"])?.id == 2)
            #expect(try Place.fetchOne(db, sql: "SELECT * FROM place WHERE 0") == nil)
            #expect(try EnumPlace.fetchAll(db, sql: sql).map(\.title) == ["Paris", "Rome"])
        }
    }

    @Test func fromStatements() throws {
        let dbQueue = try database()
        try dbQueue.read { db throws in
            let statement = try db.makeStatement(sql: "SELECT * FROM place WHERE id >= ? ORDER BY id")
            #expect(try Place.fetchAll(statement, arguments: [1]).count == 2)
            #expect(try Place.fetchOne(statement, arguments: [2])?.title == "Rome")
            #expect(try Place.fetchSet(statement, arguments: [2]).map(\.title) == ["Rome"])
            let cursor = try Place.fetchCursor(statement, arguments: [1])
            #expect(cursor.sql == "SELECT * FROM place WHERE id >= ? ORDER BY id")
            #expect(cursor.columnNames == ["id", "title", "latitude", "longitude"])
            #expect(try Array(cursor).map(\.title) == ["Paris", "Rome"])
            let adapted = try Place.fetchAll(
                statement, arguments: [2],
                adapter: ColumnMapping([
                    "id": "id", "title": "title", "latitude": "longitude",
                    "longitude": "latitude",
                ]))
            #expect(adapted.first?.coordinate == Coordinate(latitude: 12.4964, longitude: 41.9028))
        }
    }

    @Test func fromRequests() throws {
        let dbQueue = try database()
        try dbQueue.read { db throws in
            let request: SQLRequest<Place> = "SELECT * FROM place ORDER BY id DESC"
            #expect(try request.fetchAll(db).map(\.title) == ["Rome", "Paris"])
            #expect(try request.fetchOne(db)?.title == "Rome")
            #expect(try request.fetchSet(db).count == 2)
            #expect(try request.fetchCursor(db).map(\.title).reduce([], { $0 + [$1] }) == ["Rome", "Paris"])
            #expect(try Place.fetchAll(db, request).count == 2)
            #expect(try Place.fetchOne(db, request)?.title == "Rome")
            #expect(try Place.fetchSet(db, request).count == 2)
            #expect(try Place.fetchCursor(db, request).next()?.title == "Rome")
            #expect(try Place.order(Column("title")).fetchAll(db).map(\.title) == ["Paris", "Rome"])
        }
    }

    @Test func tableRecordsFetchWithoutSQL() throws {
        let dbQueue = try database()
        try dbQueue.read { db throws in
            #expect(try Player.fetchAll(db).map(\.name) == ["Arthur", "Barbara", "Craig"])
            #expect(try Player.fetchOne(db)?.name == "Arthur")
            #expect(try Player.fetchSet(db).count == 3)
            #expect(try Player.fetchCursor(db).map(\.score).reduce(0, +) == 1600)
            #expect(try Player.filter(Column("score") > 200).fetchAll(db).map(\.name) == ["Barbara", "Craig"])
        }
    }

    @Test func identifiableMethods() throws {
        let dbQueue = try database()
        try dbQueue.read { db throws in
            #expect(try Player.fetchOne(db, id: 1)?.name == "Arthur")
            #expect(try Player.fetchOne(db, id: 42) == nil)
            #expect(try Player.fetchAll(db, ids: [1, 2, 3]).map(\.name).sorted() == ["Arthur", "Barbara", "Craig"])
            #expect(try Player.fetchAll(db, ids: []).isEmpty)
            #expect(try Player.fetchSet(db, ids: [1, 2]).map(\.name).sorted() == ["Arthur", "Barbara"])
            #expect(try Player.fetchCursor(db, ids: [3]).next()?.name == "Craig")
            #expect(try Player.filter(id: 1).fetchOne(db)?.name == "Arthur")
            #expect(try Player.filter(ids: [1, 2]).fetchCount(db) == 2)
            let france = try Country.fetchOne(db, id: "FR")
            #expect(france?.name == "France")
        }
    }

    @Test func keyMethods() throws {
        let dbQueue = try database()
        try dbQueue.read { db throws in
            #expect(try Player.fetchOne(db, key: 1)?.name == "Arthur")
            #expect(try Player.fetchOne(db, key: ["email": "arthur@example.com"])?.name == "Arthur")
            #expect(try Player.fetchOne(db, key: nil) == nil)
            #expect(try Country.fetchAll(db, keys: ["FR", "US"]).map(\.name).sorted() == ["France", "United States"])
            #expect(try Country.fetchSet(db, keys: ["FR", "DE"]).count == 2)
            #expect(try Country.fetchCursor(db, keys: ["DE"]).next()?.name == "Germany")
            let citizenship = try Citizenship.fetchOne(db, key: ["citizenId": 1, "countryCode": "FR"])
            #expect(citizenship == Citizenship(citizenId: 1, countryCode: "FR"))
            let keys: [[String: (any DatabaseValueConvertible)?]] = [
                ["citizenId": 1, "countryCode": "US"],
                ["citizenId": 2, "countryCode": "FR"],
            ]
            #expect(try Citizenship.fetchAll(db, keys: keys).count == 2)
            #expect(try Citizenship.fetchSet(db, keys: keys).count == 2)
            #expect(try Citizenship.fetchCursor(db, keys: keys).map(\.countryCode).reduce([], { $0 + [$1] }).count == 2)
            #expect(try Citizenship.fetchAll(db, keys: [[String: (any DatabaseValueConvertible)?]]()).isEmpty)
        }
    }

    @Test func rowsAreReusedDuringIteration() throws {
        let dbQueue = try database()
        let keepers = try dbQueue.read { db in try RowKeeper.fetchAll(db, sql: "SELECT * FROM place ORDER BY id") }
        #expect(keepers.map { $0.row["title"] as String } == ["Paris", "Rome"])
    }

    @Test func throwingInitializerForUntrustedData() throws {
        let dbQueue = try database()
        #expect(throws: RowDecodingError.self) {
            try dbQueue.read { db in _ = try StrictPlace.fetchAll(db, sql: "SELECT NULL AS title") }
        }
        #expect {
            try dbQueue.read { db in _ = try StrictPlace.fetchAll(db, sql: "SELECT 1 AS other") }
        } throws: { error in
            "\(error)".contains(#"column not found: "title""#)
        }
    }
}
