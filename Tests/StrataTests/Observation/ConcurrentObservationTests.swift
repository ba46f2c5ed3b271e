import Dispatch
import Foundation
import Strata
import StrataTestSupport
import Testing

/// A fetch of an observation: the value, and the connection that fetched it.
struct ObservedFetch: Sendable, Equatable {
    var count: Int
    var connection: String

    var isOnReader: Bool { connection.contains(".reader.") }
    var isOnWriter: Bool { connection.hasSuffix(".writer") }
}

private func makeObservedPool(_ directory: TemporaryDirectory, maximumReaderCount: Int = 5) throws -> DatabasePool {
    let dbPool = try makePool(directory, maximumReaderCount: maximumReaderCount)
    try dbPool.write { db in try db.execute(sql: playerAndTeamTablesSQL) }
    return dbPool
}

/// Runs `body` with a new observed pool and a gate for its fetches: held
/// fetches never outlive the test, even when it fails early.
private func withHeldFetches(
    maximumReaderCount: Int = 5, _ body: (DatabasePool, HeldFetches) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    let dbPool = try makeObservedPool(directory, maximumReaderCount: maximumReaderCount)
    let gate = HeldFetches()
    defer { gate.open() }
    try await body(dbPool, gate)
}

private func insertPlayer(_ writer: some DatabaseWriter) throws {
    try writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
}

private func playerCount(_ reader: some DatabaseReader) throws -> Int {
    try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
}

/// How a test builds its observation of the number of players.
enum PlayerCountTracking: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case trackingConstantRegion
    case trackingRegions
    case tracking
    case trackingRegionsWithWriteAccess

    var testDescription: String { rawValue }

    func observation(
        gate: HeldFetches? = nil, fetch: @escaping @Sendable (Database) throws -> Void = { _ in }
    ) -> ValueObservation<ValueReducers.Fetch<ObservedFetch>> {
        let body: @Sendable (Database) throws -> ObservedFetch = { db in
            try fetch(db)
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            gate?.pass(count)
            return ObservedFetch(count: count, connection: db.description)
        }
        switch self {
        case .trackingConstantRegion:
            return ValueObservation.trackingConstantRegion(body)
        case .trackingRegions:
            return ValueObservation.tracking(regions: [Table("player")], fetch: body)
        case .tracking:
            return ValueObservation.tracking(body)
        case .trackingRegionsWithWriteAccess:
            var observation = ValueObservation.tracking(regions: [Table("player")], fetch: body)
            observation.requiresWriteAccess = true
            return observation
        }
    }

    /// Whether the seeds promise fetches on readers, on a pool.
    var fetchesOnReaders: Bool {
        switch self {
        case .trackingConstantRegion, .trackingRegions: return true
        case .tracking, .trackingRegionsWithWriteAccess: return false
        }
    }
}

@Suite("Observations on a pool fetch on readers, concurrently with writes")
struct ConcurrentObservationTests {
    private let queue = DispatchQueue(label: "ConcurrentObservationTests")

    private func start(
        _ observation: ValueObservation<ValueReducers.Fetch<ObservedFetch>>, in writer: some DatabaseWriter
    ) -> (AnyDatabaseCancellable, ObservedValues<ObservedFetch>) {
        let values = ObservedValues<ObservedFetch>()
        let cancellable = observation.start(
            in: writer, scheduling: .async(onQueue: queue), recordingIn: values)
        return (cancellable, values)
    }

