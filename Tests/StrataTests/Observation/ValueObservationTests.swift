import Foundation
import Strata
import StrataTestSupport
import Testing

private let countPlayers: @Sendable (Database) throws -> Int = { db in
    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
}

@Suite("ValueObservation")
struct ValueObservationTests {
    @Test("An initial value, then a value after each committed change")
    func initialAndChanges() async throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let recorder = ObservedValues<Int>()
        let fetchCount = LockedBox(0)
        let observation = ValueObservation.tracking(countPlayers)
            .handleEvents(willFetch: { fetchCount.withLock { $0 += 1 } })
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "test")), recordingIn: recorder)
        await recorder.waitForValues(1)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        await recorder.waitForValues(2)
        // Not notified: rolled back, and other tables.
        try? await dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
            throw ObserverTestError()
        }
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')") }
        try await dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('David')")
        }
        await recorder.waitForValues(3)
        #expect(recorder.values == [0, 1, 3])
        // A cancelled observation fetches no more: on a queue, a fetch would
        // have run before the write returns.
        let fetchesBeforeCancel = fetchCount.withLock { $0 }
        cancellable.cancel()
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Eve')") }
        #expect(fetchCount.withLock { $0 } == fetchesBeforeCancel)
        #expect(recorder.values == [0, 1, 3])
        #expect(recorder.errors.isEmpty)
    }

    @Test("values(in:) is an asynchronous sequence")
    func asyncValues() async throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let observation = ValueObservation.tracking { db in
            try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
        }
        // Each insert waits for the value before it.
        let progress = ObservedValues<Int>()
        let writer = Task {
            for (index, name) in ["Arthur", "Barbara"].enumerated() {
                #expect(await progress.wait { $0.count > index })
                try await dbQueue.write { db in
                    try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: [name])
                }
            }
        }
        var received: [[String]] = []
        for try await names in observation.values(in: dbQueue) {
            received.append(names)
            progress.record(names.count)
            if names.count == 2 { break }
        }
        try await writer.value
        #expect(received.first == [])
        #expect(received.last == ["Arthur", "Barbara"])
    }

    @Test("removeDuplicates and map")
    func removeDuplicatesAndMap() async throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let recorder = ObservedValues<String>()
        let observation = ValueObservation.tracking(countPlayers)
            .removeDuplicates()
            .map { "\($0) players" }
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: .global()), recordingIn: recorder)
        await recorder.waitForValues(1)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
        try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET name = 'Barbara'") }
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Craig')") }
        await recorder.waitForValues(3)
        #expect(recorder.values == ["0 players", "1 players", "2 players"])
        withExtendedLifetime(cancellable) {}
    }

    @Test("A fetch error is notified and stops the observation")
    func fetchError() async throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let recorder = ObservedValues<Int>()
        let fetchCount = LockedBox(0)
        let observation = ValueObservation.tracking { db -> Int in
            fetchCount.withLock { $0 += 1 }
            let count = try countPlayers(db)
            if count > 0 { throw ObserverTestError() }
            return count
        }
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "test")), recordingIn: recorder)
        await recorder.waitForValues(1)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        await recorder.waitForError()
        // Stopped: on a queue, a fetch would have run before the write returns.
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        #expect(fetchCount.withLock { $0 } == 2)
        #expect(recorder.values == [0])
        #expect(recorder.errors.count == 1)
        withExtendedLifetime(cancellable) {}

        // Bad SQL fails at once.
        let bad = ObservedValues<Int>()
        let badCancellable = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT * FROM missing") ?? 0 }
            .start(
                in: dbQueue, scheduling: .async(onQueue: .global()), onError: { bad.record(error: $0) },
                onChange: { bad.record($0) })
        await bad.waitForError()
        #expect(bad.errors.count == 1 && bad.values.isEmpty)
        withExtendedLifetime(badCancellable) {}
    }

    @Test("Tracked regions: explicit, constant, varying, registerAccess")
    func regions() async throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        // Explicit region: the fetch reads nothing, yet team changes notify.
        let explicit = ObservedValues<Int>()
        let c1 = ValueObservation.tracking(region: Table("team")) { _ in 42 }
            .start(
                in: dbQueue, scheduling: .async(onQueue: .global()), onError: { _ in },
                onChange: { explicit.record($0) })
        // registerAccess adds a region from inside the fetch.
        let registered = ObservedValues<Int>()
        let c2 = ValueObservation.tracking { db -> Int in
            try db.registerAccess(to: Table("team"))
            return 7
        }
        .start(
            in: dbQueue, scheduling: .async(onQueue: .global()), onError: { _ in }, onChange: { registered.record($0) })
        // Varying region: reads team only when a player exists.
        let varying = ObservedValues<Int>()
        let c3 = ValueObservation.tracking { db -> Int in
            let players = try countPlayers(db)
            guard players > 0 else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team")! + 100
        }
        .start(
            in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "v")), onError: { _ in },
            onChange: { varying.record($0) })
        await explicit.waitForValues(1)
        await registered.waitForValues(1)
        await varying.waitForValues(1)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')") }
        await explicit.waitForValues(2)
        await registered.waitForValues(2)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        await varying.waitForValues(2)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Blues')") }
        await varying.waitForValues(3)
        await explicit.waitForValues(3)
        await registered.waitForValues(3)
        #expect(explicit.values == [42, 42, 42])
        #expect(registered.values == [7, 7, 7])
        #expect(varying.values == [0, 101, 102])
        withExtendedLifetime((c1, c2, c3)) {}
    }

    @Test("handleEvents and print")
    func events() async throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let log = LockedBox<[String]>([])
        let stream = TextCollector()
        let recorder = ObservedValues<Int>()
        let observation = ValueObservation.tracking(countPlayers)
            .handleEvents(
                willStart: { log.withLock { $0.append("start") } },
                willFetch: { log.withLock { $0.append("fetch") } },
                willTrackRegion: { region in log.withLock { $0.append("region \(region)") } },
                databaseDidChange: { log.withLock { $0.append("change") } },
                didReceiveValue: { value in log.withLock { $0.append("value \(value)") } },
                didCancel: { log.withLock { $0.append("cancel") } }
            )
            .print("players", to: stream)
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "test")), recordingIn: recorder)
        await recorder.waitForValues(1)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        await recorder.waitForValues(2)
        cancellable.cancel()
        #expect(
            log.withLock { $0 } == [
                "start", "fetch", "region player(*)", "value 0", "change", "fetch", "value 1", "cancel",
            ])
        // One write per event, without newline.
        #expect(
            stream.pieces == [
                "players: start", "players: fetch", "players: tracked region: player(*)", "players: value: 0",
                "players: database did change", "players: fetch", "players: value: 1", "players: cancel",
            ])
    }

    @Test("didReceiveValue fires when the value is produced, before it is scheduled")
    func didReceiveValueBeforeScheduling() async throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let queue = DispatchQueue(label: "suspended")
        queue.suspend()
        let received = ObservedValues<Int>()
        let changes = ObservedValues<Int>()
        let cancellable = ValueObservation.tracking(countPlayers)
            .handleEvents(didReceiveValue: { received.record($0) })
            .start(
                in: dbQueue, scheduling: .async(onQueue: queue), recordingIn: changes)
        // The value is reported while the scheduler's queue is suspended.
        #expect(await received.wait { $0 == [0] })
        #expect(changes.values.isEmpty)
        queue.resume()
        #expect(await changes.wait { $0 == [0] })
        cancellable.cancel()
    }

    @Test("requiresWriteAccess lets fetches write")
    func writeAccess() async throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let recorder = ObservedValues<Int>()
        var observation = ValueObservation.tracking { db -> Int in
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS scratch (x)")
            return try countPlayers(db)
        }
        observation.requiresWriteAccess = true
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: .global()), recordingIn: recorder)
        await recorder.waitForValues(1)
        #expect(recorder.values == [0])
        #expect(recorder.errors.isEmpty)
        withExtendedLifetime(cancellable) {}
    }

    @Test("Observing a pool")
    func pool() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        let recorder = ObservedValues<Int>()
        let cancellable = ValueObservation.trackingConstantRegion(countPlayers)
            .start(
                in: dbPool, scheduling: .async(onQueue: DispatchQueue(label: "test")), recordingIn: recorder)
        await recorder.waitForValues(1)
        for _ in 0..<3 {
            try await dbPool.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        }
        await recorder.waitForValues(4)
        #expect(recorder.values == [0, 1, 2, 3])
        withExtendedLifetime(cancellable) {}
    }

    @Test("Many writers: values arrive in order, the last one is fresh")
    func stress() async throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let recorder = ObservedValues<Int>()
        let cancellable = ValueObservation.tracking(countPlayers)
            .start(
                in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "test")), recordingIn: recorder)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
                }
            }
            try await group.waitForAll()
        }
        #expect(await recorder.wait { $0.last == 50 })
        let values = recorder.values
        #expect(values.last == 50)
        #expect(values == values.sorted())
        withExtendedLifetime(cancellable) {}
    }
}

