import Foundation
import Strata
import StrataTestSupport
import Testing

// Strings from blobs: only valid UTF-8 converts through `fromDatabaseValue`;
// SQLite's own column conversion stays lossy.

struct BlobStringConversionTests {
    @Test("B04: a blob that is not valid UTF-8 does not convert to a String")
    func invalidUTF8BlobIsNotAString() throws {
        #expect(String.fromDatabaseValue(Data([0x80]).databaseValue) == nil)
        #expect(String.fromDatabaseValue(Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]).databaseValue) == nil)
        #expect(String.fromDatabaseValue(Data("é".utf8).databaseValue) == "é")
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT X'41FF42'"
            // The copied row decodes through the database value, and fails.
            let copied = try #require(try Row.fetchOne(db, sql: sql))
            #expect(throws: RowDecodingError.self) { try copied.decode(String.self, atIndex: 0) }
            // SQLite's conversion of the live column repairs the bytes.
            #expect(try String.fetchOne(db, sql: sql) == "A\u{FFFD}B")
            let cursor = try Row.fetchCursor(db, sql: sql)
            let live = try #require(try cursor.next())
            #expect(live[0] as String == "A\u{FFFD}B")
        }
    }
}
