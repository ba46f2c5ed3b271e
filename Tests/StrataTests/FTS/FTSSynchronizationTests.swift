import Foundation
import Strata
import StrataTestSupport
import Testing

/// Full-text tables of FTS4 and FTS5 synchronized with a content table: the
/// triggers that keep them up to date, and how they are dropped.
struct FTSSynchronizationTests {
    typealias Module = SynchronizableFTSModule

    /// Creates the `book` table, with an auto-incremented id and a title.
    private func makeBooks(_ db: Database) throws {
        try db.create(table: "book") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("title", .text)
        }
    }

    private func triggerSQL(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
    }

    private func count(_ db: Database, _ sql: String) throws -> Int? {
        try Int.fetchOne(db, sql: sql)
    }

    @Test(arguments: Module.allCases)
    func synchronizedTable(_ module: Module) throws {
        try DatabaseQueue().write { db throws in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("author", .text)
                t.column("title", .text)
                t.column("year", .integer)
            }
            try db.execute(sql: "INSERT INTO book (author, title, year) VALUES ('Herman Melville', 'Moby-Dick', 1851)")
            try module.createBookFT(db, columns: ["author", "title"])
            let createSQL =
                switch module {
                case .fts4: #"CREATE VIRTUAL TABLE "book_ft" USING fts4(author, title, content="book")"#
                case .fts5:
                    #"CREATE VIRTUAL TABLE "book_ft" USING fts5(author, title, content='book', content_rowid='id')"#
                }
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'book_ft'") == createSQL)
            let search = """
                SELECT book.* FROM book JOIN book_ft ON book_ft.rowid = book.rowid AND book_ft MATCH ?
                """
            func titles(_ pattern: (any DatabaseValueConvertible)?) throws -> [String] {
                try FTSBook.fetchAll(db, sql: search, arguments: [pattern]).map(\.title)
            }
            // Existing rows are indexed
            #expect(try titles(module.pattern(matchingPhrase: "Moby Dick")) == ["Moby-Dick"])
            // Inserts
            try db.execute(
                sql: "INSERT INTO book (author, title, year) VALUES ('Jules Verne', 'Around the World', 1872)")
            #expect(try titles(module.pattern(matchingAnyTokenIn: "verne")) == ["Around the World"])
            // Updates
            try db.execute(sql: "UPDATE book SET title = 'Twenty Thousand Leagues' WHERE author = 'Jules Verne'")
            #expect(try titles(module.pattern(matchingAnyTokenIn: "world")) == [])
            #expect(try titles(module.pattern(matchingAnyTokenIn: "leagues")) == ["Twenty Thousand Leagues"])
            // Deletes
            try db.execute(sql: "DELETE FROM book WHERE author = 'Jules Verne'")
            #expect(try titles(module.pattern(matchingAnyTokenIn: "leagues")) == [])
            #expect(try count(db, "SELECT COUNT(*) FROM book_ft WHERE book_ft MATCH 'leagues'") == 0)
            switch module {
            case .fts4:
                // Full-text table content is read from the content table
                #expect(
                    try Row.fetchAll(db, sql: "SELECT * FROM book_ft") == [
                        ["author": "Herman Melville", "title": "Moby-Dick"]
                    ])
                // Content option reads the synchronized table
                _ = try db.makeStatement(sql: "SELECT * FROM book_ft")
            case .fts5:
                #expect(try db.execute(sql: "INSERT INTO book_ft(book_ft) VALUES ('integrity-check')") == ())
            }
        }
    }

    @Test(arguments: Module.allCases)
    func dropSynchronizationTriggers(_ module: Module) throws {
        try DatabaseQueue().write { db throws in
            try makeBooks(db)
            try module.createBookFT(db)
            #expect(try count(db, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'") == module.triggerCount)
            try db.drop(table: "book_ft")
            // The triggers prevent modifications of the content table
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby-Dick')")
            }
            try module.dropSynchronizationTriggers(db, forTable: "book_ft")
            if module == .fts4 {
                try db.dropFTS4SynchronizationTriggers(forTable: "book")  // no trigger: no error
            }
            #expect(try count(db, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'") == 0)
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby-Dick')")
            if module == .fts4 {
                // A new full-text table can be created
                try module.createBookFT(db)
                #expect(try count(db, "SELECT COUNT(*) FROM book_ft WHERE book_ft MATCH 'moby'") == 1)
            }
        }
    }

    @Test func fts4ContentPropertyOfSynchronizedTable() throws {
        try DatabaseQueue().write { db throws in
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
            #expect(try count(db, "SELECT COUNT(*) FROM book_ft WHERE book_ft MATCH 'moby'") == 1)
            #expect(try count(db, "SELECT COUNT(*) FROM other_ft") == 0)
        }
    }

    @Test func fts4MatchOnRegularTableIsAnError() throws {
        try DatabaseQueue().write { db throws in
            try makeBooks(db)
            try Module.fts4.createBookFT(db)
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

    @Test func fts5SynchronizedTableWithContentRowID() throws {
        try DatabaseQueue().write { db throws in
            try db.create(table: "book") { t in
                t.primaryKey("code", .integer)
                t.column("title", .text)
            }
            try db.execute(sql: "INSERT INTO book (code, title) VALUES (12, 'Moby-Dick')")
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.contentRowID = "code"
                t.column("title")
            }
            try db.execute(sql: "INSERT INTO book (code, title) VALUES (13, 'Around the World')")
            try db.execute(sql: "UPDATE book SET title = 'Moby Dick' WHERE code = 12")
            #expect(try Int64.fetchAll(db, sql: "SELECT rowid FROM book_ft WHERE book_ft MATCH 'moby'") == [12])
            #expect(try Int64.fetchAll(db, sql: "SELECT rowid FROM book_ft WHERE book_ft MATCH 'world'") == [13])
            #expect(
                try String.fetchAll(db, sql: "SELECT title FROM book_ft WHERE book_ft MATCH 'dick'") == ["Moby Dick"])
        }
    }

    @Test(
        "Triggers use the content table's INTEGER PRIMARY KEY (FTS5 declares content_rowid)",
        arguments: Module.allCases)
    func triggersUseIntegerPrimaryKey(_ module: Module) throws {
        try DatabaseQueue().write { db throws in
            try makeBooks(db)
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby-Dick')")
            for _ in 0..<2 {
                try module.createBookFT(db, ifNotExists: true)
            }
            let triggers = try triggerSQL(db)
            #expect(triggers.count == module.triggerCount)
            #expect(triggers.contains { $0.contains(#"new."id""#) })
            switch module {
            case .fts4:
                try db.execute(sql: "UPDATE book SET title = 'Around the World'")
                #expect(try Int.fetchAll(db, sql: "SELECT docid FROM book_ft WHERE book_ft MATCH 'world'") == [1])
            case .fts5:
                #expect(!triggers.contains { $0.contains(#"new."rowid""#) })
                try db.execute(sql: "INSERT INTO book (title) VALUES ('Around the World')")
                try db.execute(sql: "DELETE FROM book WHERE title = 'Moby-Dick'")
                #expect(try Int.fetchAll(db, sql: "SELECT rowid FROM book_ft WHERE book_ft MATCH 'world'") == [2])
                #expect(try count(db, "SELECT COUNT(*) FROM book_ft WHERE book_ft MATCH 'moby'") == 0)
            }
        }
    }

    @Test("Temporary virtual tables are created as temp.\"name\"")
    func temporary() throws {
        try DatabaseQueue().write { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(virtualTable: "t", options: .temporary, using: FTS5()) { t in t.column("a") }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE temp."t" USING fts5(a)"#])
        }
    }
}

