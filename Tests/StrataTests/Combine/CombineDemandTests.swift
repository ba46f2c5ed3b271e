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

    /// The access publishers (`readPublisher`, `writePublisher`,
    /// `migratePublisher`) access the database at the subscriber's first
    /// demand, not when it subscribes.
    @Suite("Combine: accesses wait for demand")
    struct CombineDemandTests {
        /// How long a test waits to see that nothing happens.
        private static let quietPeriod = Duration.milliseconds(300)

        @Test("readPublisher reads at the first demand", arguments: WriterKind.allCases)
        func read(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            let reads = Waitable(0)
            let publisher = writer.readPublisher { db in
                reads.update { $0 += 1 }
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            }
            let recorder = try await demandOnce(publisher) { #expect(reads.value == 0) }
            #expect(recorder.values == [0])
            #expect(recorder.state.value.isFinished)
            #expect(reads.value == 1)
        }

        @Test("writePublisher writes at the first demand", arguments: WriterKind.allCases)
        func write(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            let publisher = writer.writePublisher { db -> Int in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            }
            let recorder = try await demandOnce(publisher) {
                let count = try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") }
                #expect(count == 0)
            }
            #expect(recorder.values == [1])
            #expect(recorder.state.value.isFinished)
            #expect(try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 1)
        }

        @Test("writePublisher(updates:thenRead:) writes at the first demand", arguments: WriterKind.allCases)
        func writeThenRead(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            let publisher = writer.writePublisher { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            } thenRead: { db, _ in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            }
            let recorder = try await demandOnce(publisher) {
                let count = try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") }
                #expect(count == 0)
            }
            #expect(recorder.values == [1])
            #expect(recorder.state.value.isFinished)
        }

        @Test("migratePublisher migrates at the first demand", arguments: WriterKind.allCases)
        func migrate(kind: WriterKind) async throws {
            let directory = try TemporaryDirectory()
            let writer = try kind.open(directory)
            let migrator = {
                var migrator = DatabaseMigrator()
                migrator.registerMigration("v1") { db in
                    try db.create(table: "player") { t in t.autoIncrementedPrimaryKey("id") }
                }
                return migrator
            }()
            let recorder = try await demandOnce(migrator.migratePublisher(writer)) {
                let exists = try await writer.read { try $0.tableExists("player") }
                #expect(exists == false)
            }
            #expect(recorder.values.count == 1)
            #expect(recorder.state.value.isFinished)
            #expect(try await writer.read { try migrator.appliedIdentifiers($0) } == ["v1"])
        }

        @Test("A subscription cancelled before any demand never accesses the database")
        func cancelBeforeDemand() async throws {
            let writer = try makePublisherTestDatabase(.queue)
            let publisher = writer.writePublisher { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            }
            let recorder = PublisherRecorder<Void>(initialDemand: .none)
            publisher.subscribe(recorder)
            recorder.cancel()
            await expectNothing(from: recorder)
            #expect(try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 0)
        }

        /// Waits a short while, and expects that the recorder received nothing.
        /// Subscribes a recorder to `publisher` without demand, expects
        /// nothing from it and runs `beforeDemand`; then demands one value
        /// and returns the recorder once the publisher completes.
        private func demandOnce<P: Publisher>(
            _ publisher: P, sourceLocation: SourceLocation = #_sourceLocation,
            beforeDemand: () async throws -> Void
        ) async throws -> PublisherRecorder<P.Output> where P.Failure == any Error {
            let recorder = PublisherRecorder<P.Output>(initialDemand: .none)
            publisher.subscribe(recorder)
            await expectNothing(from: recorder, sourceLocation: sourceLocation)
            try await beforeDemand()
            recorder.request(.max(1))
            try await recorder.waitForCompletion()
            return recorder
        }

        private func expectNothing<Input>(
            from recorder: PublisherRecorder<Input>, sourceLocation: SourceLocation = #_sourceLocation
        ) async {
            let received =
                (try? await recorder.state.wait("any event", timeout: Self.quietPeriod) { state in
                    !state.values.isEmpty || state.completion != nil
                }) != nil
            #expect(!received, "nothing expected before the first demand", sourceLocation: sourceLocation)
        }
    }
#endif
