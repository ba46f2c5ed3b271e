import Strata
import StrataTestSupport
import Testing

struct FTS4Tests {
    @Test func options() throws {
        try DatabaseQueue().write { db throws in
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
        try DatabaseQueue().write { db throws in
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
        try DatabaseQueue().write { db throws in
            try db.create(virtualTable: "document", using: FTS4()) { t in
                t.prefixes = [2]
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO document (content) VALUES ('database')")
            let pattern = FTS3Pattern(matchingAllPrefixesIn: "dat")
            #expect(try FTSDocument.matching(pattern).fetchAll(db) == [FTSDocument(content: "database")])
        }
    }

    @Test func contentlessTable() throws {
        try DatabaseQueue().write { db throws in
            try db.create(virtualTable: "document", using: FTS4()) { t in
                t.content = ""
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO document (docid, content) VALUES (1, 'foo bar')")
            #expect(try Int64.fetchAll(db, sql: "SELECT docid FROM document WHERE document MATCH 'bar'") == [1])
        }
    }
}
