import Foundation
import Strata
import StrataTestSupport
import Testing

/// Observations of full-text tables, whose rows SQLite reports as changes of
/// their shadow tables.
struct FTSObservationTests {
    @Test("A ValueObservation of an FTS4 table notices inserts, updates and deletes", arguments: ["fts4", "fts5"])
    func observeFullTextTable(module: String) async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE document USING \(module)(content)")
        }
        let observed = ObservedValues<Int>()
        let cancellable = observeRowCount(of: "document", in: dbQueue, queueLabel: "fts", recordingIn: observed)
        defer { cancellable.cancel() }
        #expect(await observed.wait { $0 == [0] })
        try await dbQueue.write { try $0.execute(sql: "INSERT INTO document VALUES ('SQLite')") }
        #expect(await observed.wait { $0 == [0, 1] })
        try await dbQueue.write { try $0.execute(sql: "INSERT INTO document VALUES ('GRDB')") }
        #expect(await observed.wait { $0 == [0, 1, 2] })
        try await dbQueue.write { try $0.execute(sql: "DELETE FROM document WHERE content = 'GRDB'") }
        #expect(await observed.wait { $0 == [0, 1, 2, 1] })
    }

    @Test("A DatabaseRegionObservation of an FTS4 table notices its changes")
    func regionObservation() throws {
        let dbQueue = try inMemoryDatabase(
            """
            CREATE VIRTUAL TABLE document USING fts4(content);
            CREATE TABLE other(a);
            """)
        let changes = Counter()
        let observation = DatabaseRegionObservation(tracking: Table("document"))
        let cancellable = observation.start(in: dbQueue, onError: { _ in }, onChange: { _ in changes.increment() })
        defer { cancellable.cancel() }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO document VALUES ('SQLite')") }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO other VALUES (1)") }
        #expect(changes.value == 1)
    }
}
