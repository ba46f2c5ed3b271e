import Strata
import StrataTestSupport
import Testing

struct FTS4Tests {
    @Test func createTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(virtualTable: "document", using: FTS4()) { t in
                    t.column("content")
                }
                try db.create(virtualTable: "book", using: FTS4()) { t in
                    t.tokenizer = .porter
                    t.column("author")
                    t.column("title")
                    t.column("body")
                }
            }
            #expect(
                sql == [
                    #"CREATE VIRTUAL TABLE "document" USING fts4(content)"#,
                    #"CREATE VIRTUAL TABLE "book" USING fts4(tokenize=porter, author, title, body)"#,
                ])
            try db.execute(sql: "INSERT INTO book (author, title, body) VALUES ('Melville', 'Moby-Dick', 'Whales')")
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM book WHERE book MATCH 'whale'").count == 1)
        }
    }

    @Test func options() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            db.add(function: DatabaseFunction("zip", argumentCount: 1, pure: true) { $0[0] })
            db.add(function: DatabaseFunction("unzip", argumentCount: 1, pure: true) { $0[0] })
            let sql = try recordSQL(db, .changes) {
                try db.create(virtualTable: "document", using: FTS4()) { t in
                    t.content = ""
                    t.compress = "zip"
                    t.uncompress = "unzip"
                    t.prefixes = [2, 4]
                    t.column("content")
                    t.column("uuid").notIndexed()
                    t.column("lid").asLanguageId()
                }
            }
            #expect(
                sql == [
                    """
                    CREATE VIRTUAL TABLE "document" USING fts4(content, uuid, notindexed=uuid, languageid="lid", \
                    content="", compress="zip", uncompress="unzip", prefix="2,4")
                    """
                ])
        }
    }

    @Test func notIndexedAndLanguageId() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "document", using: FTS4()) { t in
                t.matchinfo = "fts3"
                t.column("content")
                t.column("uuid").notIndexed()
                t.column("lid").asLanguageId()
            }
            #expect(
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'document'")
                    == #"CREATE VIRTUAL TABLE "document" USING fts4(content, uuid, notindexed=uuid, languageid="lid", matchinfo="fts3")"#
            )
            try db.execute(sql: "INSERT INTO document (content, uuid, lid) VALUES ('foo', 'bar', 1)")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document WHERE document MATCH 'foo'") == 0)
            #expect(
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document WHERE document MATCH 'foo' AND lid = 1")
                    == 1)
            #expect(
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document WHERE document MATCH 'bar' AND lid = 1")
                    == 0)
        }
    }

    @Test func prefixes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "document", using: FTS4()) { t in
                t.prefixes = [2]
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO document (content) VALUES ('database')")
            let pattern = FTS3Pattern(matchingAllPrefixesIn: "dat")
            #expect(try FTSDocument.matching(pattern).fetchAll(db) == [FTSDocument(content: "database")])
        }
    }

    @Test func synchronizedTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("author", .text)
                t.column("title", .text)
                t.column("year", .integer)
            }
            try db.execute(sql: "INSERT INTO book (author, title, year) VALUES ('Herman Melville', 'Moby-Dick', 1851)")
            try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                t.synchronize(withTable: "book")
                t.column("author")
                t.column("title")
            }
            #expect(
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'book_ft'")
                    == #"CREATE VIRTUAL TABLE "book_ft" USING fts4(author, title, content="book")"#)
            let search = """
                SELECT book.* FROM book JOIN book_ft ON book_ft.rowid = book.rowid AND book_ft MATCH ?
                """
            func titles(_ pattern: FTS3Pattern?) throws -> [String] {
                try FTSBook.fetchAll(db, sql: search, arguments: [pattern]).map(\.title)
            }
            // Existing rows are indexed
            #expect(try titles(FTS3Pattern(matchingPhrase: "Moby Dick")) == ["Moby-Dick"])
            // Inserts
            try db.execute(
                sql: "INSERT INTO book (author, title, year) VALUES ('Jules Verne', 'Around the World', 1872)")
            #expect(try titles(FTS3Pattern(matchingAnyTokenIn: "verne")) == ["Around the World"])
            // Updates
            try db.execute(sql: "UPDATE book SET title = 'Twenty Thousand Leagues' WHERE author = 'Jules Verne'")
            #expect(try titles(FTS3Pattern(matchingAnyTokenIn: "world")) == [])
            #expect(try titles(FTS3Pattern(matchingAnyTokenIn: "leagues")) == ["Twenty Thousand Leagues"])
            // Deletes
            try db.execute(sql: "DELETE FROM book WHERE author = 'Jules Verne'")
            #expect(try titles(FTS3Pattern(matchingAnyTokenIn: "leagues")) == [])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_ft WHERE book_ft MATCH 'leagues'") == 0)
            // Full-text table content is read from the content table
            #expect(
                try Row.fetchAll(db, sql: "SELECT * FROM book_ft") == [
                    ["author": "Herman Melville", "title": "Moby-Dick"]
                ])
            // Content option reads the synchronized table
            _ = try db.makeStatement(sql: "SELECT * FROM book_ft")
        }
    }

    @Test func contentPropertyOfSynchronizedTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "book") { t in
                t.column("title", .text)
            }
            try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                t.synchronize(withTable: "book")
                #expect(t.content == "book")
                t.column("title")
            }
            try db.create(virtualTable: "other_ft", using: FTS4()) { t in
                t.synchronize(withTable: "book")
                t.content = nil
                t.column("title")
            }
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby-Dick')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_ft WHERE book_ft MATCH 'moby'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM other_ft") == 0)
        }
    }

    @Test func matchOnRegularTableIsAnError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
            }
            try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
            }
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby-Dick')")
            let pattern = FTS3Pattern(matchingAllTokensIn: "moby")
            let error = try #require(throws: DatabaseError.self) {
                try FTSBook.matching(pattern).fetchAll(db)
            }
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.sql == #"SELECT * FROM "book" WHERE "book" MATCH ?"#)
            // SQLite looks for a column named like the table
            #expect(error.message == "no such column: book")
        }
    }

    @Test func dropSynchronizationTriggers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
            }
            try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'") == 4)
            try db.drop(table: "book_ft")
            // The triggers prevent modifications of the content table
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby-Dick')")
            }
            try db.dropFTS4SynchronizationTriggers(forTable: "book_ft")
            try db.dropFTS4SynchronizationTriggers(forTable: "book")  // no trigger: no error
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'") == 0)
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby-Dick')")
            // A new full-text table can be created
            try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_ft WHERE book_ft MATCH 'moby'") == 1)
        }
    }

    @Test func contentlessTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "document", using: FTS4()) { t in
                t.content = ""
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO document (docid, content) VALUES (1, 'foo bar')")
            #expect(try Int64.fetchAll(db, sql: "SELECT docid FROM document WHERE document MATCH 'bar'") == [1])
        }
    }
}
