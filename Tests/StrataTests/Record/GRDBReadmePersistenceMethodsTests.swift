import Foundation
import Strata
import StrataTestSupport
import Testing

// The Records chapter of the v5.8 README (seed 000): the "Persistence
// Methods" section and its "Customizing the Persistence Methods", run as
// written in their GRDB 7 form (see GRDBReadmeRecordsChapterTests.swift for the
// conventions).
//
// Already run elsewhere: composite primary keys
// (PersistableRecordTests.compositePrimaryKey), constraint errors
// (PersistableRecordTests.duplicatePrimaryKeyIsAConstraintError).

private enum PersistenceMethods {
    struct Place: Codable, Identifiable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64?
        var title: String
        var code: String
    }

    /// The Record class of the list, for `updateChanges(_:)`.
    final class RecordPlace: Record {
        var id: Int64?
        var title: String
        var code: String

        init(id: Int64?, title: String, code: String) {
            self.id = id
            self.title = title
            self.code = code
            super.init()
        }

        override class var databaseTableName: String { "place" }

        required init(row: Row) throws {
            id = row["id"]
            title = row["title"]
            code = row["code"]
            try super.init(row: row)
        }

        override func encode(to container: inout PersistenceContainer) throws {
            container["id"] = id
            container["title"] = title
            container["code"] = code
        }

        override func didInsert(_ inserted: InsertionSuccess) {
            super.didInsert(inserted)
            id = inserted.rowID
        }
    }

    static func database() throws -> (DatabaseQueue, SQLLog) {
        try makeLoggedDatabase { db in
            try db.create(table: "place") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.column("code", .text).notNull().unique()
            }
        }
    }
}

/// "When you subclass Record, you simply have to override the customized
/// method, and call super". GRDB 7 has no overridable `insert`: the
/// customization is the `willInsert` persistence callback.
private enum CustomizedRecord {
    final class Player: Record {
        var uuid: UUID?

        override init() { super.init() }

        required init(row: Row) throws {
            uuid = row["uuid"]
            try super.init(row: row)
        }

        override func encode(to container: inout PersistenceContainer) throws {
            container["uuid"] = uuid
        }

        override func willInsert(_ db: Database) throws {
            try super.willInsert(db)
            if uuid == nil {
                uuid = UUID()
            }
        }
    }
}

private struct ValidationError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}

/// "If you use the raw PersistableRecord protocol, use one of the special
/// methods performInsert, performUpdate...". GRDB 7 has no `perform...`
/// methods: the validation runs in the `willSave` callback, before every
/// insert and update (and so before `save`).
private enum CustomizedStruct {
    struct Link: PersistableRecord {
        var url: URL

        func encode(to container: inout PersistenceContainer) {
            container["url"] = url.absoluteString
        }

        func willSave(_ db: Database) throws {
            try validate()
        }

        func validate() throws {
            if url.host == nil {
                throw ValidationError("url must be absolute.")
            }
        }
    }
}

@Suite("README Records chapter: Persistence Methods")
struct GRDBReadmePersistenceMethodsTests {
    fileprivate typealias Place = PersistenceMethods.Place

