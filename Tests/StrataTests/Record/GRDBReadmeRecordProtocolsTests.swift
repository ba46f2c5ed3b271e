import Foundation
import Strata
import StrataTestSupport
import Testing

// The Records chapter of the v5.8 README (seed 000): the "FetchableRecord
// Protocol", "TableRecord Protocol" and "PersistableRecord Protocol"
// sections, run as written in their GRDB 7 form (see
// GRDBReadmeRecordsChapterTests.swift for the conventions).
//
// Already run elsewhere: the note on rows reused during iteration
// (FetchableRecordFetchTests.rowsAreReusedDuringIteration).

#if canImport(CoreLocation)
    import CoreLocation
#endif

/// The `place` table of the protocol samples, with a Paris and a Rome.
private func placeDatabase() throws -> (DatabaseQueue, SQLLog) {
    try makeLoggedDatabase { db in
        try db.create(table: "place") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("title", .text).notNull()
            t.column("latitude", .double).notNull()
            t.column("longitude", .double).notNull()
        }
        try db.execute(
            sql: """
                INSERT INTO place (id, title, latitude, longitude)
                VALUES (1, 'Paris', 48.85341, 2.3488), (2, 'Rome', 41.9028, 12.4964)
                """)
    }
}

// MARK: - FetchableRecord Protocol

/// `init(row:)` with column names.
private enum FetchableByName {
    struct Place {
        var id: Int64?
        var title: String
        var coordinate: CLLocationCoordinate2D
    }
}

extension FetchableByName.Place: FetchableRecord {
    init(row: Row) {
        id = row["id"]
        title = row["title"]
        coordinate = CLLocationCoordinate2D(
            latitude: row["latitude"],
            longitude: row["longitude"])
    }
}

/// `init(row:)` with a column enum.
private enum FetchableByColumn {
    struct Place {
        var id: Int64?
        var title: String
        var coordinate: CLLocationCoordinate2D
    }
}

extension FetchableByColumn.Place: FetchableRecord {
    enum Columns: String, ColumnExpression {
        case id, title, latitude, longitude
    }

    init(row: Row) {
        id = row[Columns.id]
        title = row[Columns.title]
        coordinate = CLLocationCoordinate2D(
            latitude: row[Columns.latitude],
            longitude: row[Columns.longitude])
    }
}

/// "That's all": a Decodable record.
private enum DecodableFetchable {
    // That's all
    struct Player: Decodable, FetchableRecord {
        var id: Int64
        var name: String
        var score: Int
    }
}

/// The requirement of the protocol, as the sample declares it.
private func decode<T: FetchableRecord>(_ type: T.Type, _ row: Row) throws -> T {
    try T(row: row)
}

@Suite("README Records chapter: FetchableRecord Protocol")
struct ReadmeFetchableRecordProtocolTests {
    @Test("init(row:) reads columns by name")
    func initFromRowByName() throws {
        let paris = try loggedRead(placeDatabase()) { db, _ in
            try FetchableByName.Place.fetchOne(db, sql: "SELECT * FROM place WHERE id = 1")
        }
        #expect(paris?.id == 1)
        #expect(paris?.title == "Paris")
        #expect(paris?.coordinate.latitude == 48.85341)
        #expect(paris?.coordinate.longitude == 2.3488)
        // The protocol requirement: the row initializer.
        let rome = try decode(
            FetchableByName.Place.self,
            ["id": 2, "title": "Rome", "latitude": 41.9028, "longitude": 12.4964])
        #expect(rome.title == "Rome")
    }

    @Test("init(row:) reads columns with a column enum")
    func initFromRowByColumn() throws {
        let places = try loggedRead(placeDatabase()) { db, _ in
            try FetchableByColumn.Place.fetchAll(db, sql: "SELECT * FROM place ORDER BY id")
        }
        #expect(places.map(\.title) == ["Paris", "Rome"])
        #expect(places.map(\.coordinate.longitude) == [2.3488, 12.4964])
    }