extension SynchronizableFTSModule {
    /// How many triggers keep a synchronized table up to date.
    fileprivate var triggerCount: Int { self == .fts4 ? 4 : 3 }

    /// Creates `book_ft`, synchronized with `book`, on `columns`.
    fileprivate func createBookFT(_ db: Database, ifNotExists: Bool = false, columns: [String] = ["title"]) throws {
        try createTable(db, named: "book_ft", ifNotExists: ifNotExists, columns: columns, synchronizedWith: "book")
    }

    /// A pattern that matches the rows that contain one of the tokens of `string`.
    fileprivate func pattern(matchingAnyTokenIn string: String) -> (any DatabaseValueConvertible)? {
        switch self {
        case .fts4: FTS3Pattern(matchingAnyTokenIn: string)
        case .fts5: FTS5Pattern(matchingAnyTokenIn: string)
        }
    }

    /// A pattern that matches the rows that contain the phrase `string`.
    fileprivate func pattern(matchingPhrase string: String) -> (any DatabaseValueConvertible)? {
        switch self {
        case .fts4: FTS3Pattern(matchingPhrase: string)
        case .fts5: FTS5Pattern(matchingPhrase: string)
        }
    }

    fileprivate func dropSynchronizationTriggers(_ db: Database, forTable table: String) throws {
        switch self {
        case .fts4: try db.dropFTS4SynchronizationTriggers(forTable: table)
        case .fts5: try db.dropFTS5SynchronizationTriggers(forTable: table)
        }
    }
}
