import Foundation
import Strata
import StrataTestSupport
import Testing

private struct Author: Codable, FetchableRecord, PersistableRecord {
    var id: Int64?
    var name: String
}

/// Persistence methods keep an INSERT statement per record type and
/// connection: closing the connection finalizes them, so that `close()`
/// succeeds after record inserts (it failed with "unable to close due to
/// unfinalized statements").
@Suite("Closing after record inserts")
struct CloseAfterRecordInsertsTests {
    @Test("A queue or a pool closes after inserting records, and stays closed", arguments: WriterKind.allCases)
    func closeAfterInserts(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.open(directory)
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            for index in 1...3 {
                try Author(id: nil, name: "author \(index)").insert(db)
            }
            try Author(id: 10, name: "replaced").insert(db, onConflict: .replace)
        }
        #expect(try writer.read { db in try Author.fetchCount(db) } == 4)
        try writer.close()
        #expect(throws: DatabaseError.self) { try writer.read { db in try Author.fetchCount(db) } }
    }
}
