import Dispatch
import Foundation
import Testing

@testable import Strata
import StrataTestSupport

/// Observations on a pool whose next fetch is pending skip the changes of
/// the transactions that fetch will see anyway, and the pauses that let the
/// WAL restart while they read.
@Suite("Pending fetches and pauses of observations on a pool")
struct PendingFetchTests {
    private let queue = DispatchQueue(label: "PendingFetchTests")

    private func insertPlayer(_ dbPool: DatabasePool) throws {
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
    }

    private func checkpointCount(_ dbPool: DatabasePool) -> Int {
        dbPool.writeWithoutTransaction { db in db.checkpointPacer?.checkpointCount ?? -1 }
    }

    /// Starts an observation of the number of players, whose fetches run
    /// `workSQL` first (if any), pass `gate`, and call `didRead` with the
    /// count they read. Returns once the initial value is notified.
    private func startCount(
        in dbPool: DatabasePool, gate: HeldFetches, workSQL: String? = nil,
        didRead: @escaping @Sendable (Int) -> Void = { _ in }
    ) async -> (AnyDatabaseCancellable, ObservedValues<Int>) {
        let observation = ValueObservation.trackingConstantRegion { db -> Int in
            if let workSQL { try db.execute(sql: workSQL) }
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            didRead(count)
            gate.pass(count)
            return count
        }
        let values = ObservedValues<Int>()
        let cancellable = observation.start(
            in: dbPool, scheduling: .async(onQueue: queue), recordingIn: values)
        await values.waitForValues(1)
        return (cancellable, values)
    }

    /// Runs `body` with a new pool with a `player` table, and an observation
    /// of the number of players whose fetches pass `gate` (see
    /// ``startCount(in:gate:workSQL:didRead:)``); opens the gate and cancels
    /// the observation at the end.
    private func withHeldCount(
        didRead: @escaping @Sendable (Int) -> Void = { _ in },
        _ body: (DatabasePool, HeldFetches, ObservedValues<Int>) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        let gate = HeldFetches()
        defer { gate.open() }
        let (cancellable, values) = await startCount(in: dbPool, gate: gate, didRead: didRead)
        defer { cancellable.cancel() }
        try await body(dbPool, gate, values)
    }

    /// Inserts the first player, and returns once the fetch of this commit
    /// is held by the closed `gate`.
    private func holdFetchOfFirstPlayer(_ dbPool: DatabasePool, _ gate: HeldFetches) async throws {
        gate.close()
        try insertPlayer(dbPool)
        #expect(await gate.held.wait { $0 == [1] })
    }

    @Test(
        "A transaction that ran while a fetch was pending is fetched again when that fetch began before its commit",
        .timeLimit(.minutes(1)))
    func fetchThatBeginsBeforeTheCommit() async throws {
        let readTwo = DispatchSemaphore(value: 0)
        try await withHeldCount(didRead: { count in if count == 2 { readTwo.signal() } }) { dbPool, gate, values in
            try await holdFetchOfFirstPlayer(dbPool, gate)
            // The fetch of 1 is held: this commit makes the next fetch pending.
            try insertPlayer(dbPool)
            #expect(try insertWhileNextFetchBegins(dbPool, gate: gate, readTwo: readTwo))
            gate.open()
            // The commit of the third player is fetched all the same.
            #expect(await values.wait { $0.last == 3 })
            #expect(values.values == [0, 1, 2, 3])
        }
    }

    /// Inserts a player in a transaction that lets the next fetch begin
    /// before it commits. Returns whether that fetch read 2 players.
    private func insertWhileNextFetchBegins(
        _ dbPool: DatabasePool, gate: HeldFetches, readTwo: DispatchSemaphore
    ) throws -> Bool {
        try dbPool.write { db -> Bool in
            // The observer skips this statement: a fetch is pending.
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
            // Let the held fetch end, and hold the next one, which begins
            // its transaction now, before this commit: it reads 2.
            gate.open()
            gate.close()
            return readTwo.wait(timeout: .now() + 30) == .success
        }
    }