    @Test("Instance methods: save, insert, update, updateChanges, delete, exists")
    func instanceMethods() throws {
        try loggedWrite(PersistenceMethods.database()) { db, log throws in
            var place = Place(id: nil, title: "Paris", code: "PAR")
            try place.save(db)  // INSERT or UPDATE
            #expect(log.statements(.user) == [#"INSERT INTO "place" ("id", "title", "code") VALUES (?,?,?)"#])
            place.id = 1
            log.clear()

            try place.insert(db, onConflict: .replace)  // INSERT
            #expect(log.last == #"INSERT OR REPLACE INTO "place" ("id", "title", "code") VALUES (?,?,?)"#)
            try place.update(db)  // UPDATE
            #expect(log.last == #"UPDATE "place" SET "title"=?, "code"=? WHERE "id"=?"#)
            try place.update(db, columns: ["title"])  // UPDATE
            #expect(log.last == #"UPDATE "place" SET "title"=? WHERE "id"=?"#)
            try place.update(db, columns: [Column("code")])  // UPDATE
            #expect(log.last == #"UPDATE "place" SET "code"=? WHERE "id"=?"#)
            log.clear()

            let oldPlace = place
            place.title = "Paname"
            #expect(try place.updateChanges(db, from: oldPlace))  // Maybe UPDATE
            #expect(try !place.updateChanges(db) { $0.title = "Paname" })  // Maybe UPDATE
            #expect(try place.updateChanges(db) { $0.title = "Paris" })
            #expect(
                log.statements(.user) == [
                    #"UPDATE "place" SET "title"=? WHERE "id"=?"#,
                    #"UPDATE "place" SET "title"=? WHERE "id"=?"#,
                ])
            log.clear()

            #expect(try place.exists(db))
            #expect(log.statements(.user) == [#"SELECT EXISTS (SELECT 1 FROM "place" WHERE "id"=?)"#])
            log.clear()
            #expect(try place.delete(db))  // DELETE
            #expect(log.statements(.user) == [#"DELETE FROM "place" WHERE "id"=?"#])
            #expect(try !place.exists(db))
            // delete returns whether a database row was deleted or not.
            #expect(try !place.delete(db))
        }
    }

    @Test("updateChanges(_:) of the Record class")
    func recordUpdateChanges() throws {
        try loggedWrite(PersistenceMethods.database()) { db, log throws in
            let place = PersistenceMethods.RecordPlace(id: nil, title: "Paris", code: "PAR")
            try place.insert(db)
            log.clear()
            #expect(try !place.updateChanges(db))  // Maybe UPDATE (Record class only)
            place.code = "PRS"
            #expect(try place.updateChanges(db))
            #expect(log.statements(.user) == [#"UPDATE "place" SET "code"=? WHERE "id"=?"#])
        }
    }

    @Test("Type methods: updateAll, deleteAll, deleteOne")
    func typeMethods() throws {
        try loggedWrite(PersistenceMethods.database()) { db, log throws in
            func insertPlaces() throws {
                try db.execute(sql: "DELETE FROM place")
                for (id, code) in ["PAR", "ROM", "BER", "MAD", "LIS"].enumerated() {
                    try Place(id: Int64(id + 1), title: code.lowercased(), code: code).insert(db)
                }
                log.clear()
            }
            try insertPlaces()
            #expect(try Place.updateAll(db, Column("title").set(to: "city")) == 5)  // UPDATE
            #expect(try Place.deleteAll(db, ids: [1, 2]) == 2)  // DELETE
            #expect(try Place.deleteAll(db, keys: [3]) == 1)  // DELETE
            #expect(try Place.deleteAll(db, keys: [["code": "MAD"]]) == 1)  // DELETE
            #expect(try !Place.deleteOne(db, id: 1))  // DELETE
            #expect(try Place.deleteOne(db, key: ["code": "LIS"]))  // DELETE
            #expect(
                log.statements(.user) == [
                    #"UPDATE "place" SET "title" = ?"#,
                    #"DELETE FROM "place" WHERE "id" IN (?, ?)"#,
                    #"DELETE FROM "place" WHERE "id" = ?"#,
                    #"DELETE FROM "place" WHERE "code" = ?"#,
                    #"DELETE FROM "place" WHERE "id" = ?"#,
                    #"DELETE FROM "place" WHERE "code" = ?"#,
                ])
            try insertPlaces()
            #expect(try Place.deleteAll(db) == 5)  // DELETE
            #expect(log.statements(.user) == [#"DELETE FROM "place""#])
        }
    }

    @Test("update and updateChanges throw PersistenceError when no row matches")
    func updateOfAMissingRowThrows() throws {
        try loggedWrite(PersistenceMethods.database()) { db, _ throws in
            var place = Place(id: 42, title: "Atlantis", code: "ATL")
            do {
                try place.update(db)
                Issue.record("Expected an error")
            } catch PersistenceError.recordNotFound(databaseTableName: let table, key: let key) {
                // GRDB 7 names the error RecordError; PersistenceError is its alias.
                #expect(table == "place")
                #expect(key == ["id": 42.databaseValue])
            }
            #expect(throws: RecordError.self) {
                try place.updateChanges(db) { $0.title = "Lost" }
            }
            let record = PersistenceMethods.RecordPlace(id: 42, title: "Atlantis", code: "ATL")
            #expect(throws: RecordError.self) { try record.updateChanges(db) }
        }
    }

    @Test("save: UPDATE, then INSERT if no row was modified; INSERT without primary key")
    func save() throws {
        try loggedWrite(PersistenceMethods.database()) { db, log throws in
            // Null primary key: INSERT only.
            let paris = Place(id: nil, title: "Paris", code: "PAR")
            try paris.save(db)
            #expect(log.statements(.user) == [#"INSERT INTO "place" ("id", "title", "code") VALUES (?,?,?)"#])
            log.clear()

            // Non-null primary key of a missing row: UPDATE, then INSERT.
            var rome = Place(id: 2, title: "Rome", code: "ROM")
            try rome.save(db)
            #expect(
                log.statements(.user) == [
                    #"UPDATE "place" SET "title"=?, "code"=? WHERE "id"=?"#,
                    #"INSERT INTO "place" ("id", "title", "code") VALUES (?,?,?)"#,
                ])
            log.clear()

            // Non-null primary key of an existing row: UPDATE only.
            rome.title = "Roma"
            try rome.save(db)
            #expect(log.statements(.user) == [#"UPDATE "place" SET "title"=?, "code"=? WHERE "id"=?"#])
            #expect(try Place.fetchAll(db).map(\.title) == ["Paris", "Roma"])
        }
    }

    @Test("Customizing: a Record subclass sets its UUID before insertion")
    func customizedRecordSubclass() throws {
        try DatabaseQueue().write { db in
            try db.create(table: "player") { t in
                t.column("uuid", .blob).notNull()
            }
            let player = CustomizedRecord.Player()
            try player.insert(db)
            let uuid = try #require(player.uuid)
            #expect(try UUID.fetchOne(db, sql: "SELECT uuid FROM player") == uuid)
            // A UUID that is already set is kept.
            let other = CustomizedRecord.Player()
            let otherUUID = UUID()
            other.uuid = otherUUID
            try other.insert(db)
            #expect(other.uuid == otherUUID)
        }
    }

    @Test("Customizing: a struct validates itself before insert and update")
    func customizedStruct() throws {
        try DatabaseQueue().write { db in
            try db.create(table: "link") { t in
                t.column("url", .text).primaryKey()
            }
            let relative = CustomizedStruct.Link(url: URL(string: "relative/path")!)
            #expect(throws: ValidationError("url must be absolute.")) { try relative.insert(db) }
            #expect(throws: ValidationError("url must be absolute.")) { try relative.update(db) }
            #expect(throws: ValidationError("url must be absolute.")) { try relative.save(db) }
            #expect(throws: ValidationError("url must be absolute.")) { try relative.update(db, columns: ["url"]) }
            #expect(try CustomizedStruct.Link.fetchCount(db) == 0)

            let absolute = CustomizedStruct.Link(url: URL(string: "https://example.com/path")!)
            try absolute.insert(db)
            try absolute.update(db)
            try absolute.save(db)
            #expect(try String.fetchAll(db, sql: "SELECT url FROM link") == ["https://example.com/path"])
        }
    }
}
