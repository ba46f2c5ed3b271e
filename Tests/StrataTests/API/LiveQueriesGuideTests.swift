#if canImport(Observation)
    import Foundation
    import Observation
    import Strata
    import StrataTestSupport
    import Testing

    /// The types of `Sources/Strata/Strata.docc/LiveQueries.md`, in a
    /// namespace so that its `Player` does not hide the test kit's.
    enum LiveQueriesGuide {
        struct Player: Codable, Sendable, FetchableRecord, PersistableRecord {
            var name: String
            var score: Int
        }

        @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
        @Observable @MainActor
        final class Leaderboard {
            @ObservationIgnored @LiveQuery var best: [Player]
            @ObservationIgnored @LiveQuery var count: Int

            init(database: any DatabaseReader) {
                _best = LiveQuery(wrappedValue: [], Player.order(Column("score").desc).limit(3), in: database)
                _count = LiveQuery(wrappedValue: 0, { db in try Player.fetchCount(db) }, in: database)
            }

            /// Only the players whose name starts with `prefix`.
            func search(_ prefix: String) {
                $best.track(Player.filter(Column("name").like("\(prefix)%")).order(Column("score").desc).limit(3))
            }
        }
    }

    /// Runs the samples of the article "Live Queries in @Observable Models"
    /// (`ArticleSampleTests` checks that each one is here). Each test returns
    /// at once on Apple systems without `Observations`.
    @Suite("The article \"Live Queries in @Observable Models\"")
    struct LiveQueriesGuideTests {
        typealias Player = LiveQueriesGuide.Player
        typealias Leaderboard = LiveQueriesGuide.Leaderboard

        @Test @MainActor func theLeaderboardProgram() async throws {
            guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) else { return }
            let dbQueue = try DatabaseQueue()
            try await dbQueue.write { db in
                try db.create(table: "player") { t in
                    t.column("name", .text).notNull()
                    t.column("score", .integer).notNull()
                }
            }

            let leaderboard = Leaderboard(database: dbQueue)
            let printing = Task { @MainActor in
                for await best in Observations({ leaderboard.best }) {
                    print(best.map { "\($0.name): \($0.score)" }.joined(separator: ", "))
                }
            }
            try await dbQueue.write { db in try Player(name: "Arthur", score: 100).insert(db) }
            try await dbQueue.write { db in try Player(name: "Barbara", score: 1000).insert(db) }

            let best = leaderboard.$best
            try await waitUntil("two players", reading: { _ = best.value }) { best.value.count == 2 }
            #expect(leaderboard.best.map(\.name) == ["Barbara", "Arthur"])
            let count = leaderboard.$count
            try await waitUntil("the count", reading: { _ = count.value }) { count.value == 2 }
            #expect(leaderboard.count == 2)
            leaderboard.search("A")
            try await waitUntil("the search", reading: { _ = best.value }) { best.value.map(\.name) == ["Arthur"] }
            // Not awaited: the test must not hang on the printing loop.
            printing.cancel()
        }

        @Test func aLiveValueWithoutAModel() async throws {
            guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) else { return }
            let dbQueue = try DatabaseQueue()
            try await dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE player(name TEXT NOT NULL, score INTEGER NOT NULL)")
                try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 100)")
            }
            let printing = Task { @MainActor in
                let live = LiveValue(ValueObservation.tracking(Player.fetchAll), in: dbQueue, initialValue: [])
                for await players in Observations({ live.value }) {
                    print("\(players.count) players")
                }
            }
            // Not awaited: the test must not hang on the printing loop.
            printing.cancel()
        }

        @Test @MainActor func aReleasedModelStopsItsLiveQueries() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let dbQueue = try DatabaseQueue()
            try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE player(name, score)") }
            weak var releasedModel: Leaderboard?
            weak var releasedLive: LiveValue<[Player]>?
            do {
                let leaderboard = Leaderboard(database: dbQueue)
                releasedModel = leaderboard
                releasedLive = leaderboard.$best
                let best = leaderboard.$best
                try await waitUntil("the first value", reading: { _ = best.isLoading }) { !best.isLoading }
            }
            #expect(releasedModel == nil)
            #expect(releasedLive == nil)
        }
    }
#endif
