import Foundation
import Strata
import StrataTestSupport
import Testing

// The Records chapter of the v5.8 README (seed 000): the "Conflict
// Resolution" and "The Implicit RowID Primary Key" sections, run as written
// in their GRDB 7 form (see GRDBReadmeRecordsChapterTests.swift for the
// conventions).
//
// Also run elsewhere: didInsert after ignored inserts
// (PersistenceCallbackMisuseTests), rowid lookups (FindTests.hiddenRowID).

private enum ConflictSample {
    struct Player: MutablePersistableRecord {
        static let persistenceConflictPolicy = PersistenceConflictPolicy(
            insert: .replace,
            update: .replace)

        var id: Int64?
        var email: String

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["email"] = email
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    /// The ignore policy at the query level, and a didInsert that counts.
    struct IgnoringPlayer: MutablePersistableRecord {
        static let databaseTableName = "player"
        static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .ignore, update: .abort)

        var id: Int64?
        var email: String
        var didInsertCount = 0

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["email"] = email
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
            didInsertCount += 1
        }
    }
}

/// The player table of the samples: an id, and a unique email.
private func createEmailPlayerTable(_ db: Database) throws {
    try db.create(table: "player") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("email", .text).unique()
    }
}

@Suite("README Records chapter: Conflict Resolution")
struct ReadmeConflictResolutionTests {
    @Test("A conflict policy in the table definition")
    func tableDefinition() throws {
        let (dbQueue, log) = try makeLoggedDatabase()
        try dbQueue.write { db in
            // CREATE TABLE player (
            //     id INTEGER PRIMARY KEY AUTOINCREMENT,
            //     email TEXT UNIQUE ON CONFLICT REPLACE
            // )
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).unique(onConflict: .replace)  // <--
            }
            #expect(
                log.last
                    == #"CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "#
                    + #""email" TEXT UNIQUE ON CONFLICT REPLACE)"#)

            // Despite the unique index on email, both inserts succeed.
            // The second insert replaces the first row:
            try db.execute(sql: "INSERT INTO player (email) VALUES (?)", arguments: ["arthur@example.com"])
            try db.execute(sql: "INSERT INTO player (email) VALUES (?)", arguments: ["arthur@example.com"])
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM player") == [["id": 2, "email": "arthur@example.com"]])
        }
    }

    @Test("A conflict policy in each modification query")
    func modificationQuery() throws {
        let (dbQueue, log) = try makeLoggedDatabase()
        try dbQueue.write { db in
            // CREATE TABLE player (
            //     id INTEGER PRIMARY KEY AUTOINCREMENT,
            //     email TEXT UNIQUE
            // )
            try createEmailPlayerTable(db)
            #expect(
                log.last == #"CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "email" TEXT UNIQUE)"#)

            // Again, despite the unique index on email, both inserts succeed.
            try db.execute(sql: "INSERT OR REPLACE INTO player (email) VALUES (?)", arguments: ["arthur@example.com"])
            try db.execute(sql: "INSERT OR REPLACE INTO player (email) VALUES (?)", arguments: ["arthur@example.com"])
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM player") == [["id": 2, "email": "arthur@example.com"]])
            // Without the policy, the insert fails.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (email) VALUES (?)", arguments: ["arthur@example.com"])
            }
        }
    }

    @Test("persistenceConflictPolicy alters the INSERT and UPDATE of records")
    func persistenceConflictPolicy() throws {
        let (dbQueue, log) = try makeLoggedDatabase { db in
            try createEmailPlayerTable(db)
        }
        try dbQueue.write { db in
            var player = ConflictSample.Player(id: nil, email: "arthur@example.com")
            // INSERT OR REPLACE INTO player (...) VALUES (...)
            try player.insert(db)
            #expect(log.last == #"INSERT OR REPLACE INTO "player" ("id", "email") VALUES (?,?)"#)
            var other = ConflictSample.Player(id: nil, email: "arthur@example.com")
            try other.insert(db)
            #expect(other.id == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)

            var barbara = ConflictSample.Player(id: nil, email: "barbara@example.com")
            try barbara.insert(db)
            barbara.email = "arthur@example.com"
            try barbara.update(db)
            #expect(log.last == #"UPDATE OR REPLACE "player" SET "email"=? WHERE "id"=?"#)
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM player") == [["id": 3, "email": "arthur@example.com"]])
            #expect(ConflictSample.Player.persistenceConflictPolicy.conflictResolutionForInsert == .replace)
            #expect(ConflictSample.Player.persistenceConflictPolicy.conflictResolutionForUpdate == .replace)
        }
    }

    /// v5.8: "if you specify the ignore policy at the query level, the
    /// didInsert method is never called". GRDB 7 calls `didInsert` after
    /// every INSERT, ignored or not, with the last inserted rowid of the
    /// connection (the "random id" v5.8 warned about for table-level ignore
    /// policies).
    @Test("The ignore policy and didInsert (GRDB 7: didInsert is always called)")
    func ignorePolicyAndDidInsert() throws {
        try DatabaseQueue().write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).unique(onConflict: .ignore)
            }
            try db.create(table: "other") { t in
                t.autoIncrementedPrimaryKey("id")
            }
            // The ignore policy at the query level.
            var arthur = ConflictSample.IgnoringPlayer(id: nil, email: "arthur@example.com")
            try arthur.insert(db)
            #expect(arthur.id == 1 && arthur.didInsertCount == 1)
            try db.execute(sql: "INSERT INTO other DEFAULT VALUES; INSERT INTO other DEFAULT VALUES")
            var ignored = ConflictSample.IgnoringPlayer(id: nil, email: "arthur@example.com")
            try ignored.insert(db)
            #expect(ignored.didInsertCount == 1)
            #expect(ignored.id == 2)  // the last inserted rowid: a row of `other`

            // The ignore policy in the table definition.
            var plain = ConflictSample.IgnoringPlayer(id: nil, email: "arthur@example.com")
            try plain.insert(db, onConflict: .abort)
            #expect(plain.didInsertCount == 1)
            #expect(plain.id == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
        }
    }

    @Test("The deletions of the replace policy are not reported to transaction observers")
    func replaceDeletionsAreNotObserved() throws {
        let dbQueue = try inMemoryDatabase { db in
            try createEmailPlayerTable(db)
        }
        let observer = LoggingObserver(observing: "player")
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            var player = ConflictSample.Player(id: nil, email: "arthur@example.com")
            try player.insert(db)
            var other = ConflictSample.Player(id: nil, email: "arthur@example.com")
            try other.insert(db)  // replaces the first row
        }
        #expect(observer.log == ["change insert player 1", "change insert player 2", "willCommit", "didCommit"])
    }
}

