import Foundation
import Strata
import StrataTestSupport
import Testing

/// Associations that can't be resolved from the database schema.
struct AssociationErrorTests {
    private struct Author: TableRecord {
        static let databaseTableName = "author"
    }

    private struct Book: TableRecord {
        static let databaseTableName = "book"
        static let author = belongsTo(Author.self)
        static let coauthor = belongsTo(Author.self, key: "coauthor", using: ForeignKey(["coauthorId"]))
    }

    @Test func missingForeignKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE author (id INTEGER PRIMARY KEY);
                    CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER);
                    """)
            do {
                _ = try Row.fetchAll(db, Book.joining(required: Book.author))
                Issue.record("Expected an error")
            } catch let error as DatabaseError {
                #expect(error.message?.contains("Could not infer foreign key from book to author") == true)
            }
            // An explicit foreign key fixes it.
            let author = Book.belongsTo(Author.self, using: ForeignKey(["authorId"]))
            #expect(
                try requestSQL(db, Book.joining(required: author))
                    == #"SELECT "book".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId""#)
        }
    }

    @Test func ambiguousForeignKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE author (id INTEGER PRIMARY KEY);
                    CREATE TABLE book (
                      id INTEGER PRIMARY KEY,
                      authorId INTEGER REFERENCES author(id),
                      coauthorId INTEGER REFERENCES author(id));
                    """)
            do {
                _ = try Row.fetchAll(db, Book.including(optional: Book.author))
                Issue.record("Expected an error")
            } catch let error as DatabaseError {
                let message = error.message ?? ""
                #expect(message.contains("Ambiguous foreign key from book to author"))
                #expect(message.contains("[authorId]") && message.contains("[coauthorId]"))
            }
            // An explicit foreign key disambiguates.
            #expect(
                try requestSQL(db, Book.including(optional: Book.coauthor))
                    == #"SELECT "book".*, "author".* FROM "book" "#
                    + #"LEFT JOIN "author" ON "author"."id" = "book"."coauthorId""#)
        }
    }

    @Test func foreignKeyColumnCountMismatch() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE author (id INTEGER PRIMARY KEY);
                    CREATE TABLE book (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);
                    """)
            let author = Book.belongsTo(Author.self, using: ForeignKey(["a", "b"]))
            #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, Book.joining(required: author))
            }
        }
    }

    @Test func unknownColumnInJoin() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE author (id INTEGER PRIMARY KEY);
                    CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id));
                    """)
            #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, Book.joining(required: Book.author.filter(Column("missing") == 1)))
            }
        }
    }
}
