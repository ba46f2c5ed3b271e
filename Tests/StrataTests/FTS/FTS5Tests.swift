import Strata
import StrataTestSupport
import Testing

struct FTS5Tests {
    @Test func options() throws {
        try DatabaseQueue().write { db throws in
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

    @Test func porterWrappingComponents() {
        #expect(FTS5TokenizerDescriptor.porter(wrapping: .ascii()).components == ["porter", "ascii"])
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
            let matches = try ftsMatches(content, query, fts5Tokenizer: tokenizer)
            #expect(matches == expected, "\(content) \(query) \(tokenizer.components)")
        }
    }

    @Test func unicode61Options() throws {
        func matches(_ tokenizer: FTS5TokenizerDescriptor, _ content: String, _ query: String) throws -> Bool {
            try ftsMatches(content, query, fts5Tokenizer: tokenizer)
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

    @Test func rank() throws {
        try DatabaseQueue().write { db throws in
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
