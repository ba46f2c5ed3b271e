import Foundation
import Strata
import StrataTestSupport
import Testing

/// Starts `observation` in `dbQueue`, with no error expected, and counts the
/// changes it notifies.
private func startCounting(
    _ observation: DatabaseRegionObservation, in dbQueue: DatabaseQueue
) -> (AnyDatabaseCancellable, Counter) {
    let changes = Counter()
    let cancellable = observation.start(in: dbQueue) { _ in
    } onChange: { _ in
        changes.increment()
    }
    return (cancellable, changes)
}

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
        let (cancellable, changes) = startCounting(
            DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT score FROM player")), in: dbQueue)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 1)") }
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET name = 'Barbara'") }
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 2") }
        #expect(changes.value == 2)
        withExtendedLifetime(cancellable) {}
    }

    @Test("Several regions, the full database, and undetected changes")
    func severalRegions() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let (c1, tableChanges) = startCounting(
            DatabaseRegionObservation(tracking: Table("player"), Table("team")), in: dbQueue)
        let (c2, fullChanges) = startCounting(DatabaseRegionObservation(tracking: .fullDatabase), in: dbQueue)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')") }
        try dbQueue.write { db in try db.notifyChanges(in: Table("player")) }
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE other (id INTEGER PRIMARY KEY)") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO other DEFAULT VALUES") }
        #expect(tableChanges.value == 2)
        #expect(fullChanges.value == 3)
        withExtendedLifetime((c1, c2)) {}
    }

    @Test("Changes made in savepoints count once released, not once rolled back")
    func savepoints() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let (cancellable, changes) = startCounting(DatabaseRegionObservation(tracking: Table("player")), in: dbQueue)
        // The only change of the transaction is in a released savepoint.
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                return .commit
            }
        }
        #expect(changes.value == 1)
        // ... in a rolled back savepoint.
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
                return .rollback
            }
            try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')")
        }
        #expect(changes.value == 1)
        withExtendedLifetime(cancellable) {}
    }

    @Test("Deinitializing the cancellable stops the observation")
    func deinitStops() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let changes: Counter
        do {
            let cancellable: AnyDatabaseCancellable
            (cancellable, changes) = startCounting(DatabaseRegionObservation(tracking: Table("player")), in: dbQueue)
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
            withExtendedLifetime(cancellable) {}
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        #expect(changes.value == 1)
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
