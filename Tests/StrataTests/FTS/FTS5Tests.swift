import Strata
import StrataTestSupport
import Testing

struct FTS5Tests {
    @Test func createTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(virtualTable: "document", using: FTS5()) { t in
                    t.column("content")
                }
                try db.create(virtualTable: "book", using: FTS5()) { t in
                    t.tokenizer = .porter()
                    t.column("author")
                    t.column("title")
                    t.column("body")
                }
            }
            #expect(
                sql == [
                    #"CREATE VIRTUAL TABLE "document" USING fts5(content)"#,
                    #"CREATE VIRTUAL TABLE "book" USING fts5(author, title, body, tokenize='''porter''')"#,
                ])
            try db.execute(sql: "INSERT INTO book (author, title, body) VALUES ('Melville', 'Moby-Dick', 'Whales')")
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM book WHERE book MATCH 'whale'").count == 1)
        }
    }

    @Test func options() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "table") { t in
                t.primaryKey("id", .integer)
                t.column("content", .text)
                t.column("uuid", .text)
            }
            let sql = try recordSQL(db, .changes) {
                try db.create(virtualTable: "document", using: FTS5()) { t in
                    t.column("content")
                    t.column("uuid").notIndexed()
                    t.content = "table"
                    t.contentRowID = "id"
                    t.prefixes = [2, 4]
                    t.columnSize = 0
                    t.detail = "column"
                }
            }
            #expect(
                sql == [
                    """
                    CREATE VIRTUAL TABLE "document" USING fts5(content, uuid UNINDEXED, content='table', \
                    content_rowid='id', prefix='2 4', columnSize=0, detail=column)
                    """
                ])
            try db.execute(sql: #"INSERT INTO "table" (id, content, uuid) VALUES (7, 'foo bar', 'baz')"#)
            try db.execute(sql: "INSERT INTO document (document) VALUES ('rebuild')")
            #expect(try Int64.fetchAll(db, sql: "SELECT rowid FROM document WHERE document MATCH 'bar'") == [7])
            #expect(try Int64.fetchAll(db, sql: "SELECT rowid FROM document WHERE document MATCH 'baz'") == [])
            #expect(try String.fetchAll(db, sql: "SELECT uuid FROM document WHERE document MATCH 'fo*'") == ["baz"])
        }
    }

    @Test func tokenizerSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let tokenizers: [(FTS5TokenizerDescriptor, String)] = [
                (.unicode61(), "tokenize='''unicode61'''"),
                (.unicode61(removeDiacritics: false), "tokenize='''unicode61'' ''remove_diacritics'' ''0'''"),
                (.unicode61(diacritics: .keep), "tokenize='''unicode61'' ''remove_diacritics'' ''0'''"),
                (.unicode61(diacritics: .remove), "tokenize='''unicode61'' ''remove_diacritics'' ''2'''"),
                (.unicode61(categories: "L* N* Co"), "tokenize='''unicode61'' ''categories'' ''L* N* Co'''"),
                (
                    .unicode61(separators: ["X", "'"], tokenCharacters: ["-"]),
                    "tokenize='''unicode61'' ''separators'' ''''''X'' ''tokenchars'' ''-'''"
                ),
                (.ascii, "tokenize='''ascii'''"),
                (.ascii(), "tokenize='''ascii'''"),
                (
                    .ascii(separators: ["X"], tokenCharacters: ["_"]),
                    "tokenize='''ascii'' ''separators'' ''X'' ''tokenchars'' ''_'''"
                ),
                (.porter(), "tokenize='''porter'''"),
                (.porter(.ascii), "tokenize='''porter'' ''ascii'''"),
                (.porter(wrapping: .ascii()), "tokenize='''porter'' ''ascii'''"),
                (
                    .porter(.unicode61(removeDiacritics: false)),
                    "tokenize='''porter'' ''unicode61'' ''remove_diacritics'' ''0'''"
                ),
                (FTS5TokenizerDescriptor(components: ["trigram"]), "tokenize='''trigram'''"),
            ]
            for (index, (tokenizer, expected)) in tokenizers.enumerated() {
                let sql = try recordSQL(db, .changes) {
                    try db.create(virtualTable: "t\(index)", using: FTS5()) { t in
                        t.tokenizer = tokenizer
                        t.column("content")
                    }
                }
                #expect(sql == [#"CREATE VIRTUAL TABLE "t\#(index)" USING fts5(content, \#(expected))"#])
            }
            #expect(FTS5TokenizerDescriptor.porter(wrapping: .ascii()).components == ["porter", "ascii"])
        }
    }

    /// The matching examples of the FTS5 tokenizer table.
    @Test(arguments: [
        // content, query, ascii, unicode61, porter on ascii, porter on unicode61
        ("Foo", "Foo", true, true, true, true),
        ("Foo", "FOO", true, true, true, true),
        ("Jérôme", "Jérôme", true, true, true, true),
        ("Jérôme", "JÉRÔME", false, true, false, true),
        ("Jérôme", "Jerome", false, true, false, true),
        ("Database", "Databases", false, false, true, true),
        ("Frustration", "Frustrated", false, false, true, true),
    ])
    func tokenizerMatches(
        content: String, query: String, ascii: Bool, unicode61: Bool, porterAscii: Bool, porterUnicode61: Bool
    ) throws {
        for (tokenizer, expected) in [
            (FTS5TokenizerDescriptor.ascii(), ascii), (.unicode61(), unicode61),
            (.porter(wrapping: .ascii()), porterAscii), (.porter(), porterUnicode61),
        ] {
            let matches = try ftsMatches(content, query) { db in
                try db.create(virtualTable: "document", using: FTS5()) { t in
                    t.tokenizer = tokenizer
                    t.column("content")
                }
            }
            #expect(matches == expected, "\(content) \(query) \(tokenizer.components)")
        }
    }

    @Test func unicode61Options() throws {
        func matches(_ tokenizer: FTS5TokenizerDescriptor, _ content: String, _ query: String) throws -> Bool {
            try ftsMatches(content, query) { db in
                try db.create(virtualTable: "document", using: FTS5()) { t in
                    t.tokenizer = tokenizer
                    t.column("content")
                }
            }
        }
        #expect(try matches(.unicode61(), "Jérôme", "jerome"))
        #expect(try !matches(.unicode61(removeDiacritics: false), "Jérôme", "jerome"))
        #expect(try !matches(.unicode61(diacritics: .keep), "Jérôme", "jerome"))
        #expect(try matches(.unicode61(diacritics: .remove), "Jérôme", "jerome"))
        #expect(try matches(.porter(.unicode61(removeDiacritics: false)), "Jérôme databases", "JÉRÔME database"))
        #expect(try !matches(.porter(.unicode61(removeDiacritics: false)), "Jérôme", "jerome"))
        #expect(try matches(.unicode61(separators: ["X"]), "fooXbar", "bar"))
        #expect(try matches(.unicode61(tokenCharacters: ["-"]), "foo-bar", "\"foo-bar\""))
        #expect(try !matches(.unicode61(tokenCharacters: ["-"]), "foo-bar", "bar"))
        #expect(try matches(.ascii(separators: ["X"]), "fooXbar", "bar"))
        #expect(try !matches(.ascii(tokenCharacters: ["-"]), "foo-bar", "bar"))
        // Categories: numbers are not tokens
        #expect(try matches(.unicode61(), "abc 123", "123"))
        #expect(try !matches(.unicode61(categories: "L*"), "abc 123", "123"))
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
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.column("author")
                t.column("title")
            }
            #expect(
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'book_ft'")
                    == #"CREATE VIRTUAL TABLE "book_ft" USING fts5(author, title, content='book', content_rowid='id')"#)
            let search = """
                SELECT book.* FROM book JOIN book_ft ON book_ft.rowid = book.rowid AND book_ft MATCH ?
                """
            func titles(_ pattern: FTS5Pattern?) throws -> [String] {
                try FTSBook.fetchAll(db, sql: search, arguments: [pattern]).map(\.title)
            }
            #expect(try titles(FTS5Pattern(matchingPhrase: "Moby Dick")) == ["Moby-Dick"])
            try db.execute(
                sql: "INSERT INTO book (author, title, year) VALUES ('Jules Verne', 'Around the World', 1872)")
            #expect(try titles(FTS5Pattern(matchingAnyTokenIn: "verne")) == ["Around the World"])
            try db.execute(sql: "UPDATE book SET title = 'Twenty Thousand Leagues' WHERE author = 'Jules Verne'")
            #expect(try titles(FTS5Pattern(matchingAnyTokenIn: "world")) == [])
            #expect(try titles(FTS5Pattern(matchingAnyTokenIn: "leagues")) == ["Twenty Thousand Leagues"])
            try db.execute(sql: "DELETE FROM book WHERE author = 'Jules Verne'")
            #expect(try titles(FTS5Pattern(matchingAnyTokenIn: "leagues")) == [])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_ft WHERE book_ft MATCH 'leagues'") == 0)
            #expect(try db.execute(sql: "INSERT INTO book_ft(book_ft) VALUES ('integrity-check')") == ())
        }
    }

    @Test func synchronizedTableWithContentRowID() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
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

    @Test func dropSynchronizationTriggers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
            }
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'") == 3)
            try db.drop(table: "book_ft")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby-Dick')")
            }
            try db.dropFTS5SynchronizationTriggers(forTable: "book_ft")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'") == 0)
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby-Dick')")
        }
    }

    @Test func rank() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.column("content")
            }
            for content in [
                "SQLite is an engine", "database database database SQLite", "a database engine with SQLite inside",
            ] {
                try db.execute(sql: "INSERT INTO document (content) VALUES (?)", arguments: [content])
            }
            let pattern = FTS5Pattern(matchingAllTokensIn: "database")
            let request = FTSDocument.matching(pattern).order(Column.rank)
            #expect(
                try requestSQL(db, request) == #"SELECT * FROM "document" WHERE "document" MATCH ? ORDER BY "rank""#)
            let documents = try request.fetchAll(db)
            #expect(
                documents.map(\.content) == [
                    "database database database SQLite", "a database engine with SQLite inside",
                ])
            let sqlDocuments = try FTSDocument.fetchAll(
                db, sql: "SELECT * FROM document WHERE document MATCH ? ORDER BY rank", arguments: [pattern])
            #expect(sqlDocuments == documents)
        }
    }

    @Test func api() throws {
        let dbQueue = try DatabaseQueue()
        dbQueue.inDatabase { db in
            let api = FTS5.api(db)
            #expect(api.pointee.iVersion >= 2)
        }
    }
}
