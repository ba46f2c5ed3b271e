import Foundation
import Strata
import StrataTestSupport
import Testing

/// Full-text tables synchronized with a content table whose INTEGER PRIMARY
/// KEY is not the hidden rowid, created twice with `ifNotExists`.
struct FTSSynchronizationTests {
    private func makeBooks(_ db: Database) throws {
        try db.create(table: "book") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("title", .text)
        }
        try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby-Dick')")
    }

    private func triggerSQL(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
    }

    @Test("FTS5: triggers use the content table's INTEGER PRIMARY KEY, content_rowid is declared")
    func fts5() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try makeBooks(db)
            for _ in 0..<2 {
                try db.create(virtualTable: "book_ft", ifNotExists: true, using: FTS5()) { t in
                    t.synchronize(withTable: "book")
                    t.column("title")
                }
            }
            let triggers = try triggerSQL(db)
            #expect(triggers.count == 3)
            #expect(triggers.contains { $0.contains(#"new."id""#) })
            #expect(!triggers.contains { $0.contains(#"new."rowid""#) })
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Around the World')")
            try db.execute(sql: "DELETE FROM book WHERE title = 'Moby-Dick'")
            #expect(try Int.fetchAll(db, sql: "SELECT rowid FROM book_ft WHERE book_ft MATCH 'world'") == [2])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_ft WHERE book_ft MATCH 'moby'") == 0)
        }
    }

    @Test("FTS4: triggers use the content table's INTEGER PRIMARY KEY")
    func fts4() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try makeBooks(db)
            for _ in 0..<2 {
                try db.create(virtualTable: "book_ft", ifNotExists: true, using: FTS4()) { t in
                    t.synchronize(withTable: "book")
                    t.column("title")
                }
            }
            let triggers = try triggerSQL(db)
            #expect(triggers.count == 4)
            #expect(triggers.contains { $0.contains(#"new."id""#) })
            try db.execute(sql: "UPDATE book SET title = 'Around the World'")
            #expect(try Int.fetchAll(db, sql: "SELECT docid FROM book_ft WHERE book_ft MATCH 'world'") == [1])
        }
    }

    @Test("Temporary virtual tables are created as temp.\"name\"")
    func temporary() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let sql = try recordSQL(db, .changes) {
                try db.create(virtualTable: "t", options: .temporary, using: FTS5()) { t in t.column("a") }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE temp."t" USING fts5(a)"#])
        }
    }
}
