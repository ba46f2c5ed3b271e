import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite("Pre-update events", .enabled(if: DatabasePreUpdateEvent.isSupported))
struct PreUpdateEventTests {
    final class PreUpdateObserver: TransactionObserver {
        var events: [DatabasePreUpdateEvent] = []
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseWillChange(with event: DatabasePreUpdateEvent) { events.append(event.copy()) }
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    /// A new observer of the pre-update events of `writer`.
    private func preUpdateObserver(of writer: some DatabaseWriter) -> PreUpdateObserver {
        let observer = PreUpdateObserver()
        writer.add(transactionObserver: observer)
        return observer
    }

    @Test("Initial and final values of inserted, updated and deleted rows")
    func values() throws {
        let dbQueue = try inMemoryDatabase("CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
        let observer = preUpdateObserver(of: dbQueue)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "UPDATE player SET name = 'Barbara', id = 2")
            try db.execute(sql: "DELETE FROM player")
        }
        let events = observer.events
        #expect(events.map(\.kind) == [.insert, .update, .delete])
        #expect(events[0].initialRowID == nil)
        #expect(events[0].finalRowID == 1)
        #expect(events[0].initialDatabaseValues == nil)
        #expect(events[0].finalDatabaseValues == [1.databaseValue, "Arthur".databaseValue])
        #expect(events[1].initialRowID == 1)
        #expect(events[1].finalRowID == 2)
        #expect(events[1].initialDatabaseValue(atIndex: 1) == "Arthur".databaseValue)
        #expect(events[1].finalDatabaseValue(atIndex: 1) == "Barbara".databaseValue)
        #expect(events[2].finalDatabaseValues == nil)
        #expect(events[2].initialDatabaseValues == [2.databaseValue, "Barbara".databaseValue])
        #expect(events.allSatisfy { $0.tableName == "player" && $0.databaseName == "main" && $0.count == 2 })
        #expect(events.allSatisfy { $0.depth == 0 })
    }

    /// Runs `body` with a pool that has a `player` table, and a value
    /// observation of it, whose observer the broker asks nothing about
    /// statements. The observation ends when `body` returns.
    private func withValueObservedPool(_ body: (DatabasePool) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
        }
        let observation = ValueObservation.trackingConstantRegion { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
        }
        let cancellable = observation.start(
            in: dbPool, scheduling: .async(onQueue: DispatchQueue(label: "values")), onError: { _ in },
            onChange: { _ in })
        defer { cancellable.cancel() }
        try body(dbPool)
    }

    @Test(
        "Beside value observations (which the broker asks nothing), application observers get pre-update events and veto commits"
    )
    func besideValueObservations() throws {
        try withValueObservedPool { dbPool in
            let observer = preUpdateObserver(of: dbPool)
            try dbPool.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
            #expect(observer.events.map(\.kind) == [.insert])

            let vetoing = ClosureObserver(willCommit: { throw ObserverTestError() })
            dbPool.add(transactionObserver: vetoing)
            #expect(throws: ObserverTestError.self) {
                try dbPool.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')") }
            }
            #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        }
    }

    @Test("Pre-update events stop and resume as application observers leave and come, beside a value observation")
    func applicationObserversComeAndGo() throws {
        try withValueObservedPool { dbPool in
            let first = preUpdateObserver(of: dbPool)
            try dbPool.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
            dbPool.remove(transactionObserver: first)
            // Only the value observation is left.
            try dbPool.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')") }
            let second = preUpdateObserver(of: dbPool)
            try dbPool.write { db in try db.execute(sql: "UPDATE player SET name = 'Craig' WHERE id = 1") }

            #expect(first.events.map(\.kind) == [.insert])
            #expect(first.events.map(\.finalRowID) == [1])
            #expect(second.events.map(\.kind) == [.update])
            #expect(second.events.first?.finalDatabaseValue(atIndex: 1) == "Craig".databaseValue)
        }
    }
}
