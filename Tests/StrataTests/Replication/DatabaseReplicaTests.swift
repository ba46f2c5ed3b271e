import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite("DatabaseReplica")
struct DatabaseReplicaTests {
    @Test("A replica reads the follower's file, and lets the follower apply changes while its connections are idle")
    func readsEachApply() async throws {
        let fixture = try ReplicaFixture()
        #expect(try fixture.replica.playerCount() == 3)
        // The pool stays open between reads: the follower must still get
        // its lock, and the next read must see the apply.
        #expect(fixture.replica.hasOpenConnections)
        try await fixture.insertAndApply(2)
        #expect(try fixture.replica.playerCount() == 5)
        try await fixture.insertAndApply(4)
        #expect(try await fixture.replica.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 9)
    }

    @Test("The follower waits for a running read, which sees one state from start to end")
    func readsAreIsolatedFromApplies() async throws {
        let fixture = try ReplicaFixture()
        let replica = fixture.replica
        try fixture.insertPlayers(5)
        let readStarted = Waitable(false)
        let finishRead = Waitable(false)
        let read = Task {
            try await replica.read { db -> (Int, Int) in
                let before = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0
                readStarted.update { $0 = true }
                // Blocks this reader until the test has seen the follower ask for the lock.
                let semaphore = DispatchSemaphore(value: 0)
                Task {
                    try? await finishRead.wait("the test lets the read end", timeout: .seconds(30)) { $0 }
                    semaphore.signal()
                }
                semaphore.wait()
                let after = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0
                return (before, after)
            }
        }
        try await readStarted.wait("the read started") { $0 }
        let follower = try fixture.startApplying()
        try await follower.waitForOutput("locking")
        finishRead.update { $0 = true }
        let (before, after) = try await read.value
        #expect(before == 3)
        #expect(after == 3)
        _ = try await follower.waitForExit()
        #expect(try replica.playerCount() == 8)
    }

    @Test(
        "A value observation in a replica notifies a fresh value after each apply; with the immediate scheduler, its initial value before start returns",
        arguments: [false, true])
    func observationSeesApplies(immediate: Bool) async throws {
        let fixture = try ReplicaFixture()
        let (values, cancellable) =
            immediate
            ? fixture.replica.observePlayerCount(scheduling: .immediate) : fixture.replica.observePlayerCount()
        if immediate {
            #expect(values.values == [3])
        }
        await values.waitForValues(1)
        try await fixture.insertAndApply(2)
        #expect(await values.wait { $0.last == 5 })
        try await fixture.insertAndApply(1)
        #expect(await values.wait { $0.last == 6 })
        #expect(values.values == [3, 5, 6])
        #expect(values.errors.isEmpty)
        cancellable.cancel()
    }

    @Test("An observation whose fetch fails notifies the error and stops")
    func observationError() async throws {
        let fixture = try ReplicaFixture()
        let (values, cancellable) = fixture.replica.observePlayerCount(sql: "SELECT COUNT(*) FROM missing")
        let error = await values.firstError()
        #expect((error as? DatabaseError)?.resultCode == .SQLITE_ERROR)
        #expect(values.values.isEmpty)
        cancellable.cancel()
    }

    @Test("A file that the follower restores again, under another inode, is read after")
    func replacedFile() async throws {
        let fixture = try ReplicaFixture()
        let (values, cancellable) = fixture.replica.observePlayerCount()
        await values.waitForValues(1)
        try fixture.insertPlayers(7)
        try fixture.checkpointPrimary()
        let copy = fixture.directory.path("restored.sqlite")
        try FileManager.default.copyItem(atPath: fixture.primary.path, toPath: copy)
        #expect(rename(copy, fixture.replicaPath) == 0)
        #expect(await values.wait { $0.last == 10 })
        #expect(try fixture.replica.playerCount() == 10)
        cancellable.cancel()
    }

    @Test("A replica is read-only, reentrant reads run on the same connection, and a closed replica throws")
    func readerContract() async throws {
        let fixture = try ReplicaFixture()
        let replica = fixture.replica
        #expect(replica.configuration.readonly)
        #expect(replica.path == fixture.replicaPath)
        #expect(throws: DatabaseError.self) {
            try replica.unsafeRead { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        }
        let nested = try await replica.read { _ in
            try replica.unsafeReentrantRead { db in try Int.fetchOne(db, sql: "SELECT 1") }
        }
        #expect(nested == 1)
        let asyncCount = Waitable<Int?>(nil)
        replica.asyncRead { result in
            let count = (try? result.get()).flatMap { db in try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
            asyncCount.update { $0 = count ?? -1 }
        }
        try await asyncCount.wait("the async read") { $0 != nil }
        #expect(asyncCount.value == 3)
        try replica.close()
        #expect(throws: DatabaseError.self) { try replica.playerCount() }
    }

    @Test("Opening a replica on a missing file throws")
    func missingFile() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: DatabaseError.self) { try DatabaseReplica(path: directory.path("missing.sqlite")) }
    }
}

@Suite("Read Replicas article")
struct ReadReplicasArticleTests {
    @Test("The article's example reads a replica and observes the follower's applies")
    func articleExample() async throws {
        // The follower's file has a player table of 3 rows.
        let fixture = try ReplicaFixture()

        // The article's code, with the fixture's path.
        let replica = try DatabaseReplica(path: fixture.replicaPath)
        let playerCount = try await replica.read { db in
            try Table("player").fetchCount(db)
        }
        #expect(playerCount == 3)

        let observation =
            ValueObservation
            .tracking { db in try Table("player").fetchCount(db) }
            .removeDuplicates()
        var counts: [Int] = []
        for try await count in observation.values(in: replica) {
            counts.append(count)
            if count == 3 {
                try await fixture.insertAndApply(1)
            } else {
                break
            }
        }
        #expect(counts == [3, 4])
    }
}
