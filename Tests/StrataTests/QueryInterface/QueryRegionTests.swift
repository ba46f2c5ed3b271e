import Foundation
import Strata
import StrataTestSupport
import Testing

/// What observations of query interface requests track (issue 17, item 16).
struct QueryRegionTests {
    private struct Parent: TableRecord {
        static let children = hasMany(Child.self)
    }

    private struct Child: TableRecord {}

    private func database() throws -> DatabaseQueue {
        try parentChildDatabase("CREATE TABLE Player (ID INTEGER PRIMARY KEY, Name TEXT);")
    }

    @Test func regionsOfRequests() throws {
        try database().read { db throws in
            let prefetching = try Parent.including(all: Parent.children).databaseRegion(db)
            #expect(prefetching.description == "child(id,parentId,score),parent(*)")
            #expect(try Parent.none().including(all: Parent.children).databaseRegion(db).isEmpty)
            #expect(try Parent.none().databaseRegion(db).isEmpty)
            let narrowed = try Parent.filter(Column("id") == 1 || Column("id") == 2).databaseRegion(db)
            #expect(narrowed.description == "parent(*)[1,2]")
            // Region descriptions keep the case of table and column names.
            #expect(try Table("Player").all().databaseRegion(db).description == "Player(ID,Name)")
        }
    }

    @Test @MainActor func observationOfPrefetchWithoutBaseRowNoticesChildren() async throws {
        let dbQueue = try database()
        let observation = ValueObservation.tracking { db in
            try Row.fetchAll(db, Parent.including(all: Parent.children)).map {
                $0.prefetchedRows["children"]?.count ?? 0
            }
        }
        let recorder = ObservedValues<[Int]>()
        let cancellable = observation.start(
            in: dbQueue, scheduling: .immediate, onError: { _ in }, onChange: recorder.record)
        #expect(recorder.values.count == 1)
        try await dbQueue.write { db in
            try db.execute(sql: "INSERT INTO child (id, parentId) VALUES (1, NULL)")
        }
        #expect(await recorder.wait { $0.count == 2 })
        cancellable.cancel()
    }
}
