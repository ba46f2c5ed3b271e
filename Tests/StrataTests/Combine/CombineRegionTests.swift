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

    @Suite("Combine: DatabaseRegionObservation publisher")
    struct CombineRegionTests {
        @Test(
            "The publisher delivers the connection after each impactful commit, on the writer queue",
            arguments: WriterKind.allCases)
        func impactfulCommits(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            try await writer.write { try $0.execute(sql: "CREATE TABLE other (a)") }
            let seen = Waitable<[Int]>([])
            // The subscriber reads the database it receives: it runs right after
            // the commit, before any other write.
            let cancellable = appendPlayerCountAfterEachCommit(in: writer, to: seen)
            try await writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
            try await writer.write { try $0.execute(sql: "INSERT INTO other VALUES (1)") }  // not tracked
            try await writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
            // Synchronous: the deliveries happened during the writes.
            #expect(seen.value == [1, 2])
            cancellable.cancel()
            try await writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
            try await writer.write { _ in }
            #expect(seen.value == [1, 2])
        }

        @Test("Values come on the writer queue, and respect demand")
        func demand() async throws {
            let writer = try makePublisherTestDatabase(.queue)
            let recorder = PublisherRecorder<Database>(initialDemand: .max(1))
            DatabaseRegionObservation(tracking: Table("player")).publisher(in: writer).subscribe(recorder)
            defer { recorder.cancel() }
            try await writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
            try await writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
            #expect(recorder.values.count == 1)  // No demand for the second commit.
            recorder.request(.max(1))
            try await writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
            #expect(recorder.values.count == 2)
            #expect(recorder.state.value.valueQueues == ["other", "other"])
        }

        @Test("An untrackable region fails the publisher")
        func failure() async throws {
            let dbQueue = try DatabaseQueue()
            let recorder = DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT * FROM missing"))
                .publisher(in: dbQueue)
                .subscribeRecorder()
            try await recorder.waitForCompletion()
            #expect(recorder.state.value.failure is DatabaseError)
        }

        @Test("Cancellation removes the observer", arguments: WriterKind.allCases)
        func cancellation(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            let recorder = DatabaseRegionObservation(tracking: Table("player")).publisher(in: writer)
                .subscribeRecorder()
            try await writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
            #expect(recorder.values.count == 1)
            recorder.cancel()
            try await writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
            #expect(recorder.values.count == 1)
            #expect(recorder.state.value.completion == nil)
        }
    }
#endif
