import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite("DatabaseRegionObservation")
struct DatabaseRegionObservationTests {
    @Test("onChange runs after each commit that modified the region")
    func notifiesCommits() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let counts = LockedBox<[Int]>([])
        let observation = DatabaseRegionObservation(tracking: Table("player"))
        let cancellable = observation.start(in: dbQueue) { error in
            Issue.record(error)
        } onChange: { db in
            let count = try! Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            counts.withLock { $0.append(count) }
        }
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')") }
        try? dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
            throw ObserverTestError()
        }
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM player WHERE name = 'Arthur'") }
        #expect(counts.withLock { $0 } == [2, 1])
        cancellable.cancel()
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Dan')") }
        #expect(counts.withLock { $0 } == [2, 1])
    }

    @Test("Column regions ignore updates of other columns")
    func columns() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let changes = LockedBox(0)
        let observation = DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT score FROM player"))
        let cancellable = observation.start(in: dbQueue) { _ in
        } onChange: { _ in
            changes.withLock { $0 += 1 }
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 1)") }
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET name = 'Barbara'") }
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 2") }
        #expect(changes.withLock { $0 } == 2)
        withExtendedLifetime(cancellable) {}
    }

    @Test("Several regions, the full database, and undetected changes")
    func severalRegions() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let tableChanges = LockedBox(0)
        let fullChanges = LockedBox(0)
        let c1 = DatabaseRegionObservation(tracking: Table("player"), Table("team"))
            .start(in: dbQueue) { _ in
            } onChange: { _ in
                tableChanges.withLock { $0 += 1 }
            }
        let c2 = DatabaseRegionObservation(tracking: .fullDatabase)
            .start(in: dbQueue) { _ in
            } onChange: { _ in
                fullChanges.withLock { $0 += 1 }
            }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')") }
        try dbQueue.write { db in try db.notifyChanges(in: Table("player")) }
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE other (id INTEGER PRIMARY KEY)") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO other DEFAULT VALUES") }
        #expect(tableChanges.withLock { $0 } == 2)
        #expect(fullChanges.withLock { $0 } == 3)
        withExtendedLifetime((c1, c2)) {}
    }

    @Test("Changes made in savepoints count once released, not once rolled back")
    func savepoints() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let changes = LockedBox(0)
        let observation = DatabaseRegionObservation(tracking: Table("player"))
        let cancellable = observation.start(in: dbQueue) { _ in
        } onChange: { _ in
            changes.withLock { $0 += 1 }
        }
        // The only change of the transaction is in a released savepoint.
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                return .commit
            }
        }
        #expect(changes.withLock { $0 } == 1)
        // ... in a rolled back savepoint.
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
                return .rollback
            }
            try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')")
        }
        #expect(changes.withLock { $0 } == 1)
        withExtendedLifetime(cancellable) {}
    }

    @Test("Deinitializing the cancellable stops the observation")
    func deinitStops() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let changes = LockedBox(0)
        do {
            let cancellable = DatabaseRegionObservation(tracking: Table("player"))
                .start(in: dbQueue) { _ in
                } onChange: { _ in
                    changes.withLock { $0 += 1 }
                }
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
            withExtendedLifetime(cancellable) {}
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        #expect(changes.withLock { $0 } == 1)
    }

    @Test("A region that can't be computed reports an error")
    func regionError() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let errors = LockedBox(0)
        let cancellable = DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT * FROM missing"))
            .start(in: dbQueue) { _ in
                errors.withLock { $0 += 1 }
            } onChange: { _ in
            }
        #expect(errors.withLock { $0 } == 1)
        cancellable.cancel()
    }

    @Test("AnyDatabaseCancellable cancels once")
    func anyCancellable() {
        let count = LockedBox(0)
        do {
            let cancellable = AnyDatabaseCancellable { count.withLock { $0 += 1 } }
            cancellable.cancel()
            cancellable.cancel()
            let wrapper = AnyDatabaseCancellable(cancellable)
            wrapper.cancel()
        }
        #expect(count.withLock { $0 } == 1)
        do {
            _ = AnyDatabaseCancellable { count.withLock { $0 += 1 } }
        }
        #expect(count.withLock { $0 } == 2)
    }
}
