import Foundation
import Strata
import StrataTestSupport
import Testing

struct ForeignKeyCheckTests {
    func makeLibraryQueue() throws -> DatabaseQueue {
        var config = Configuration()
        config.foreignKeysEnabled = false
        return try inMemoryDatabase(
            """
            CREATE TABLE author (id INTEGER PRIMARY KEY);
            CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), name TEXT);
            CREATE TABLE review (id INTEGER PRIMARY KEY, bookId INTEGER REFERENCES book(id));
            """, configuration: config)
    }

    @Test func noViolation() throws {
        try makeLibraryQueue().write { db throws in
            try db.execute(sql: "INSERT INTO author (id) VALUES (1); INSERT INTO book VALUES (1, 1, 'Moby-Dick')")
            try db.checkForeignKeys()
            try db.checkForeignKeys(in: "book")
            #expect(try db.foreignKeyViolations().next() == nil)
        }
    }

    @Test func checkForeignKeysThrowsDetailedError() throws {
        try makeLibraryQueue().write { db throws in
            try db.execute(sql: "INSERT INTO book (id, authorId, name) VALUES (1, 2, 'Moby-Dick')")
            let error = try #require(throws: DatabaseError.self) { try db.checkForeignKeys(in: "book") }
            #expect(error.resultCode == .SQLITE_CONSTRAINT)
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(
                error.description == """
                    SQLite error 19: FOREIGN KEY constraint violation - from book(authorId) to author(id), \
                    in [id:1 authorId:2 name:"Moby-Dick"]
                    """)
            #expect(throws: DatabaseError.self) { try db.checkForeignKeys() }
            try db.checkForeignKeys(in: "review")
        }
    }

    @Test func violationCursor() throws {
        try makeLibraryQueue().write { db throws in
            try db.execute(
                sql: """
                    INSERT INTO book (id, authorId, name) VALUES (1, 2, 'Moby-Dick');
                    INSERT INTO review (id, bookId) VALUES (3, 4);
                    """)
            let violations = try Array(db.foreignKeyViolations())
            #expect(violations.count == 2)
            let bookViolations = try Array(db.foreignKeyViolations(in: "book"))
            #expect(bookViolations.count == 1)
            let violation = bookViolations[0]
            #expect(violation.originTable == "book")
            #expect(violation.originRowID == 1)
            #expect(violation.destinationTable == "author")
            #expect(violation.foreignKeyId == 0)
            #expect(violation.description == "FOREIGN KEY constraint violation - from book to author, in rowid 1")
            #expect(
                try violation.failureDescription(db)
                    == "FOREIGN KEY constraint violation - from book(authorId) to author(id), "
                    + "in [id:1 authorId:2 name:\"Moby-Dick\"]")
            #expect(violation.databaseError(db).extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        }
    }
}
