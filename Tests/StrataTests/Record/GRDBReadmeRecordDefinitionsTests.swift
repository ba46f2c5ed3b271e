import Foundation
import Strata
import StrataTestSupport
import Testing

// The Records chapter of the v5.8 README (seed 000): the "Examples of Record
// Definitions" section, run as written in their GRDB 7 form (see
// GRDBReadmeRecordsChapterTests.swift for the conventions). The four
// definitions of `Place` go through the same checks.

#if canImport(CoreLocation)
    import CoreLocation
#endif

// MARK: Define a Codable struct, and adopt the record protocols you need

private enum CodableDefinition {
    struct Place: Codable {
        var id: Int64?
        var title: String
        var isFavorite: Bool
        private var latitude: CLLocationDegrees
        private var longitude: CLLocationDegrees

        var coordinate: CLLocationCoordinate2D {
            get {
                CLLocationCoordinate2D(
                    latitude: latitude,
                    longitude: longitude)
            }
            set {
                latitude = newValue.latitude
                longitude = newValue.longitude
            }
        }

        // The sample has no initializer for its private properties.
        init(id: Int64?, title: String, isFavorite: Bool, coordinate: CLLocationCoordinate2D) {
            self.id = id
            self.title = title
            self.isFavorite = isFavorite
            self.latitude = coordinate.latitude
            self.longitude = coordinate.longitude
        }
    }
}

// SQL generation
extension CodableDefinition.Place: TableRecord {
    /// The table columns
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let title = Column(CodingKeys.title)
        static let isFavorite = Column(CodingKeys.isFavorite)
        static let latitude = Column(CodingKeys.latitude)
        static let longitude = Column(CodingKeys.longitude)
    }
}

// Fetching methods
extension CodableDefinition.Place: FetchableRecord {}

// Persistence methods
extension CodableDefinition.Place: MutablePersistableRecord {
    // Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

// MARK: Define a plain struct, and adopt the record protocols you need

private enum PlainDefinition {
    struct Place {
        var id: Int64?
        var title: String
        var isFavorite: Bool
        var coordinate: CLLocationCoordinate2D
    }
}

// SQL generation
extension PlainDefinition.Place: TableRecord {
    /// The table columns
    enum Columns: String, ColumnExpression {
        case id, title, isFavorite, latitude, longitude
    }
}

// Fetching methods
extension PlainDefinition.Place: FetchableRecord {
    /// Creates a record from a database row
    init(row: Row) {
        id = row[Columns.id]
        title = row[Columns.title]
        isFavorite = row[Columns.isFavorite]
        coordinate = CLLocationCoordinate2D(
            latitude: row[Columns.latitude],
            longitude: row[Columns.longitude])
    }
}

// Persistence methods
extension PlainDefinition.Place: MutablePersistableRecord {
    /// The values persisted in the database
    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.title] = title
        container[Columns.isFavorite] = isFavorite
        container[Columns.latitude] = coordinate.latitude
        container[Columns.longitude] = coordinate.longitude
    }

    // Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

// MARK: Define a plain struct optimized for fetching performance

private enum OptimizedDefinition {
    struct Place: Encodable {
        var id: Int64?
        var title: String
        var isFavorite: Bool
        private var latitude: CLLocationDegrees
        private var longitude: CLLocationDegrees

        var coordinate: CLLocationCoordinate2D {
            get {
                CLLocationCoordinate2D(
                    latitude: latitude,
                    longitude: longitude)
            }
            set {
                latitude = newValue.latitude
                longitude = newValue.longitude
            }
        }

        init(id: Int64?, title: String, isFavorite: Bool, coordinate: CLLocationCoordinate2D) {
            self.id = id
            self.title = title
            self.isFavorite = isFavorite
            self.latitude = coordinate.latitude
            self.longitude = coordinate.longitude
        }
    }
}

// SQL generation
extension OptimizedDefinition.Place: TableRecord {
    /// The table columns
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let title = Column(CodingKeys.title)
        static let isFavorite = Column(CodingKeys.isFavorite)
        static let latitude = Column(CodingKeys.latitude)
        static let longitude = Column(CodingKeys.longitude)
    }

    /// Arrange the selected columns and lock their order
    /// (GRDB 7: a computed `[any SQLSelectable]`; the sample's
    /// `Columns.favorite` is `Columns.isFavorite`.)
    static var databaseSelection: [any SQLSelectable] {
        [
            Columns.id,
            Columns.title,
            Columns.isFavorite,
            Columns.latitude,
            Columns.longitude,
        ]
    }
}

// Fetching methods
extension OptimizedDefinition.Place: FetchableRecord {
    /// Creates a record from a database row
    init(row: Row) {
        // For high performance, use numeric indexes that match the
        // order of Place.databaseSelection
        // (The sample sets `coordinate` before the private latitude and
        // longitude are initialized, which does not compile: it calls the
        // memberwise-like initializer instead.)
        self.init(
            id: row[0],
            title: row[1],
            isFavorite: row[2],
            coordinate: CLLocationCoordinate2D(
                latitude: row[3],
                longitude: row[4]))
    }
}

// Persistence methods
extension OptimizedDefinition.Place: MutablePersistableRecord {
    // Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

// MARK: Subclass the Record class

private enum RecordDefinition {
    class Place: Record {
        var id: Int64?
        var title: String
        var isFavorite: Bool
        var coordinate: CLLocationCoordinate2D

        init(id: Int64?, title: String, isFavorite: Bool, coordinate: CLLocationCoordinate2D) {
            self.id = id
            self.title = title
            self.isFavorite = isFavorite
            self.coordinate = coordinate
            super.init()
        }

        /// The table name
        override class var databaseTableName: String { "place" }

