import Foundation
@testable import Strata
import StrataTestSupport
import Testing

/// Observations notice the commits of another process
/// (``Configuration/observesExternalChanges``).
@Suite("External changes: detection")
struct ExternalChangeDetectionTests {
    @Test("A value observation sees each commit of another process", arguments: ExternalChangeWriter.allCases)
    func valueObservationSeesEachCommit(_ kind: ExternalChangeWriter) async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try kind.open(directory)
        let (cancellable, values) = await startObservingPlayerCount(writer)
        try await insertPlayersFromAnotherProcess(path) { count in
            #expect(await values.wait { $0.last == count }, "\(kind): \(values.values)")
        }
        cancellable.cancel()
    }

    @Test("A region observation sees each commit of another process", arguments: ExternalChangeWriter.allCases)
    func regionObservationSeesEachCommit(_ kind: ExternalChangeWriter) async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try kind.open(directory)
        let changes = Waitable(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("player")).start(
            in: writer, onError: { Issue.record($0) }, onChange: { _ in changes.update { $0 += 1 } })
        try await insertPlayersFromAnotherProcess(path) { count in
            try await changes.wait("\(count) changes") { $0 >= count }
        }
        cancellable.cancel()
    }

    @Test("A shared observation sees each commit of another process", arguments: ExternalChangeWriter.allCases)
    func sharedObservationSeesEachCommit(_ kind: ExternalChangeWriter) async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try kind.open(directory)
        let shared = externalPlayerCount.shared(in: writer, scheduling: .async(onQueue: DispatchQueue(label: "shared")))
        let values = ObservedValues<Int>()
        let cancellable = shared.start(onError: { values.record(error: $0) }, onChange: { values.record($0) })
        await values.waitForValues(1)
        try await insertPlayersFromAnotherProcess(path) { count in
            #expect(await values.wait { $0.last == count }, "\(kind): \(values.values)")
        }
        cancellable.cancel()
    }

    @Test("An async sequence of values sees each commit of another process", arguments: ExternalChangeWriter.allCases)
    func asyncSequenceSeesEachCommit(_ kind: ExternalChangeWriter) async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try kind.open(directory)
        var iterator = externalPlayerCount.values(in: writer).makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        try await insertPlayersFromAnotherProcess(path) { count in
            var value = try await iterator.next()
            while let current = value, current < count { value = try await iterator.next() }
            #expect(value == count)
        }
    }

    @Test("The commits of the pool itself are not reported twice", arguments: ExternalChangeWriter.allCases)
    func ownCommitsAreNotReportedTwice(_ kind: ExternalChangeWriter) async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try kind.open(directory)
        let values = ObservedValues<Int>()
        let fetches = Counter()
        let cancellable = externalPlayerCount.handleEvents(willFetch: { fetches.increment() }).start(
            in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: values)
        await values.waitForValues(1)
        try await writer.write { db in try db.execute(sql: "INSERT INTO player (value) VALUES (1)") }
        await values.waitForValues(2)
        // The external commit comes after whatever the own commit caused:
        // one more value, and no repeated 1 before it.
        try await insertPlayerFromAnotherProcess(path)
        await values.waitForValues(3)
        #expect(values.values == [0, 1, 2])
        #expect(fetches.value == 3)
        cancellable.cancel()
    }

    @Test(
        "Nothing is reported when the other process only reads or rolls back", arguments: ExternalChangeWriter.allCases)
    func readsAndRollbacksAreNotReported(_ kind: ExternalChangeWriter) async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try kind.open(directory)
        let values = ObservedValues<Int>()
        let regionChanges = Waitable(0)
        let cancellable = externalPlayerCount.start(
            in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: values)
        let regionCancellable = DatabaseRegionObservation(tracking: Table("player")).start(
            in: writer, onError: { Issue.record($0) }, onChange: { _ in regionChanges.update { $0 += 1 } })
        await values.waitForValues(1)
        try await ExternalWriterProcess.run([
            "exec", path, "read:SELECT * FROM player", "rollback:INSERT INTO player (value) VALUES (1)",
            "read:SELECT COUNT(*) FROM player",
        ])
        // A commit afterwards: the only change reported.
        try await insertPlayerFromAnotherProcess(path)
        await values.waitForValues(2)
        #expect(values.values == [0, 1])
        try await regionChanges.wait("one change") { $0 >= 1 }
        #expect(regionChanges.value == 1)
        cancellable.cancel()
        regionCancellable.cancel()
    }

    @Test("An external commit is a change of every observed region, and removeDuplicates keeps values unrepeated")
    func externalCommitChangesEveryRegion() async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try ExternalChangeWriter.poolWAL.open(directory)
        let fetches = Counter()
        let values = ObservedValues<Int>()
        let deduplicated = ObservedValues<Int>()
        let cancellable = externalPlayerCount.handleEvents(willFetch: { fetches.increment() }).start(
            in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: values)
        let deduplicatedCancellable = externalPlayerCount.removeDuplicates().start(
            in: writer, scheduling: .async(onQueue: DispatchQueue(label: "deduplicated")), recordingIn: deduplicated)
        await values.waitForValues(1)
        await deduplicated.waitForValues(1)
        // Another table: SQLite does not say which table another process
        // changed, so the observation fetches again.
        try await insertPlayerFromAnotherProcess(path, table: "other")
        await values.waitForValues(2)
        #expect(values.values == [0, 0])
        // Then the observed table: the deduplicated observation skipped
        // the repeated 0.
        try await insertPlayerFromAnotherProcess(path)
        await values.waitForValues(3)
        await deduplicated.waitForValues(2)
        #expect(deduplicated.values == [0, 1])
        cancellable.cancel()
        deduplicatedCancellable.cancel()
    }

    @Test("Without file notifications, polling at the configured interval sees the commits of another process")
    func pollingFallback() async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try ExternalChangeWriter.poolWAL.open(directory) { configuration in
            configuration.externalChangeUsesFileNotifications = false
            configuration.externalChangePollingInterval = 0.02
        }
        let (cancellable, values) = await startObservingPlayerCount(writer)
        let usesNotifications = try await writer.writeWithoutTransaction { db in
            db.observationBroker?.externalChangeMonitor?.usesFileNotifications
        }
        #expect(usesNotifications == false)
        try await insertPlayerFromAnotherProcess(path)
        #expect(await values.wait { $0.last == 1 })
        cancellable.cancel()
    }

    @Test(
        "Right after the pool's own commits, while its watcher ignores writes, another process's commit is seen",
        arguments: ExternalChangeWriter.allCases)
    func commitAfterOwnWritesIsSeen(_ kind: ExternalChangeWriter) async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try kind.open(directory)
        let (cancellable, values) = await startObservingPlayerCount(writer)
        // Own commits: the watcher stops noticing writes until 50 ms after
        // the last one.
        for _ in 0..<20 {
            try await writer.write { db in try db.execute(sql: "INSERT INTO player (value) VALUES (0)") }
        }
        try await insertPlayerFromAnotherProcess(path)
        #expect(await values.wait { $0.last == 21 }, "\(kind): \(values.values)")
        cancellable.cancel()
    }

    @Test("On Linux, the commits of another process are noticed through inotify")
    func linuxUsesFileNotifications() async throws {
        #if os(Linux)
            let directory = try TemporaryDirectory()
            let (writer, _) = try ExternalChangeWriter.poolWAL.open(directory)
            let (cancellable, _) = await startObservingPlayerCount(writer)
            let usesNotifications = try await writer.writeWithoutTransaction { db in
                db.observationBroker?.externalChangeMonitor?.usesFileNotifications
            }
            #expect(usesNotifications == true)
            cancellable.cancel()
        #endif
    }

    @Test("Another pool on the same file in this process is an external writer")
    func anotherPoolInTheSameProcess() async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try ExternalChangeWriter.poolWAL.open(directory)
        let (cancellable, values) = await startObservingPlayerCount(writer)
        let otherPool = try DatabasePool(path: path)
        try await otherPool.write { db in try db.execute(sql: "INSERT INTO player (value) VALUES (1)") }
        #expect(await values.wait { $0.last == 1 })
        cancellable.cancel()
    }
}

/// The example of the article "Sharing a Database Between Processes" (and of
/// issue 31), across two processes.
@Suite("External changes: the article's example")
struct ExternalChangeArticleTests {
    @Test("The article's example: the loop gets the new count after another process inserts a player")
    func articleExample() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try makePlayerPool(directory).close()

        var config = Configuration()
        config.observesExternalChanges = true
        let dbPool = try DatabasePool(path: path, configuration: config)
        var counts: [Int] = []
        for try await count in ValueObservation.tracking(Player.fetchCount).values(in: dbPool) {
            counts.append(count)
            if count == 0 {
                try await ExternalWriterProcess.run(["exec", path, "write:INSERT INTO player (name) VALUES ('Arthur')"])
            } else {
                break
            }
        }
        #expect(counts == [0, 1])
    }
}