    @Test(
        "Fresh values are fetched on readers for constant regions, on the writer otherwise",
        arguments: PlayerCountTracking.allCases)
    func fetchingConnection(_ tracking: PlayerCountTracking) async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeObservedPool(directory)
        let (cancellable, values) = start(tracking.observation(), in: dbPool)
        defer { cancellable.cancel() }
        #expect(await values.wait { $0.count == 1 })
        try insertPlayer(dbPool)
        #expect(await values.wait { $0.last?.count == 1 })
        let fresh = try #require(values.values.last)
        if tracking.fetchesOnReaders {
            #expect(fresh.isOnReader, "\(fresh.connection)")
        } else {
            #expect(fresh.isOnWriter, "\(fresh.connection)")
        }
    }

    @Test("A pool wrapped in AnyDatabaseWriter fetches on its readers too")
    func typeErasedPool() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeObservedPool(directory)
        let writer = AnyDatabaseWriter(AnyDatabaseWriter(dbPool))
        let (cancellable, values) = start(PlayerCountTracking.trackingConstantRegion.observation(), in: writer)
        defer { cancellable.cancel() }
        #expect(await values.wait { $0.count == 1 })
        try insertPlayer(writer)
        #expect(await values.wait { $0.last?.count == 1 })
        let fresh = try #require(values.values.last)
        #expect(fresh.isOnReader, "\(fresh.connection)")
    }

    @Test("A database queue fetches on its only connection", arguments: PlayerCountTracking.allCases)
    func queueFetchesOnItsConnection(_ tracking: PlayerCountTracking) async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        let (cancellable, values) = start(tracking.observation(), in: dbQueue)
        defer { cancellable.cancel() }
        #expect(await values.wait { $0.count == 1 })
        try insertPlayer(dbQueue)
        #expect(await values.wait { $0.last?.count == 1 })
        #expect(values.values.allSatisfy { !$0.isOnReader && !$0.isOnWriter }, "\(values.values.map(\.connection))")
    }

    @Test("Fetches on readers see the state right after the commit that triggered them")
    func fetchSeesItsCommit() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeObservedPool(directory)
        var observations: [(AnyDatabaseCancellable, ObservedValues<ObservedFetch>)] = []
        for tracking in [PlayerCountTracking.trackingConstantRegion, .trackingRegions, .trackingConstantRegion] {
            observations.append(start(tracking.observation(), in: dbPool))
        }
        defer { for (cancellable, _) in observations { cancellable.cancel() } }
        for (_, values) in observations {
            #expect(await values.wait { $0.count == 1 })
        }
        // Two commits in one access: the writer waits until the fetches of
        // the first one have begun their read, so that the second is not seen.
        try await dbPool.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
        }
        for (_, values) in observations {
            #expect(await values.wait { $0.last?.count == 2 })
            #expect(values.values.map(\.count) == [0, 1, 2])
        }
    }

    @Test("A slow fetch does not hold the writer; the commits it misses are coalesced into one more fetch")
    func slowFetchDoesNotHoldWriter() async throws {
        try await withHeldFetches { dbPool, gate in
            let observation = PlayerCountTracking.trackingConstantRegion.observation(gate: gate)
            let (cancellable, values) = start(observation, in: dbPool)
            defer { cancellable.cancel() }
            #expect(await values.wait { $0.count == 1 })
            gate.close()
            try insertPlayer(dbPool)
            #expect(await gate.held.wait { $0 == [1] })
            // The fetch of count 1 is held: writes go on.
            for _ in 0..<20 { try insertPlayer(dbPool) }
            #expect(try playerCount(dbPool) == 21)
            #expect(values.values.map(\.count) == [0])
            gate.open()
            #expect(await values.wait { $0.last?.count == 21 })
            #expect(values.values.map(\.count) == [0, 1, 21])
        }
    }

    @Test("Many slow observations do not hold the writer either")
    func manySlowObservations() async throws {
        try await withHeldFetches(maximumReaderCount: 2) { dbPool, gate in
            var observations: [(AnyDatabaseCancellable, ObservedValues<ObservedFetch>)] = []
            for index in 0..<8 {
                let tracking: PlayerCountTracking = index.isMultiple(of: 2) ? .trackingConstantRegion : .trackingRegions
                observations.append(start(tracking.observation(gate: gate), in: dbPool))
            }
            defer { for (cancellable, _) in observations { cancellable.cancel() } }
            for (_, values) in observations {
                #expect(await values.wait { $0.count == 1 })
            }
            gate.close()
            try insertPlayer(dbPool)
            #expect(await gate.held.wait { !$0.isEmpty })
            // At least one fetch is held, the others wait for a lane or a reader.
            for _ in 0..<20 { try insertPlayer(dbPool) }
            // Reads of the application still get a reader.
            gate.open()
            for (_, values) in observations {
                #expect(await values.wait { $0.last?.count == 21 })
                // At most: the initial value, the state of the first commit, and
                // one more fetch for the rest.
                #expect(values.values.count <= 3)
            }
        }
    }

    @Test("A cancelled observation stops fetching, even with a fetch held on a reader")
    func cancellationDuringFetch() async throws {
        try await withHeldFetches { dbPool, gate in
            let fetches = ObservedValues<Int>()
            let observation = PlayerCountTracking.trackingConstantRegion.observation(gate: gate) { _ in
                fetches.record(0)
            }
            let (cancellable, values) = start(observation, in: dbPool)
            #expect(await values.wait { $0.count == 1 })
            gate.close()
            try insertPlayer(dbPool)
            #expect(await gate.held.wait { $0 == [1] })
            try insertPlayer(dbPool)
            cancellable.cancel()
            gate.open()
            // A later observation on the same pool receives the last state: the
            // lane went on, and the cancelled one did not fetch again.
            let (otherCancellable, otherValues) = start(
                PlayerCountTracking.trackingRegions.observation(), in: dbPool)
            defer { otherCancellable.cancel() }
            #expect(await otherValues.wait { $0.last?.count == 2 })
            try insertPlayer(dbPool)
            #expect(await otherValues.wait { $0.last?.count == 3 })
            #expect(fetches.values.count == 2)
            #expect(values.values.map(\.count) == [0])
        }
    }

    @Test("An error thrown by a fetch on a reader is notified, and stops the observation")
    func errorOnReader() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeObservedPool(directory)
        struct TooMany: Error {}
        let observation = PlayerCountTracking.trackingConstantRegion.observation { db in
            if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! >= 2 { throw TooMany() }
        }
        let (cancellable, values) = start(observation, in: dbPool)
        defer { cancellable.cancel() }
        #expect(await values.wait { $0.count == 1 })
        try insertPlayer(dbPool)
        #expect(await values.wait { $0.count == 2 })
        try insertPlayer(dbPool)
        let error = await values.firstError()
        #expect(error is TooMany)
        try insertPlayer(dbPool)
        try insertPlayer(dbPool)
        // Still stopped: a later observation sees the last insert, this one
        // received nothing more.
        let (otherCancellable, otherValues) = start(PlayerCountTracking.trackingRegions.observation(), in: dbPool)
        defer { otherCancellable.cancel() }
        #expect(await otherValues.wait { $0.last?.count == 4 })
        #expect(values.values.map(\.count) == [0, 1])
        #expect(values.errors.count == 1)
    }

    @Test("With immediate scheduling, the initial value comes first, then values fetched on readers")
    @MainActor
    func immediateScheduling() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeObservedPool(directory)
        let values = ObservedValues<ObservedFetch>()
        let cancellable = PlayerCountTracking.trackingRegions.observation().start(
            in: dbPool, scheduling: .immediate, recordingIn: values)
        defer { cancellable.cancel() }
        #expect(values.values.map(\.count) == [0])
        try insertPlayer(dbPool)
        #expect(await values.wait { $0.last?.count == 1 })
        #expect(values.values.last?.isOnReader == true)
    }

    @Test("Changes to other tables trigger no fetch on readers")
    func otherTables() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeObservedPool(directory)
        let fetches = ObservedValues<Int>()
        let observation = PlayerCountTracking.trackingConstantRegion.observation { _ in fetches.record(0) }
        let (cancellable, values) = start(observation, in: dbPool)
        defer { cancellable.cancel() }
        #expect(await values.wait { $0.count == 1 })
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')") }
        try insertPlayer(dbPool)
        #expect(await values.wait { $0.last?.count == 1 })
        #expect(fetches.values.count == 2)
    }

    @Test("A commit storm leaves readers to the application: few observation transactions hold a reader at once")
    func commitStormLeavesReaders() async throws {
        // Each observation tracks a table of its own, and each commit
        // changes one table: each commit finds an idle observation, and
        // would take a reader of its own.
        let readerCount = ProcessInfo.processInfo.activeProcessorCount + 2
        let observationCount = readerCount + 2
        let directory = try TemporaryDirectory()
        let dbPool = try makePool(directory, maximumReaderCount: readerCount)
        try await dbPool.write { db in
            for index in 0..<observationCount { try db.execute(sql: "CREATE TABLE t\(index)(a)") }
        }
        let gate = HeldFetches()
        var cancellables: [AnyDatabaseCancellable] = []
        var observedValues: [ObservedValues<Int>] = []
        defer {
            gate.open()
            for cancellable in cancellables { cancellable.cancel() }
        }
        for index in 0..<observationCount {
            let observation = ValueObservation.tracking(regions: [Table("t\(index)")]) { db -> Int in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t\(index)")!
                gate.pass(count)
                return count
            }
            let values = ObservedValues<Int>()
            cancellables.append(
                observation.start(
                    in: dbPool, scheduling: .async(onQueue: queue), recordingIn: values))
            observedValues.append(values)
            await values.waitForValues(1)
        }

        gate.close()
        for index in 0..<observationCount {
            try await dbPool.write { db in try db.execute(sql: "INSERT INTO t\(index) VALUES (1)") }
        }
        await gate.held.waitForValues(1)
        // The held fetch keeps the lanes busy; a reader is still free.
        let count = try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t0") }
        #expect(count == 1)

        gate.open()
        for values in observedValues {
            #expect(await values.wait { $0.last == 1 })
        }
    }
}
