import Strata
import Testing

/// Runs the samples of `Sources/Strata/Strata.docc/FullTextSearch.md`: each
/// ```swift block of the article is a piece of this file (`ArticleSampleTests`
/// checks it).
struct FullTextSearchGuideTests {
    struct Document: Codable, FetchableRecord, PersistableRecord {
        var title: String
        var body: String
    }

    /// The `document` table of the article, with its three documents.
    static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.tokenizer = .porter()
                t.column("title")
                t.column("body")
            }
            try Document(title: "Indexing text", body: "A full-text index maps each word to the documents that use it.")
                .insert(db)
            try Document(title: "Query planning", body: "SQLite chooses an index for each query and explains its plan.")
                .insert(db)
            try Document(title: "Sourdough bread", body: "Bread rises slowly when the dough is cold.").insert(db)
        }
        return dbQueue
    }

    @Test func schema() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Document.fetchCount(db) == 3)
            let third = try Row.fetchOne(db, sql: "SELECT rowid, title FROM document WHERE rowid = 3")
            #expect(third?["title"] == "Sourdough bread")
        }
    }

    @Test func patterns() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let query = "index documents"
            let allWords = FTS5Pattern(matchingAllTokensIn: query)  // index documents: both words
            let anyWord = FTS5Pattern(matchingAnyTokenIn: query)  // index OR documents: one of them is enough
            let phrase = FTS5Pattern(matchingPhrase: "full text index")  // "full text index": in this order
            let prefixes = FTS5Pattern(matchingAllPrefixesIn: "quer pla")  // quer* pla*: words that start so
            let start = FTS5Pattern(matchingPrefixPhrase: "query planning")  // ^"query planning": a column starts so
            let nothing = FTS5Pattern(matchingAllTokensIn: " * ")  // nil: no word
            #expect(allWords?.rawPattern == "index documents")
            #expect(anyWord?.rawPattern == "index OR documents")
            #expect(phrase?.rawPattern == #""full text index""#)
            #expect(prefixes?.rawPattern == "quer* pla*")
            #expect(start?.rawPattern == #"^"query planning""#)
            #expect(nothing == nil)
            #expect(try Document.matching(allWords).fetchAll(db).map(\.title) == ["Indexing text"])
            #expect(try Document.matching(phrase).fetchAll(db).map(\.title) == ["Indexing text"])
            #expect(try Document.matching(prefixes).fetchAll(db).map(\.title) == ["Query planning"])
            #expect(try Document.matching(start).fetchAll(db).map(\.title) == ["Query planning"])
            // Operators and punctuation typed by a user are words like the others.
            #expect(FTS5Pattern(matchingAllTokensIn: #""AND" OR (bread"#)?.rawPattern == "and or bread")
        }
    }

    @Test func searching() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let pattern = FTS5Pattern(matchingAllTokensIn: "index documents")
            let documents = try Document.matching(pattern).fetchAll(db)  // Indexing text
            let either = FTS5Pattern(matchingAnyTokenIn: "index documents")
            let anywhere = try Document.matching(either).fetchCount(db)  // 2
            let word = FTS5Pattern(matchingAllTokensIn: "index")!
            let inTitles = try Document.filter(Column("title").match(word)).fetchCount(db)  // 1: in the title column
            let empty = FTS5Pattern(matchingAllTokensIn: "?!")  // nil
            let noPattern = try Document.matching(empty).fetchCount(db)  // 0: a nil pattern matches no row
            #expect(documents.map(\.title) == ["Indexing text"])
            #expect(anywhere == 2)
            #expect(inTitles == 1)
            #expect(empty == nil)
            #expect(noPattern == 0)

            let titles = try db.makeFTS5Pattern(rawPattern: "title: (bread OR query)", forTable: "document")
            let titleCount = try Document.matching(titles).fetchCount(db)  // 2: Query planning, Sourdough bread
            do {
                _ = try db.makeFTS5Pattern(rawPattern: "missing: bread", forTable: "document")
            } catch let error as DatabaseError {
                print(error.message!)  // no such column: missing
            }
            let sql = "SELECT * FROM document WHERE document MATCH ?"
            let found = try Document.fetchAll(db, sql: sql, arguments: [pattern])  // Indexing text
            #expect(titleCount == 2)
            #expect(found.map(\.title) == ["Indexing text"])
            #expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "bread AND", forTable: "document")
            }
            let error = #expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "missing: bread", forTable: "document")
            }
            #expect(error?.message == "no such column: missing")
        }
    }

    @Test func ranking() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let pattern = FTS5Pattern(matchingAnyTokenIn: "index query")
            let ranked = try Document.matching(pattern).order(Column.rank).fetchAll(db)
            // Query planning (both words), then Indexing text
            let titleFirst = try Document.matching(pattern).order(sql: "bm25(document, 10.0, 1.0)").fetchAll(db)
            let marked = try Document.matching(pattern).order(Column.rank)
                .select(sql: "highlight(document, 1, '[', ']')", as: String.self)
                .fetchAll(db)
            // ["SQLite chooses an [index] for each [query] and explains its plan.", ...]
            #expect(ranked.map(\.title) == ["Query planning", "Indexing text"])
            #expect(titleFirst.map(\.title) == ["Query planning", "Indexing text"])
            #expect(marked.first == "SQLite chooses an [index] for each [query] and explains its plan.")
            #expect(marked.count == 2)
        }
    }

    @Test func tokenizers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let porter = try db.makeTokenizer(.porter(wrapping: .unicode61(diacritics: .remove)))
            let tokens = try porter.tokenize(document: "Crème brûlée, caramelized").map(\.token)
            // ["creme", "brule", "caramel"]
            #expect(tokens == ["creme", "brule", "caramel"])
            let unicode = try db.makeTokenizer(.unicode61())
            #expect(try unicode.tokenize(document: "ÉTÉ").map(\.token) == ["ete"])
            let ascii = try db.makeTokenizer(.ascii)
            #expect(try ascii.tokenize(document: "ÉTÉ Bread").map(\.token) == ["ÉtÉ", "bread"])
        }
    }

    @Test func synchronizedTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "note") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.column("body", .text).notNull()
                t.column("pinned", .boolean).notNull().defaults(to: false)
            }
            try db.create(virtualTable: "note_ft", using: FTS5()) { t in
                t.synchronize(withTable: "note")
                t.column("title")
                t.column("body")
            }

            let insert = "INSERT INTO note (title, body) VALUES (?, ?)"
            try db.execute(sql: insert, arguments: ["Groceries", "flour, eggs"])
            try db.execute(sql: insert, arguments: ["Garden", "plant tomatoes"])
            try db.execute(sql: "UPDATE note SET body = ? WHERE id = 1", arguments: ["flour, sugar"])  // reindexed

            let pattern = FTS5Pattern(matchingAnyTokenIn: "sugar eggs")
            let matchingIDs = Table("note_ft").select(Column.rowID).matching(pattern)
            let notes = try Table("note").filter(matchingIDs.contains(Column("id"))).fetchAll(db)  // [Row]
            // Groceries only: "eggs" left the index with the update

            let ranked = try Row.fetchAll(
                db,
                sql: """
                    SELECT note.* FROM note
                    JOIN note_ft ON note_ft.rowid = note.id
                    WHERE note_ft MATCH ?
                    ORDER BY note_ft.rank
                    """,
                arguments: [pattern])
            #expect(notes.map { $0["title"] as String } == ["Groceries"])
            #expect(ranked.map { $0["title"] as String } == ["Groceries"])
            try db.execute(sql: "DELETE FROM note WHERE id = 1")
            #expect(try Table("note_ft").matching(pattern).fetchCount(db) == 0)
            try db.drop(table: "note_ft")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: insert, arguments: ["Orphan", "the triggers remain"])
            }
            try db.dropFTS5SynchronizationTriggers(forTable: "note_ft")
            try db.execute(sql: insert, arguments: ["Later", "writes still work"])
        }
    }

    @Test func fts4() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "article", using: FTS4()) { t in
                t.tokenizer = .unicode61()
                t.column("headline")
            }
            try db.execute(sql: "INSERT INTO article (headline) VALUES (?)", arguments: ["Databases index everything"])

            let exact = FTS3Pattern(matchingAllTokensIn: "databases index")
            let stem = FTS3Pattern(matchingAllTokensIn: "database index")
            let exactCount = try Table("article").matching(exact).fetchCount(db)  // 1
            let stemCount = try Table("article").matching(stem).fetchCount(db)  // 0: unicode61 does not stem
            #expect(exact?.rawPattern == "databases index")
            #expect(stem != nil)
            #expect(exactCount == 1)
            #expect(stemCount == 0)
        }
    }
}
