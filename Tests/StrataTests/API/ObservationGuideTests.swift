import Foundation
import Strata
import StrataTestSupport
import Testing

/// Runs the samples of `Sources/Strata/Strata.docc/Observation.md`: each
/// ```swift block of the article is a piece of this file (`ArticleSampleTests`
/// checks it). The article's `display(_:)` stands for the app's code; here it
/// records the values the tests wait for.
@MainActor
struct ObservationGuideTests {
    struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var score: Int
    }

    /// The `player` table with one player, Arthur (score 100).
    nonisolated static func makeDatabase() throws -> DatabaseQueue {
        try makePlayerDatabase(players: [StrataTestSupport.Player(name: "Arthur", score: 100)])
    }

    @Test func startOnTheMainActor() async throws {
        let dbQueue = try Self.makeDatabase()
        let received = ObservedValues<[Player]>()
        let display: @Sendable ([Player]) -> Void = { received.record($0) }

        let observation = ValueObservation.tracking { db in
            try Player.fetchAll(db)
        }

        let cancellable = observation.start(in: dbQueue) { error in
            print("Players could not be fetched: \(error)")
        } onChange: { players in
            display(players)
        }

        await received.waitForValues(1)
        try await dbQueue.write { db in try Player(id: 2, name: "Barbara", score: 1000).insert(db) }
        #expect(await received.wait { $0.last?.count == 2 })
        #expect(received.values.first?.map(\.name) == ["Arthur"])
        cancellable.cancel()
    }

    @Test func startImmediately() throws {
        let dbQueue = try Self.makeDatabase()
        let received = ObservedValues<[Player]>()
        let display: @Sendable ([Player]) -> Void = { received.record($0) }
        let observation = ValueObservation.tracking { db in try Player.fetchAll(db) }

        let cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
            print("Players could not be fetched: \(error)")
        } onChange: { players in
            display(players)
        }
        // display(_:) has received the current players before start returned

        #expect(received.values.map(\.count) == [1])
        cancellable.cancel()
    }

    @Test nonisolated func startOnAQueue() async throws {
        let dbQueue = try Self.makeDatabase()
        let received = ObservedValues<[Player]>()
        let display: @Sendable ([Player]) -> Void = { received.record($0) }
        let observation = ValueObservation.tracking { db in try Player.fetchAll(db) }

        let cancellable = observation.start(
            in: dbQueue,
            scheduling: .async(onQueue: DispatchQueue(label: "players")),
            onError: { error in print("Players could not be fetched: \(error)") },
            onChange: { players in display(players) })

        await received.waitForValues(1)
        try await dbQueue.write { db in try Player(id: 2, name: "Barbara", score: 1000).insert(db) }
        #expect(await received.wait { $0.last?.count == 2 })
        cancellable.cancel()
    }

    @Test nonisolated func asyncSequence() async throws {
        let dbQueue = try Self.makeDatabase()
        let received = ObservedValues<[Player]>()
        let display: @Sendable ([Player]) -> Void = { received.record($0) }
        let observation = ValueObservation.tracking { db in try Player.fetchAll(db) }
        let writer = Task {
            try await dbQueue.write { db in try Player(id: 2, name: "Barbara", score: 1000).insert(db) }
        }

        for try await players in observation.values(in: dbQueue) {
            display(players)
            if players.count > 1 { break }  // ends the loop, and the observation
        }

        try await writer.value
        #expect(received.values.last?.count == 2)
    }

    @Test nonisolated func removingDuplicates() async throws {
        let dbQueue = try Self.makeDatabase()

        let maxScore = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT MAX(score) FROM player")
        }
        let bestScore = maxScore.removeDuplicates()

        var scores: [Int?] = []
        for try await score in bestScore.values(in: dbQueue) {
            scores.append(score)
            if scores.count == 1 {
                // The first write does not change the best score: no value for it.
                try await dbQueue.write { db in try Player(id: 2, name: "Barbara", score: 50).insert(db) }
                try await dbQueue.write { db in try Player(id: 3, name: "Craig", score: 1000).insert(db) }
            } else {
                break
            }
        }
        #expect(scores == [100, 1000])
    }

    @Test func pacing() async throws {
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return }
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        let counts = ObservedValues<Int>()
        let print: @Sendable (String) -> Void = { line in
            if let count = Int(line.prefix(while: \.isNumber)) { counts.record(count) }
        }

        let pacing = ObservationPacing(quietPeriod: .milliseconds(1), maximumDelay: .milliseconds(50))
        let observation = ValueObservation.tracking { db in try Player.fetchCount(db) }.paced(pacing)
        let cancellable = observation.start(in: dbPool) { error in
            print("Players could not be counted: \(error)")
        } onChange: { count in
            print("\(count) players")  // at most about 20 times a second during a burst
        }

        await counts.waitForValues(1)
        try await dbPool.writeWithoutTransaction { db in
            for id in 1...100 {
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO player (id) VALUES (?)", arguments: [id])
                    return .commit
                }
            }
        }
        #expect(await counts.wait { $0.last == 100 })
        #expect(counts.values.count < 100)
        cancellable.cancel()
    }

    @Test nonisolated func regionObservation() throws {
        let dbQueue = try Self.makeDatabase()
        let changes = ObservedValues<Int>()
        let playersDidChange: @Sendable () -> Void = { changes.record(1) }

        let regionObservation = DatabaseRegionObservation(tracking: Player.all())
        let cancellable = regionObservation.start(in: dbQueue) { error in
            print("Players could not be observed: \(error)")
        } onChange: { db in
            playersDidChange()  // runs after the commit, before any other write
        }

        try dbQueue.write { db in
            try Player(id: 2, name: "Barbara", score: 1000).insert(db)
        }
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE note (text TEXT)")  // not a change of player
        }
        #expect(changes.values.count == 1)
        cancellable.cancel()
    }
}