    @Test("Decodable records need no init(row:)")
    func decodableRecord() throws {
        let dbQueue = try DatabaseQueue()
        let player = try dbQueue.read { db in
            try DecodableFetchable.Player.fetchOne(db, sql: "SELECT 1 AS id, 'Arthur' AS name, 100 AS score")
        }
        #expect(player?.id == 1)
        #expect(player?.name == "Arthur")
        #expect(player?.score == 100)
    }

    @Test("Fetching from SQL: fetchOne, fetchCursor, fetchAll, fetchSet")
    func fetchingFromSQL() throws {
        let (dbQueue, _) = try placeDatabase()
        try dbQueue.read { db in
            let sql = "SELECT * FROM place WHERE latitude > ? ORDER BY id"
            let arguments: StatementArguments = [45]
            let place = try FetchableByName.Place.fetchOne(db, sql: sql, arguments: arguments)  // Place?
            let cursor = try FetchableByName.Place.fetchCursor(db, sql: sql, arguments: arguments)  // A Cursor of Place
            let places = try FetchableByName.Place.fetchAll(db, sql: sql, arguments: arguments)  // [Place]
            #expect(place?.title == "Paris")
            #expect(try cursor.next()?.title == "Paris")
            #expect(try cursor.next() == nil)
            #expect(places.map(\.title) == ["Paris"])
        }
        // fetchSet needs a Hashable record (a Place with coordinates is not).
        let players = try dbQueue.read { db in
            try HashablePlayer.fetchSet(
                db, sql: "SELECT ? AS name UNION ALL SELECT ?", arguments: ["Arthur", "Arthur"])
        }
        #expect(players == [HashablePlayer(name: "Arthur")])
    }
}

private struct HashablePlayer: Decodable, FetchableRecord, Hashable {
    var name: String
}

// MARK: - TableRecord Protocol

private enum DefaultTableName {
    struct Place: TableRecord {}
    struct Country: TableRecord {}
    struct PostalAddress: TableRecord {}
    struct HTTPRequest: TableRecord {}
    struct TOEFL: TableRecord {}
}

private enum CustomTableName {
    struct Place: TableRecord {
        static let databaseTableName = "location"
    }
}

private enum RecordTableName {
    class Place: Record {
        override class var databaseTableName: String { "place" }
    }
}

/// A table record that fetches, for the query interface sample.
private enum QueryInterfacePlace {
    struct Place: TableRecord, FetchableRecord, Decodable {
        var id: Int64
        var name: String
    }
}

@Suite("README Records chapter: TableRecord Protocol")
struct ReadmeTableRecordProtocolTests {
    @Test("The protocol requirements: table name and default selection")
    func requirements() throws {
        // GRDB 7 declares `databaseSelection` as `[any SQLSelectable]`.
        let selection: [any SQLSelectable] = DefaultTableName.Place.databaseSelection
        #expect(selection.count == 1)
        try DatabaseQueue().write { db in
            try db.create(table: "place") { t in t.column("name", .text) }
            #expect(try requestSQL(db, DefaultTableName.Place.all()) == #"SELECT * FROM "place""#)
        }
    }

    @Test("The table name is derived from the type name")
    func derivedTableNames() {
        #expect(DefaultTableName.Place.databaseTableName == "place")  // prints "place"
        #expect(DefaultTableName.Country.databaseTableName == "country")
        #expect(DefaultTableName.PostalAddress.databaseTableName == "postalAddress")
        #expect(DefaultTableName.HTTPRequest.databaseTableName == "httpRequest")
        #expect(DefaultTableName.TOEFL.databaseTableName == "toefl")
    }

    @Test("A custom table name")
    func customTableName() {
        #expect(CustomTableName.Place.databaseTableName == "location")  // prints "location"
    }

    @Test("Record subclasses override databaseTableName")
    func recordSubclassTableName() {
        #expect(RecordTableName.Place.databaseTableName == "place")  // prints "place"
    }

    @Test("Fetching with the query interface")
    func queryInterface() throws {
        let (dbQueue, log) = try makeLoggedDatabase { db in
            try db.create(table: "place") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.execute(sql: "INSERT INTO place (name) VALUES ('Rome'), ('Paris')")
        }
        let nameColumn = Column("name")
        let paris = try dbQueue.read { db in
            // SELECT * FROM place WHERE name = 'Paris'
            try QueryInterfacePlace.Place.filter(nameColumn == "Paris").fetchOne(db)
        }
        #expect(paris?.id == 2)
        #expect(log.statements(.user) == [#"SELECT * FROM "place" WHERE "name" = ? LIMIT 1"#])
    }
}

