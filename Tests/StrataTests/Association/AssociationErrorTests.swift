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

    /// Runs `body` on a database with `author(id)` and `book(id, ...)`,
    /// whose other columns are `bookColumns`.
    private func withAuthorAndBook(_ bookColumns: String, _ body: (Database) throws -> Void) throws {
        try inMemoryWrite(
            """
            CREATE TABLE author (id INTEGER PRIMARY KEY);
            CREATE TABLE book (id INTEGER PRIMARY KEY, \(bookColumns));
            """, body)
    }

    @Test func missingForeignKey() throws {
        try withAuthorAndBook("authorId INTEGER") { db in
            let error = try #require(throws: DatabaseError.self) {
                try Row.fetchAll(db, Book.joining(required: Book.author))
            }
            #expect(error.message?.contains("Could not infer foreign key from book to author") == true)
            // An explicit foreign key fixes it.
            let author = Book.belongsTo(Author.self, using: ForeignKey(["authorId"]))
            #expect(
                try requestSQL(db, Book.joining(required: author))
                    == #"SELECT "book".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId""#)
        }
    }

    @Test func ambiguousForeignKey() throws {
        try withAuthorAndBook(
            "authorId INTEGER REFERENCES author(id), coauthorId INTEGER REFERENCES author(id)"
        ) { db throws in
            let error = try #require(throws: DatabaseError.self) {
                try Row.fetchAll(db, Book.including(optional: Book.author))
            }
            let message = error.message ?? ""
            #expect(message.contains("Ambiguous foreign key from book to author"))
            #expect(message.contains("[authorId]") && message.contains("[coauthorId]"))
            // An explicit foreign key disambiguates.
            #expect(
                try requestSQL(db, Book.including(optional: Book.coauthor))
                    == #"SELECT "book".*, "author".* FROM "book" "#
                    + #"LEFT JOIN "author" ON "author"."id" = "book"."coauthorId""#)
        }
    }

    @Test func foreignKeyColumnCountMismatch() throws {
        try withAuthorAndBook("a INTEGER, b INTEGER") { db in
            let author = Book.belongsTo(Author.self, using: ForeignKey(["a", "b"]))
            #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, Book.joining(required: author))
            }
        }
    }

    @Test func unknownColumnInJoin() throws {
        try withAuthorAndBook("authorId INTEGER REFERENCES author(id)") { db in
            #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, Book.joining(required: Book.author.filter(Column("missing") == 1)))
            }
        }
    }
}
