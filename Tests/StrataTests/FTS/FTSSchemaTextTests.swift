import Foundation
import Strata
import StrataTestSupport
import Testing

// The SQL text of full-text tables: module arguments and the triggers of
// synchronized tables.

struct FTSSchemaTextTests {
    private func triggerSQL(_ db: Database, on table: String) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? ORDER BY name",
            arguments: [table])
    }

    @Test(arguments: SynchronizableFTSModule.allCases)
    func createTable(_ module: SynchronizableFTSModule) throws {
        try DatabaseQueue().write { db throws in
            let sql = try recordSQL(db, .changes) {
                try module.createTable(db, named: "document", columns: ["content"])
                try module.createTable(db, named: "book", columns: ["author", "title", "body"], porter: true)
            }
            let expected =
                switch module {
                case .fts4:
                    [
                        #"CREATE VIRTUAL TABLE "document" USING fts4(content)"#,
                        #"CREATE VIRTUAL TABLE "book" USING fts4(tokenize=porter, author, title, body)"#,
                    ]
                case .fts5:
                    [
                        #"CREATE VIRTUAL TABLE "document" USING fts5(content)"#,
                        #"CREATE VIRTUAL TABLE "book" USING fts5(author, title, body, tokenize='''porter''')"#,
                    ]
                }
            #expect(sql == expected)
            try db.execute(sql: "INSERT INTO book (author, title, body) VALUES ('Melville', 'Moby-Dick', 'Whales')")
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM book WHERE book MATCH 'whale'").count == 1)
        }
    }

    @Test("B24: FTS5 lists the columns before tokenize=, FTS4 quotes the languageid column")
    func moduleArguments() throws {
        try DatabaseQueue().write { db throws in
            let sql = try recordSQL(db, .changes) {
                try db.create(virtualTable: "documents", using: FTS5()) { t in
                    t.tokenizer = .ascii()
                    t.column("content")
                }
                try db.create(virtualTable: "books", using: FTS5()) { t in
                    t.column("title")
                    t.tokenizer = .porter(.unicode61(diacritics: .keep))
                    t.column("body")
                }
                try db.create(virtualTable: "notes", using: FTS4()) { t in
                    t.column("content")
                    t.column("lid").asLanguageId()
                }
            }
            #expect(
                sql == [
                    #"CREATE VIRTUAL TABLE "documents" USING fts5(content, tokenize='''ascii''')"#,
                    """
                    CREATE VIRTUAL TABLE "books" USING fts5(title, body, \
                    tokenize='''porter'' ''unicode61'' ''remove_diacritics'' ''0''')
                    """,
                    #"CREATE VIRTUAL TABLE "notes" USING fts4(content, languageid="lid")"#,
                ])
            try db.execute(sql: "INSERT INTO notes (content, lid) VALUES ('hello', 1)")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notes WHERE notes MATCH 'hello' AND lid = 1") == 1)
        }
    }

    @Test("B31: the INSERT of the synchronization triggers quotes docid and rowid")
    func synchronizationTriggers() throws {
        try DatabaseQueue().write { db throws in
            try db.create(table: "document") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("body", .text)
            }
            try db.create(table: "documents") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("content", .text)
            }
            try db.create(virtualTable: "document_ft", using: FTS4()) { t in
                t.synchronize(withTable: "document")
                t.column("body")
            }
            try db.create(virtualTable: "ft_documents", using: FTS5()) { t in
                t.synchronize(withTable: "documents")
                t.column("content")
            }
            let fts4Insert = #"INSERT INTO "document_ft"("docid", "body") VALUES(new."id", new."body");"#
            let fts4 = try triggerSQL(db, on: "document")
            #expect(fts4.count == 4)
            #expect(fts4.filter { $0.contains(fts4Insert) }.count == 2)
            let fts5Insert = #"INSERT INTO "ft_documents"("rowid", "content") VALUES (new."id", new."content");"#
            let fts5 = try triggerSQL(db, on: "documents")
            #expect(fts5.count == 3)
            #expect(fts5.filter { $0.contains(fts5Insert) }.count == 2)
            // The triggers still work.
            try db.execute(
                sql: "INSERT INTO document (body) VALUES ('hello'); INSERT INTO documents (content) VALUES ('hello')")
            try db.execute(sql: "UPDATE document SET body = 'world'; UPDATE documents SET content = 'world'")
            func count(_ table: String, _ pattern: String) throws -> Int? {
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(table) MATCH ?", arguments: [pattern])
            }
            #expect(try count("document_ft", "world") == 1)
            #expect(try count("ft_documents", "world") == 1)
            #expect(try count("ft_documents", "hello") == 0)
        }
    }
}
