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

    @Suite("Combine: migratePublisher")
    struct CombineMigrateTests {
        private func makeMigrator() -> DatabaseMigrator {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("name", .text)
                }
            }
            migrator.registerMigration("v2") { db in
                try db.alter(table: "player") { t in t.add(column: "score", .integer) }
            }
            return migrator
        }

        @Test(
            "migratePublisher migrates when subscribed, and completes on the main queue", arguments: WriterKind.allCases
        )
        func migrates(kind: WriterKind) async throws {
            let directory = try TemporaryDirectory()
            let writer = try kind.open(directory)
            let migrator = makeMigrator()
            let publisher = migrator.migratePublisher(writer)
            #expect(try await writer.read { try $0.tableExists("player") } == false)

            let recorder = try await publisher.recordUntilCompletion()
            #expect(recorder.values.count == 1)
            #expect(recorder.state.value.isFinished)
            #expect(recorder.state.value.valueQueues == ["main"])
            #expect(recorder.state.value.completionQueue == "main")
            #expect(try await writer.read { try migrator.appliedIdentifiers($0) } == ["v1", "v2"])
            #expect(try await writer.read { try $0.columns(in: "player").map(\.name) } == ["id", "name", "score"])

            // A second subscription finds nothing to migrate.
            let again = try await publisher.recordUntilCompletion()
            #expect(again.state.value.isFinished)
        }

        @Test("migratePublisher delivers on its scheduler, and fails with the error of a migration")
        func failure() async throws {
            let dbQueue = try DatabaseQueue()
            var brokenMigrator = makeMigrator()
            brokenMigrator.registerMigration("broken") { db in
                try db.execute(sql: "CREATE TABLE player(id)")  // already exists
            }
            let migrator = brokenMigrator
            let queue = TestQueues.make("migrate")
            let recorder = try await migrator.migratePublisher(dbQueue, receiveOn: queue).recordUntilCompletion()
            #expect(recorder.values.isEmpty)
            #expect(recorder.state.value.failure is DatabaseError)
            #expect(recorder.state.value.completionQueue == "migrate")
            // The migrations before the broken one were applied.
            #expect(try await dbQueue.read { try migrator.appliedIdentifiers($0) } == ["v1", "v2"])
        }

        @Test("asyncMigrate, migratePublisher and migrate give the same database")
        func sameResult() async throws {
            let migrator = makeMigrator()
            let viaMigrate = try DatabaseQueue()
            try migrator.migrate(viaMigrate)

            let viaAsync = try DatabaseQueue()
            let done = Waitable<Result<Void, any Error>?>(nil)
            migrator.asyncMigrate(viaAsync) { result in done.update { $0 = result.map { _ in } } }
            try await done.wait("asyncMigrate") { $0 != nil }

            let viaPublisher = try DatabaseQueue()
            _ = try await migrator.migratePublisher(viaPublisher).recordUntilCompletion()

            let schema = { (writer: DatabaseQueue) in
                try writer.read {
                    try String.fetchAll($0, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
                }
            }
            #expect(try schema(viaAsync) == schema(viaMigrate))
            #expect(try schema(viaPublisher) == schema(viaMigrate))
        }
    }
#endif
