import Foundation
import Strata
import StrataTestSupport
import Testing

private struct JoinedBook: TableRecord {
    static let databaseTableName = "book"
    static let fts4 = hasOne(JoinedBookFTS4.self, using: ForeignKey(["rowid"], to: ["id"]))
    static let fts5 = hasOne(JoinedBookFTS5.self, using: ForeignKey(["rowid"], to: ["id"]))
}

private struct JoinedBookFTS4: TableRecord {
    static let databaseTableName = "book_ft4"
}

private struct JoinedBookFTS5: TableRecord {
    static let databaseTableName = "book_ft5"
}

/// Full-text matches on a joined full-text table.
struct FTSJoinedMatchTests {
    @Test("B44: matching on a joined association leaves the full-text table name unqualified")
    func joinedMatchIsUnqualified() throws {
        try inMemoryWrite(
            """
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT);
            CREATE VIRTUAL TABLE book_ft4 USING fts4(title);
            CREATE VIRTUAL TABLE book_ft5 USING fts5(title);
            INSERT INTO book VALUES (1, 'Moby Dick'), (2, 'Ulysses');
            INSERT INTO book_ft4 (rowid, title) SELECT id, title FROM book;
            INSERT INTO book_ft5 (rowid, title) SELECT id, title FROM book;
            """
        ) { db throws in
            let fts4 = JoinedBook.joining(required: JoinedBook.fts4.matching(FTS3Pattern(matchingAllTokensIn: "moby")))
            #expect(
                try requestSQL(db, fts4) == """
                    SELECT "book".* FROM "book" JOIN "book_ft4" ON ("book_ft4"."rowid" = "book"."id") \
                    AND ("book_ft4" MATCH ?)
                    """)
            #expect(try Row.fetchAll(db, fts4).map { $0["id"] as Int64 } == [1])
            let fts5 = JoinedBook.joining(
                required: JoinedBook.fts5.matching(FTS5Pattern(matchingAllTokensIn: "ulysses")))
            #expect(
                try requestSQL(db, fts5) == """
                    SELECT "book".* FROM "book" JOIN "book_ft5" ON ("book_ft5"."rowid" = "book"."id") \
                    AND ("book_ft5" MATCH ?)
                    """)
            #expect(try Row.fetchAll(db, fts5).map { $0["id"] as Int64 } == [2])
            // On the full-text table itself, the match is unchanged.
            #expect(
                try requestSQL(db, JoinedBookFTS4.matching(FTS3Pattern(matchingAllTokensIn: "moby")))
                    == #"SELECT * FROM "book_ft4" WHERE "book_ft4" MATCH ?"#)
        }
    }
}