// MARK: - PersistableRecord Protocol

/// `encode(to:)` with column names, and `didInsert`.
private enum PersistableByName {
    struct Place {
        var id: Int64?
        var title: String
        var coordinate: CLLocationCoordinate2D
    }
}

extension PersistableByName.Place: MutablePersistableRecord {
    /// The values persisted in the database
    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["title"] = title
        container["latitude"] = coordinate.latitude
        container["longitude"] = coordinate.longitude
    }

    // Update auto-incremented id upon successful insertion
    // (GRDB 7: `didInsert(_:)` replaces v5's `didInsert(with:for:)`.)
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// `encode(to:)` with a column enum.
private enum PersistableByColumn {
    struct Place {
        var id: Int64?
        var title: String
        var coordinate: CLLocationCoordinate2D
    }
}

extension PersistableByColumn.Place: MutablePersistableRecord {
    enum Columns: String, ColumnExpression {
        case id, title, latitude, longitude
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.title] = title
        container[Columns.latitude] = coordinate.latitude
        container[Columns.longitude] = coordinate.longitude
    }
}

/// "That's all": an Encodable record.
private enum EncodablePersistable {
    // That's all
    struct Player: Encodable, MutablePersistableRecord {
        var id: Int64?
        var name: String
        var score: Int

        // Update auto-incremented id upon successful insertion
        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }
}

/// A class adopts PersistableRecord: its non-mutating `didInsert` keeps the id.
private enum ClassPersistable {
    final class Player: PersistableRecord {
        var id: Int64?
        var name: String
        init(name: String) { self.name = name }

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["name"] = name
        }

        func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }
}

@Suite("README Records chapter: PersistableRecord Protocol")
struct ReadmePersistableRecordProtocolTests {
    @Test("encode(to:) and didInsert: the inserted place knows its id")
    func encodeAndDidInsert() throws {
        try loggedWrite(placeDatabase()) { db, log throws in
            var paris = PersistableByName.Place(
                id: nil,
                title: "Paris",
                coordinate: CLLocationCoordinate2D(latitude: 48.8534100, longitude: 2.3488000))

            try paris.insert(db)
            #expect(paris.id == 3)  // some value
            #expect(log.last == #"INSERT INTO "place" ("id", "title", "latitude", "longitude") VALUES (?,?,?,?)"#)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM place WHERE id = 3"))
            #expect(row == ["id": 3, "title": "Paris", "latitude": 48.85341, "longitude": 2.3488])
        }
    }

    @Test("Persistence containers accept column enums")
    func containerWithColumnEnum() throws {
        try loggedWrite(placeDatabase()) { db, log throws in
            var berlin = PersistableByColumn.Place(
                id: nil, title: "Berlin", coordinate: CLLocationCoordinate2D(latitude: 52.52, longitude: 13.405))
            try berlin.insert(db)
            #expect(log.last == #"INSERT INTO "place" ("id", "title", "latitude", "longitude") VALUES (?,?,?,?)"#)
            // The default didInsert does nothing: the struct keeps its nil id.
            #expect(berlin.id == nil)
            #expect(try String.fetchOne(db, sql: "SELECT title FROM place WHERE id = 3") == "Berlin")
            #expect(try berlin.databaseDictionary["latitude"] == 52.52.databaseValue)
        }
    }

    @Test("Encodable records need no encode(to:)")
    func encodableRecord() throws {
        let (dbQueue, log) = try makeLoggedDatabase(Player.createTable)
        try dbQueue.write { db in
            var player = EncodablePersistable.Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            #expect(player.id == 1)
            #expect(log.last == #"INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)"#)
        }
    }

    @Test("Classes adopt PersistableRecord, and keep their id in didInsert")
    func classRecord() throws {
        try DatabaseQueue().write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            let player = ClassPersistable.Player(name: "Arthur")
            try player.insert(db)
            #expect(player.id == 1)
        }
    }
}
