import Foundation
import Strata
import StrataTestSupport
import Testing

struct URLTests {
    @Test func storesAbsoluteString() {
        let url = URL(string: "https://example.com/path?q=1#top")!
        #expect(url.databaseValue == "https://example.com/path?q=1#top".databaseValue)
        let relative = URL(string: "b/c", relativeTo: URL(string: "https://example.com/a/")!)!
        #expect(relative.databaseValue == "https://example.com/a/b/c".databaseValue)
        #expect(URL(fileURLWithPath: "/tmp/x.db").databaseValue == "file:///tmp/x.db".databaseValue)
    }

    @Test func decodesStrings() {
        #expect(URL.fromDatabaseValue("https://example.com".databaseValue) == URL(string: "https://example.com"))
        #expect(URL.fromDatabaseValue("file:///tmp/x.db".databaseValue) == URL(fileURLWithPath: "/tmp/x.db"))
    }

    @Test func emptyStringAndOtherValuesDoNotDecode() throws {
        #expect(URL.fromDatabaseValue("".databaseValue) == nil)
        #expect(URL.fromDatabaseValue(.null) == nil)
        #expect(URL.fromDatabaseValue(1.databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(throws: RowDecodingError.self) { try URL.fetchOne(db, sql: "SELECT ''") }
            let row = try Row.fetchOne(db, sql: "SELECT '' AS url")!
            #expect(throws: RowDecodingError.self) { try row.decode(URL.self, forColumn: "url") }
        }
    }

    @Test func documentationExample() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE link (url TEXT, verified BOOLEAN)")
            let url = URL(string: "https://github.com")!
            try db.execute(sql: "INSERT INTO link (url, verified) VALUES (?, ?)", arguments: [url, true])
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM link")
            while let row = try rows.next() {
                let fetchedURL: URL = row["url"]
                let verified: Bool = row["verified"]
                #expect(fetchedURL == url)
                #expect(verified)
            }
            #expect(try URL.fetchAll(db, sql: "SELECT url FROM link") == [url])
            #expect(try URL.fetchOne(db, sql: "SELECT url FROM link WHERE url = ?", arguments: [url]) == url)
        }
    }
}