    @Test("A rolled back transaction that ran while a fetch was pending is not fetched", .timeLimit(.minutes(1)))
    func rollbackWhilePending() async throws {
        try await withHeldCount { dbPool, gate, values in
            try await holdFetchOfFirstPlayer(dbPool, gate)
            try insertPlayer(dbPool)
            try await dbPool.writeWithoutTransaction { db in
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
                    return .rollback
                }
            }
            gate.open()
            #expect(await values.wait { $0.last == 2 })
            try insertPlayer(dbPool)
            #expect(await values.wait { $0.last == 3 })
            #expect(values.values == [0, 1, 2, 3])
        }
    }

    @Test(
        "A pause waits for the open reads, checkpoints on the writer, then resumes the reads",
        .timeLimit(.minutes(1)))
    func pauseCheckpointsThenResumes() async throws {
        try await withHeldCount { dbPool, gate, values in
            let before = checkpointCount(dbPool)
            try await holdFetchOfFirstPlayer(dbPool, gate)
            dbPool.concurrentReadLanes.pauseForWALRestart()
            try insertPlayer(dbPool)
            // The read of 1 is still open: no checkpoint yet.
            #expect(checkpointCount(dbPool) == before)
            gate.open()
            // Once it has ended, the writer checkpoints, and the pending fetch
            // runs after.
            #expect(await values.wait { $0.last == 2 })
            #expect(checkpointCount(dbPool) > before)
            try insertPlayer(dbPool)
            #expect(await values.wait { $0.last == 3 })
        }
    }

    @Test("A pause ends a read transaction early: the reads it did not run yet read a later state")
    func pauseDefersTheRestOfABatch() async throws {
        // Registered first, the held observation reads first in the
        // transaction of each commit.
        try await withHeldCount { dbPool, gate, heldValues in
            let (cancellable, values) = await startCount(in: dbPool, gate: HeldFetches())
            defer { cancellable.cancel() }

            try await holdFetchOfFirstPlayer(dbPool, gate)
            dbPool.concurrentReadLanes.pauseForWALRestart()
            try insertPlayer(dbPool)
            gate.open()
            #expect(await heldValues.wait { $0.last == 2 })
            #expect(await values.wait { $0.last == 2 })
            // The second read of the commit's transaction did not run there.
            #expect(values.values == [0, 2])
        }
    }

    @Test("Observations that always read don't let the WAL grow without end", .timeLimit(.minutes(2)))
    func walStaysBounded() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        var cancellables: [AnyDatabaseCancellable] = []
        var observedValues: [ObservedValues<Int>] = []
        defer { for cancellable in cancellables { cancellable.cancel() } }
        // Some work in each fetch (about a millisecond), so that a read is
        // nearly always open.
        let workSQL =
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000) SELECT SUM(x) FROM c"
        for _ in 0..<3 {
            let (cancellable, values) = await startCount(in: dbPool, gate: HeldFetches(), workSQL: workSQL)
            cancellables.append(cancellable)
            observedValues.append(values)
        }
        // Each commit writes one page: 12,000 pages, 48 MB of WAL without
        // restarts.
        let commitCount = 12_000
        for _ in 0..<commitCount { try insertPlayer(dbPool) }
        for values in observedValues {
            #expect(await values.wait(timeout: .seconds(60)) { $0.last == commitCount })
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: dbPool.path + "-wal")
        let walSize = (attributes[.size] as? NSNumber)?.intValue ?? 0
        let pageSize = 4096 + 24
        #expect(walSize < 9000 * pageSize, "WAL of \(walSize / pageSize) pages")
    }
}

/// The connection holds the observers of observations until they are
/// cancelled: then nothing holds the pool any longer.
@Suite("Cancelled observations release their database")
struct CancelledObservationReleaseTests {
    @Test("A cancelled value observation lets its pool go")
    func valueObservation() async throws {
        let directory = try TemporaryDirectory()
        weak var weakPool: DatabasePool?
        do {
            let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
            weakPool = dbPool
            try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
            let values = ObservedValues<Int>()
            let cancellable = ValueObservation.trackingConstantRegion { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
            }.start(
                in: dbPool, scheduling: .async(onQueue: DispatchQueue(label: "observation")), recordingIn: values)
            try await dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            #expect(await values.wait { $0.last == 1 })
            cancellable.cancel()
            // After the removal of the observer, on the writer's queue.
            try await dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        }
        #expect(weakPool == nil)
    }

    @Test("A cancelled region observation lets its queue go")
    func regionObservation() throws {
        weak var weakQueue: DatabaseQueue?
        let changes = LockedBox(0)
        do {
            let dbQueue = try DatabaseQueue()
            weakQueue = dbQueue
            try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
            let cancellable = DatabaseRegionObservation(tracking: Table("t")).start(
                in: dbQueue, onError: { Issue.record($0) }, onChange: { _ in changes.withLock { $0 += 1 } })
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            cancellable.cancel()
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        }
        #expect(changes.withLock { $0 } == 1)
        #expect(weakQueue == nil)
    }
}