@Suite("ValueObservation on the main actor")
@MainActor
struct MainActorValueObservationTests {
    @Test(".immediate notifies the initial value before start returns")
    func immediate() async throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let values = ObservedValues<Int>()
        let cancellable = ValueObservation.tracking(countPlayers).start(
            in: dbQueue, scheduling: .immediate, onError: { _ in }, onChange: { values.record($0) })
        #expect(values.values == [0])
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        await values.waitForValues(2)
        #expect(values.values == [0, 1])
        cancellable.cancel()
    }

    @Test("By default values are notified asynchronously on the main actor")
    func mainActor() async throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let values = ObservedValues<Int>()
        let cancellable = ValueObservation.tracking(countPlayers).start(in: dbQueue) { error in
            Issue.record(error)
        } onChange: { count in
            MainActor.assertIsolated()
            values.record(count)
        }
        #expect(values.values.isEmpty)
        await values.waitForValues(1)
        #expect(values.values == [0])
        cancellable.cancel()
    }
}

@Suite("SharedValueObservation")
struct SharedValueObservationTests {
    @Test("Subscribers share one fetch per change, and get the last value")
    func shared() async throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let fetchCount = LockedBox(0)
        let shared = ValueObservation.tracking(countPlayers)
            .handleEvents(willFetch: { fetchCount.withLock { $0 += 1 } })
            .shared(in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "shared")))
        let first = ObservedValues<Int>()
        let c1 = shared.start(onError: { first.record(error: $0) }, onChange: { first.record($0) })
        await first.waitForValues(1)
        let second = ObservedValues<Int>()
        let c2 = shared.start(onError: { second.record(error: $0) }, onChange: { second.record($0) })
        await second.waitForValues(1)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        await first.waitForValues(2)
        await second.waitForValues(2)
        #expect(first.values == [0, 1])
        #expect(second.values == [0, 1])
        #expect(fetchCount.withLock { $0 } == 2)

        // .whileObserved: the observation stops with the last subscriber,
        // and starts again with the next one.
        c1.cancel()
        c2.cancel()
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        let third = ObservedValues<Int>()
        let c3 = shared.start(onError: { third.record(error: $0) }, onChange: { third.record($0) })
        await third.waitForValues(1)
        #expect(third.values == [2])
        #expect(fetchCount.withLock { $0 } == 3)
        withExtendedLifetime(c3) {}
    }

    @Test("values() of a shared observation")
    func values() async throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let shared = ValueObservation.tracking(countPlayers)
            .shared(
                in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "shared")), extent: .observationLifetime)
        // The insert waits for the initial value.
        let progress = ObservedValues<Int>()
        let writer = Task {
            #expect(await progress.wait { !$0.isEmpty })
            try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        }
        var received: [Int] = []
        for try await count in shared.values() {
            received.append(count)
            progress.record(count)
            if count == 1 { break }
        }
        try await writer.value
        #expect(received == [0, 1])
    }
}
