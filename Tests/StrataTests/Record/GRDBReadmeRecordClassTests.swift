import Foundation
import Strata
import StrataTestSupport
import Testing

// The Records chapter of the v5.8 README (seed 000): the "Record Class" and
// "Record Comparison" sections, run as written in their GRDB 7 form (see
// GRDBReadmeRecordsChapterTests.swift for the conventions). GRDB 7's Record
// class differs from v5.8: `init(row:)` and `encode(to:)` throw,
// `didInsert(_:)` takes an `InsertionSuccess`, and `databaseChanges` is a
// throwing property of `[String: DatabaseValue?]` (nil when the old value is
// unknown).

#if canImport(CoreLocation)
    import CoreLocation
#endif

private enum RecordClassSample {
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
            case id, title, favorite, latitude, longitude
        }

        /// Creates a record from a database row
        required init(row: Row) throws {
            id = row[Columns.id]
            title = row[Columns.title]
            isFavorite = row[Columns.favorite]
            coordinate = CLLocationCoordinate2D(
                latitude: row[Columns.latitude],
                longitude: row[Columns.longitude])
            try super.init(row: row)
        }

        /// The values persisted in the database
        override func encode(to container: inout PersistenceContainer) throws {
            container[Columns.id] = id
            container[Columns.title] = title
            container[Columns.favorite] = isFavorite
            container[Columns.latitude] = coordinate.latitude
            container[Columns.longitude] = coordinate.longitude
        }

        /// Update record ID after a successful insertion
        override func didInsert(_ inserted: InsertionSuccess) {
            super.didInsert(inserted)
            id = inserted.rowID
        }
    }
}

@Suite("README Records chapter: Record Class")
struct GRDBReadmeRecordClassTests {
    @Test("A Record subclass inserts, fetches, tracks changes, and updates")
    func placeSubclass() throws {
        typealias Place = RecordClassSample.Place
        let (dbQueue, log) = try makeLoggedDatabase { db in
            try db.execute(
                sql: """
                    CREATE TABLE place (
                      id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, favorite BOOLEAN NOT NULL,
                      latitude DOUBLE NOT NULL, longitude DOUBLE NOT NULL)
                    """)
        }
        try dbQueue.write { db in
            let paris = Place(
                id: nil, title: "Paris", isFavorite: false,
                coordinate: CLLocationCoordinate2D(latitude: 48.8534100, longitude: 2.3488000))
            #expect(paris.hasDatabaseChanges)
            try paris.insert(db)
            #expect(paris.id == 1)
            #expect(!paris.hasDatabaseChanges)
            #expect(
                log.last
                    == #"INSERT INTO "place" ("id", "title", "favorite", "latitude", "longitude") VALUES (?,?,?,?,?)"#)

            let fetched = try #require(try Place.fetchOne(db, key: 1))
            #expect(fetched.title == "Paris")
            #expect(fetched.coordinate.latitude == 48.85341)
            #expect(!fetched.hasDatabaseChanges)
            fetched.isFavorite = true
            #expect(try fetched.databaseChanges == ["favorite": false.databaseValue])
            log.clear()
            try fetched.updateChanges(db)
            #expect(log.statements(.user) == [#"UPDATE "place" SET "favorite"=? WHERE "id"=?"#])
            #expect(try Bool.fetchOne(db, sql: "SELECT favorite FROM place") == true)
        }
    }
}

// MARK: - Record Comparison

/// The samples of "Record Comparison" use the kit's `Player` (the struct)
/// and `RecordPlayer` (the "Record class only" samples).
private enum ComparisonSample {
    /// A database with player 42 (Arthur, 50), and the log of its statements.
    static func database() throws -> (DatabaseQueue, SQLLog) {
        try makeLoggedDatabase { db in
            try Player.createTable(db)
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (42, 'Arthur', 50)")
        }
    }

    /// Runs `sample` twice, and expects it to modify the player the first
    /// time only.
    static func expectModifiedOnce(_ dbQueue: DatabaseQueue, _ sample: (Database, inout [String]) throws -> Void)
        throws
    {
        var messages: [String] = []
        for _ in 1...2 {
            try dbQueue.write { db in try sample(db, &messages) }
        }
        #expect(
            messages == [
                "player was modified, and updated in the database",
                "player was not modified, and database was not hit",
            ])
    }
}

