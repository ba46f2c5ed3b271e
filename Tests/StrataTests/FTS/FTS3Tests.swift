import Strata
import StrataTestSupport
import Testing

struct FTS3Tests {
    @Test func createTable() throws {
        try DatabaseQueue().write { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(virtualTable: "document", using: FTS3()) { t in
                    t.column("content")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "document" USING fts3(content)"#])
            try db.execute(sql: "INSERT INTO document (content) VALUES ('SQLite is a database engine')")
            let count = try FTSDocument.matching(FTS3Pattern(rawPattern: "database")).fetchCount(db)
            #expect(count == 1)
        }
    }

    @Test func createTableOptions() throws {
        try DatabaseQueue().write { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(virtualTable: "a", options: [.ifNotExists, .temporary], using: FTS3()) { t in
                    t.column("content")
                }
                try db.create(virtualTable: "b", using: FTS3())
                try db.create(virtualTable: "c", using: FTS3()) { t in
                    t.tokenizer = .porter
                    t.column("author")
                    t.column("my title")
                }
            }
            #expect(
                sql == [
                    #"CREATE VIRTUAL TABLE IF NOT EXISTS temp."a" USING fts3(content)"#,
                    #"CREATE VIRTUAL TABLE "b" USING fts3"#,
                    #"CREATE VIRTUAL TABLE "c" USING fts3(tokenize=porter, author, "my title")"#,
                ])
            #expect(try db.columns(in: "c").map(\.name) == ["author", "my title"])
        }
    }

    /// The matching examples of the FTS3/FTS4 tokenizer table.
    @Test(arguments: [
        // content, query, simple, porter, unicode61
        ("Foo", "Foo", true, true, true),
        ("Foo", "FOO", true, true, true),
        ("Jérôme", "Jérôme", true, true, true),
        ("Jérôme", "JÉRÔME", false, false, true),
        ("Jérôme", "Jerome", false, false, true),
        ("Database", "Databases", false, true, false),
        ("Frustration", "Frustrated", false, true, false),
    ])
    func tokenizerMatches(content: String, query: String, simple: Bool, porter: Bool, unicode61: Bool) throws {
        for (tokenizer, expected) in [
            (FTS3TokenizerDescriptor.simple, simple), (.porter, porter), (.unicode61(), unicode61),
        ] {
            let matches = try ftsMatches(content, query, fts3Tokenizer: tokenizer)
            #expect(matches == expected, "\(content) \(query) \(tokenizer)")
        }
    }

    @Test func unicode61Diacritics() throws {
        func matches(_ tokenizer: FTS3TokenizerDescriptor, _ content: String, _ query: String) throws -> Bool {
            try ftsMatches(content, query, fts3Tokenizer: tokenizer, fts4: true)
        }
        #expect(try matches(.unicode61(), "Jérôme", "jerome"))
        #expect(try !matches(.unicode61(removeDiacritics: false), "Jérôme", "jerome"))
        #expect(try matches(.unicode61(removeDiacritics: false), "Jérôme", "JÉRÔME"))
        #expect(try !matches(.unicode61(diacritics: .keep), "Jérôme", "jerome"))
        #expect(try matches(.unicode61(diacritics: .remove), "Jérôme", "jerome"))
        #expect(try matches(.unicode61(separators: ["X"]), "fooXbar", "bar"))
        #expect(try !matches(.unicode61(), "fooXbar", "bar"))
        #expect(try matches(.unicode61(tokenCharacters: ["-"]), "foo-bar", "\"foo-bar\""))
        #expect(try !matches(.unicode61(tokenCharacters: ["-"]), "foo-bar", "bar"))
    }

    @Test func tokenize() throws {
        #expect(try FTS3.tokenize("SQLite database") == ["sqlite", "database"])
        #expect(try FTS3.tokenize("Gustave Doré") == ["gustave", "doré"])
        #expect(try FTS3.tokenize("Gustave Doré", withTokenizer: .simple) == ["gustave", "doré"])
        #expect(try FTS3.tokenize("Gustave Doré", withTokenizer: .unicode61()) == ["gustave", "dore"])
        #expect(
            try FTS3.tokenize("Gustave Doré", withTokenizer: .unicode61(diacritics: .keep)) == ["gustave", "doré"])
        #expect(try FTS3.tokenize("Databases frustrated", withTokenizer: .porter) == ["databas", "frustrat"])
        #expect(try FTS3.tokenize("foo-bar", withTokenizer: .unicode61(tokenCharacters: ["-"])) == ["foo-bar"])
        #expect(try FTS3.tokenize("fooXbar", withTokenizer: .unicode61(separators: ["X"])) == ["foo", "bar"])
        #expect(try FTS3.tokenize("") == [])
        #expect(try FTS3.tokenize("*") == [])
    }

    @Test func rowIDIsHidden() throws {
        try DatabaseQueue().write { db throws in
            try db.create(virtualTable: "document", using: FTS3()) { t in
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO document (rowid, content) VALUES (42, 'foo')")
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM document") == ["content": "foo"])
            #expect(try Row.fetchOne(db, sql: "SELECT rowid, * FROM document") == ["rowid": 42, "content": "foo"])
        }
    }
}
