#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
    import OpenCombineDispatch
#endif

#if canImport(Combine) || OpenCombine
    import Dispatch
    import Foundation
    import Strata
    import StrataTestSupport
    import Testing

    // The Combine samples of the documents, written with GRDB 7 spellings.

    private struct Player: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
        var id: Int64?
        var name: String
        var score: Int?
    }

    private func makePlayers() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer)
            }
        }
        return dbQueue
    }

    @Suite("Combine: the documents' samples")
    struct CombineSampleTests {
        /// ValueObservation article: "Combine Publisher".
        @Test("observation.publisher(in:).sink, as in the ValueObservation article")
        func valueObservationSample() async throws {
            let dbQueue = try makePlayers()
            let observation = ValueObservation.tracking { db in try Player.fetchAll(db) }
            let fresh = Waitable<[[Player]]>([])
            let cancellable = observation.publisher(in: dbQueue).sink { completion in
                // Handle completion
            } receiveValue: { (players: [Player]) in
                fresh.update { $0.append(players) }
            }
            try await fresh.wait("initial value") { $0.count == 1 }
            try await dbQueue.write { db in try Player(name: "Arthur").insert(db) }
            try await fresh.wait("fresh players") { $0.count == 2 }
            #expect(fresh.value.map { $0.map(\.name) } == [[], ["Arthur"]])
            cancellable.cancel()
        }

        /// README (v5.8): `sink(receiveCompletion:receiveValue:)`.
        @Test("observation.publisher(in:).sink(receiveCompletion:receiveValue:), as in GRDB's README")
        func readmeSample() async throws {
            let dbQueue = try makePlayers()
            let observation = ValueObservation.tracking(Player.fetchAll)
            let fresh = Waitable<[[Player]]>([])
            let cancellable = observation.publisher(in: dbQueue).sink(
                receiveCompletion: { completion in },
                receiveValue: { (players: [Player]) in
                    fresh.update { $0.append(players) }
                })
            try await fresh.wait("initial value") { $0.count == 1 }
            #expect(fresh.value == [[]])
            cancellable.cancel()
        }

        /// DatabaseRegionObservation article.
        @Test("DatabaseRegionObservation publisher, as in its article")
        func regionObservationSample() async throws {
            let dbQueue = try makePlayers()
            let observation = DatabaseRegionObservation(tracking: Player.all())
            let changes = Waitable(0)
            let cancellable = observation.publisher(in: dbQueue).sink { completion in
                // Handle completion
            } receiveValue: { (db: Database) in
                changes.update { $0 += 1 }  // print("Players were changed")
            }
            try await dbQueue.write { db in try Player(name: "Arthur").insert(db) }
            try await changes.wait("players were changed") { $0 == 1 }
            cancellable.cancel()
        }

        /// ValueObservation sharing: Combine operators on a shared observation.
        @Test("sharedObservation.publisher().map, as in the ValueObservation article")
        func sharedSample() async throws {
            let dbQueue = try makePlayers()
            let sharedObservation =
                ValueObservation
                .tracking { db in try Player.fetchAll(db) }
                .shared(in: dbQueue)
            let counts = Waitable<[Int]>([])
            let cancellable =
                sharedObservation
                .publisher()  // Turn shared observation into a Combine Publisher
                .map { players in players.count }  // The map operator from Combine
                .sink(receiveCompletion: { _ in }, receiveValue: { count in counts.update { $0.append(count) } })
            try await counts.wait("initial count") { $0 == [0] }
            try await dbQueue.write { db in try Player(name: "Arthur").insert(db) }
            try await counts.wait("fresh count") { $0 == [0, 1] }
            cancellable.cancel()
        }

        /// Concurrency article: "Combine publishers".
        @Test("readPublisher and writePublisher, as in the Concurrency article")
        func concurrencySample() async throws {
            let dbQueue = try makePlayers()
            let playerCountPublisher = dbQueue.readPublisher { db in
                try Player.fetchCount(db)
            }

            let newPlayerCountPublisher = dbQueue.writePublisher { db -> Int in
                try Player(name: "Arthur").insert(db)
                return try Player.fetchCount(db)
            }

            // Those publishers do not access the database until they are subscribed.
            #expect(try await dbQueue.read { try Player.fetchCount($0) } == 0)

            let results = Waitable<[String]>([])
            let write = newPlayerCountPublisher.sink(
                receiveCompletion: { completion in
                    if case .finished = completion { results.update { $0.append("write finished") } }
                },
                receiveValue: { count in results.update { $0.append("write \(count)") } })
            try await results.wait("write") { $0.count == 2 }
            let read = playerCountPublisher.sink(
                receiveCompletion: { completion in
                    if case .finished = completion { results.update { $0.append("read finished") } }
                },
                receiveValue: { count in results.update { $0.append("read \(count)") } })
            try await results.wait("read") { $0.count == 4 }
            #expect(results.value == ["write 1", "write finished", "read 1", "read finished"])
            write.cancel()
            read.cancel()
        }
    }
#endif