@Suite("README Records chapter: Record Comparison")
struct ReadmeRecordComparisonTests {
    @Test("updateChanges(_:from:) compares two records")
    func updateChangesFrom() throws {
        let (dbQueue, log) = try ComparisonSample.database()
        try ComparisonSample.expectModifiedOnce(dbQueue) { db, messages in
            if let oldPlayer = try Player.fetchOne(db, id: 42) {
                var newPlayer = oldPlayer
                newPlayer.score = 100
                if try newPlayer.updateChanges(db, from: oldPlayer) {
                    messages.append("player was modified, and updated in the database")
                } else {
                    messages.append("player was not modified, and database was not hit")
                }
            }
        }
        #expect(
            log.statements(.user) == [
                #"SELECT * FROM "player" WHERE "id" = ?"#,
                #"UPDATE "player" SET "score"=? WHERE "id"=?"#,
                #"SELECT * FROM "player" WHERE "id" = ?"#,
            ])
    }

    @Test("updateChanges(_:modify:) updates a record in place")
    func updateChangesModify() throws {
        let (dbQueue, log) = try ComparisonSample.database()
        try ComparisonSample.expectModifiedOnce(dbQueue) { db, messages in
            if var player = try Player.fetchOne(db, id: 42) {
                let modified = try player.updateChanges(db) {
                    $0.score = 100
                }
                if modified {
                    messages.append("player was modified, and updated in the database")
                } else {
                    messages.append("player was not modified, and database was not hit")
                }
            }
        }
        #expect(
            log.statements(.user).filter { $0.hasPrefix("UPDATE") } == [#"UPDATE "player" SET "score"=? WHERE "id"=?"#])
    }

    @Test("updateChanges(_:) of the Record class compares against the fetched values")
    func recordUpdateChanges() throws {
        let (dbQueue, log) = try ComparisonSample.database()
        try ComparisonSample.expectModifiedOnce(dbQueue) { db, messages in
            // Record class only
            if let player = try RecordPlayer.fetchOne(db, key: 42) {
                player.score = 100
                if try player.updateChanges(db) {
                    messages.append("player was modified, and updated in the database")
                } else {
                    messages.append("player was not modified, and database was not hit")
                }
            }
        }
        #expect(
            log.statements(.user).filter { $0.hasPrefix("UPDATE") } == [#"UPDATE "player" SET "score"=? WHERE "id"=?"#])
    }

    @Test("databaseEquals compares database representations")
    func databaseEquals() throws {
        let (dbQueue, log) = try ComparisonSample.database()
        try dbQueue.write { db in
            let oldPlayer: Player = try Player.find(db, id: 42)
            var newPlayer: Player = oldPlayer
            log.clear()
            if newPlayer.databaseEquals(oldPlayer) == false {
                try newPlayer.save(db)
            }
            #expect(log.statements(.user).isEmpty)

            newPlayer.score = 1000
            if newPlayer.databaseEquals(oldPlayer) == false {
                try newPlayer.save(db)
            }
            #expect(log.statements(.user) == [#"UPDATE "player" SET "name"=?, "score"=? WHERE "id"=?"#])
            #expect(try Player.find(db, id: 42).score == 1000)
        }
    }

    @Test("databaseChanges(from:) lists the differences between two records")
    func databaseChangesFrom() throws {
        let oldPlayer = Player(id: 1, name: "Arthur", score: 100)
        let newPlayer = Player(id: 1, name: "Arthur", score: 1000)
        var printed: [String] = []
        for (column, oldValue) in try newPlayer.databaseChanges(from: oldPlayer) {
            printed.append("\(column) was \(oldValue)")
        }
        #expect(printed == ["score was 100"])  // prints "score was 100"
    }

    @Test("The Record class compares against itself: databaseChanges")
    func recordDatabaseChanges() throws {
        let (dbQueue, _) = try ComparisonSample.database()
        try dbQueue.write { db in
            // Record class only
            let player = RecordPlayer(id: 1, name: "Arthur", score: 100)
            try player.insert(db)
            player.score = 1000
            var printed: [String] = []
            // GRDB 7: old values are optional (nil when unknown).
            for (column, oldValue) in try player.databaseChanges {
                printed.append("\(column) was \(oldValue.map { "\($0)" } ?? "unknown")")
            }
            #expect(printed == ["score was 100"])  // prints "score was 100"
        }
    }

    @Test("The Record class hasDatabaseChanges property")
    func hasDatabaseChanges() throws {
        let (dbQueue, log) = try ComparisonSample.database()
        try dbQueue.write { db in
            let player = try #require(try RecordPlayer.fetchOne(db, key: 42))
            log.clear()

            // Record class only
            player.score = 1000
            if player.hasDatabaseChanges {
                try player.save(db)
            }
            #expect(log.statements(.user) == [#"UPDATE "player" SET "name"=?, "score"=? WHERE "id"=?"#])
            #expect(!player.hasDatabaseChanges)
        }
    }

    @Test("hasDatabaseChanges is based on value comparison")
    func hasDatabaseChangesByValue() throws {
        let (dbQueue, _) = try ComparisonSample.database()
        try dbQueue.write { db in
            let player = RecordPlayer(name: "Barbara", score: 750)
            #expect(player.hasDatabaseChanges)  // true

            try player.insert(db)
            #expect(!player.hasDatabaseChanges)  // false

            player.name = "Barbara"
            #expect(!player.hasDatabaseChanges)  // false

            player.score = 1000
            #expect(player.hasDatabaseChanges)  // true
            #expect(try player.databaseChanges == ["score": 750.databaseValue])  // ["score": 750]
        }
    }
}