        /// The table columns
        enum Columns: String, ColumnExpression {
            case id, title, isFavorite, latitude, longitude
        }

        /// Creates a record from a database row
        required init(row: Row) throws {
            id = row[Columns.id]
            title = row[Columns.title]
            isFavorite = row[Columns.isFavorite]
            coordinate = CLLocationCoordinate2D(
                latitude: row[Columns.latitude],
                longitude: row[Columns.longitude])
            try super.init(row: row)
        }

        /// The values persisted in the database
        override func encode(to container: inout PersistenceContainer) throws {
            container[Columns.id] = id
            container[Columns.title] = title
            container[Columns.isFavorite] = isFavorite
            container[Columns.latitude] = coordinate.latitude
            container[Columns.longitude] = coordinate.longitude
        }

        // Update auto-incremented id upon successful insertion
        override func didInsert(_ inserted: InsertionSuccess) {
            super.didInsert(inserted)
            id = inserted.rowID
        }
    }
}

/// What the four definitions share.
private protocol PlaceDefinition: FetchableRecord, MutablePersistableRecord {
    var id: Int64? { get }
    var title: String { get }
    var isFavorite: Bool { get }
    var coordinate: CLLocationCoordinate2D { get set }
}

extension CodableDefinition.Place: PlaceDefinition {}
extension PlainDefinition.Place: PlaceDefinition {}
extension OptimizedDefinition.Place: PlaceDefinition {}
extension RecordDefinition.Place: PlaceDefinition {}

@Suite("README Records chapter: Examples of Record Definitions")
struct GRDBReadmeRecordDefinitionsTests {
    /// The place table of the section.
    private static func createPlaceTable(_ db: Database) throws {
        try db.create(table: "place") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("title", .text).notNull()
            t.column("isFavorite", .boolean).notNull().defaults(to: false)
            t.column("longitude", .double).notNull()
            t.column("latitude", .double).notNull()
        }
    }

    private func database() throws -> (DatabaseQueue, SQLLog) {
        try makeLoggedDatabase(Self.createPlaceTable)
    }

    @Test("The place table")
    func placeTable() throws {
        let sql = try DatabaseQueue().write { db in try recordSQL(db) { try Self.createPlaceTable(db) } }
        #expect(
            sql == [
                #"CREATE TABLE "place" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, "#
                    + #""isFavorite" BOOLEAN NOT NULL DEFAULT 0, "longitude" DOUBLE NOT NULL, "#
                    + #""latitude" DOUBLE NOT NULL)"#
            ])
    }

    /// Inserts, fetches, updates and deletes a place of the given definition,
    /// and returns the SQL of the fetch.
    private func roundTrip<Place: PlaceDefinition>(
        _ makePlace: (Int64?, String, Bool, CLLocationCoordinate2D) -> Place
    ) throws -> String? {
        let (dbQueue, log) = try database()
        return try dbQueue.write { db in
            var paris = makePlace(
                nil, "Paris", false, CLLocationCoordinate2D(latitude: 48.8534100, longitude: 2.3488000))
            log.clear()
            try paris.insert(db)
            #expect(paris.id == 1)
            #expect(log.statements(.user).count == 1)
            #expect(log.statements(.user).first?.hasPrefix(#"INSERT INTO "place" ("#) == true)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM place"))
            #expect(row == ["id": 1, "title": "Paris", "isFavorite": false, "longitude": 2.3488, "latitude": 48.85341])

            log.clear()
            let fetched = try #require(try Place.fetchOne(db, key: 1))
            let fetchSQL = log.statements(.user).first
            #expect(fetched.title == "Paris")
            #expect(!fetched.isFavorite)
            #expect(fetched.coordinate.latitude == 48.85341)
            #expect(fetched.coordinate.longitude == 2.3488)

            paris.coordinate = CLLocationCoordinate2D(latitude: 48.8566, longitude: 2.3522)
            try paris.update(db)
            #expect(try Double.fetchOne(db, sql: "SELECT latitude FROM place") == 48.8566)
            #expect(try Place.fetchAll(db).map(\.coordinate.longitude) == [2.3522])
            #expect(try paris.delete(db))
            #expect(try Place.fetchCount(db) == 0)
            return fetchSQL
        }
    }

    @Test("A Codable struct")
    func codableStruct() throws {
        let sql = try roundTrip(CodableDefinition.Place.init(id:title:isFavorite:coordinate:))
        #expect(sql == #"SELECT * FROM "place" WHERE "id" = ?"#)
        typealias Place = CodableDefinition.Place
        #expect(
            [Place.Columns.id, Place.Columns.title, Place.Columns.isFavorite, Place.Columns.latitude].map(\.name)
                == ["id", "title", "isFavorite", "latitude"])
        #expect(Place.Columns.longitude.name == "longitude")
    }

    @Test("A plain struct")
    func plainStruct() throws {
        let sql = try roundTrip(PlainDefinition.Place.init(id:title:isFavorite:coordinate:))
        #expect(sql == #"SELECT * FROM "place" WHERE "id" = ?"#)
    }

    @Test("A plain struct optimized for fetching performance")
    func optimizedStruct() throws {
        let sql = try roundTrip(OptimizedDefinition.Place.init(id:title:isFavorite:coordinate:))
        #expect(sql == #"SELECT "id", "title", "isFavorite", "latitude", "longitude" FROM "place" WHERE "id" = ?"#)
    }

    @Test("A Record subclass")
    func recordSubclass() throws {
        let sql = try roundTrip(RecordDefinition.Place.init(id:title:isFavorite:coordinate:))
        #expect(sql == #"SELECT * FROM "place" WHERE "id" = ?"#)
    }
}