// MARK: - The Implicit RowID Primary Key

/// A record that does not know the hidden rowid.
private enum HiddenRowID {
    struct Event: FetchableRecord, TableRecord, Identifiable {
        var id: Int64?
        var message: String?
        init(row: Row) {
            id = row[Column.rowID]  // nil: `SELECT *` does not select the rowid
            message = row["message"]
        }
    }

    struct Book: PersistableRecord, Identifiable {
        var id: Int64?
        var title: String
        func encode(to container: inout PersistenceContainer) {
            container["title"] = title
        }
    }
}

/// The three steps of "Exposing the RowID Column".
private enum ExposedRowID {
    struct Event: TableRecord {
        var id: Int64?
        var message: String
        var date: Date

        // GRDB 7 spelling of `[AllColumns(), Column.rowID]`.
        static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }
    }

    // When you subclass Record, you need an override:
    class Book: Record {
        var id: Int64?
        var title: String

        init(id: Int64? = nil, title: String) {
            self.id = id
            self.title = title
            super.init()
        }

        override class var databaseSelection: [any SQLSelectable] {
            [.allColumns, .rowID]
        }

        required init(row: Row) throws {
            id = row[Column.rowID]
            title = row["title"]
            try super.init(row: row)
        }

        override func encode(to container: inout PersistenceContainer) throws {
            container[Column.rowID] = id
            container["title"] = title
        }

        override func didInsert(_ inserted: InsertionSuccess) {
            super.didInsert(inserted)
            id = inserted.rowID
        }
    }
}

extension ExposedRowID.Event: FetchableRecord {
    init(row: Row) {
        id = row[Column.rowID]
        message = row["message"]
        date = row["date"]
    }
}

extension ExposedRowID.Event: MutablePersistableRecord {
    func encode(to container: inout PersistenceContainer) {
        container[Column.rowID] = id
        container["message"] = message
        container["date"] = date
    }

    // Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

@Suite("README Records chapter: The Implicit RowID Primary Key")
struct ReadmeImplicitRowIDTests {
    private func database() throws -> (DatabaseQueue, SQLLog) {
        try makeLoggedDatabase { db in
            // No explicit primary key
            try db.create(table: "event") { t in
                t.column("message", .text)
                t.column("date", .datetime)
            }

            // No way to define an explicit primary key
            try db.create(virtualTable: "book", using: FTS4()) { t in
                t.column("title")
                t.column("author")
                t.column("body")
            }
        }
    }

    @Test("The hidden rowid is not selected by SELECT *, and can be queried")
    func hiddenRowID() throws {
        let (dbQueue, _) = try database()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO event (message) VALUES ('foo')")
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM event") == ["message": "foo", "date": nil])
            let row = try Row.fetchOne(db, sql: "SELECT *, rowid FROM event WHERE rowid = 1")
            #expect(row == ["message": "foo", "date": nil, "rowid": 1])
        }
    }

    @Test("Methods use the hidden rowid of tables without explicit primary key")
    func methodsUseTheRowID() throws {
        let (dbQueue, log) = try database()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO event (message) VALUES ('foo')")
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby-Dick')")
            log.clear()

            // SELECT * FROM event WHERE rowid = 1
            let event = try HiddenRowID.Event.fetchOne(db, id: 1)

            // DELETE FROM book WHERE rowid = 1
            try HiddenRowID.Book.deleteOne(db, id: 1)

            #expect(event?.message == "foo")
            #expect(event?.id == nil)
            #expect(
                log.statements(.user) == [
                    #"SELECT * FROM "event" WHERE "rowid" = ?"#,
                    #"DELETE FROM "book" WHERE "rowid" = ?"#,
                ])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book") == 0)
        }
    }

    @Test("Without primary key: update throws, save inserts, exists is false")
    func recordsWithoutIdentity() throws {
        let (dbQueue, _) = try database()
        try dbQueue.write { db in
            let book = HiddenRowID.Book(id: nil, title: "Moby-Dick")
            try book.insert(db)
            #expect(throws: RecordError.self) { try book.update(db) }
            try book.save(db)
            #expect(try !book.exists(db))
            #expect(try String.fetchAll(db, sql: "SELECT title FROM book") == ["Moby-Dick", "Moby-Dick"])
        }
    }

    @Test("Exposing the rowid: selection, decoding, encoding")
    func exposedRowID() throws {
        typealias Event = ExposedRowID.Event
        let (dbQueue, log) = try database()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO event (message, date) VALUES ('hello', '2024-01-01 00:00:00.000')")
            log.clear()

            // SELECT *, rowid FROM event
            let events = try Event.fetchAll(db)
            #expect(log.statements(.user) == [#"SELECT *, "rowid" FROM "event""#])
            #expect(events.map(\.id) == [1])

            // Your fetched records will then know their ids:
            let fetched = try Event.fetchOne(db)!
            #expect(fetched.id == 1)  // some value

            var event = Event(message: "foo", date: Date())
            log.clear()

            // Insertion sets the record id:
            try event.insert(db)
            #expect(event.id == 2)  // some value
            #expect(log.last == #"INSERT INTO "event" ("rowid", "message", "date") VALUES (?,?,?)"#)

            // Record can be updated:
            event.message = "bar"
            try event.update(db)
            #expect(log.last == #"UPDATE "event" SET "message"=?, "date"=? WHERE "rowid"=?"#)

            // Record knows if it exists:
            #expect(try event.exists(db))  // true
            #expect(try Event.fetchOne(db, key: 2)?.message == "bar")
        }
    }

    @Test("Exposing the rowid of a full-text table with a Record subclass")
    func recordSubclassExposesTheRowID() throws {
        typealias Book = ExposedRowID.Book
        let (dbQueue, log) = try database()
        try dbQueue.write { db in
            let book = Book(title: "Moby-Dick")
            try book.insert(db)
            #expect(book.id == 1)
            log.clear()
            let books = try Book.fetchAll(db)
            #expect(log.statements(.user) == [#"SELECT *, "rowid" FROM "book""#])
            #expect(books.map(\.id) == [1])
            #expect(!books[0].hasDatabaseChanges)

            book.title = "Moby Dick"
            #expect(try book.updateChanges(db))
            #expect(log.last == #"UPDATE "book" SET "title"=? WHERE "rowid"=?"#)
            #expect(try book.exists(db))
            #expect(try String.fetchAll(db, sql: "SELECT title FROM book") == ["Moby Dick"])
        }
    }
}
