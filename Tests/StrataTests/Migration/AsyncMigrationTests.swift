import Foundation
import Strata
import StrataTestSupport
import Testing

/// `try await migrator.migrateAsync(writer)` and `asyncMigrate(_:completion:)`,
/// on every platform.
struct AsyncMigrationTests {
    @Test func asyncMigrate() async throws {
        let dbQueue = try DatabaseQueue()
        let migrator = versionedMigrator()
        try await migrator.migrateAsync(dbQueue)
        let applied = try await dbQueue.read { db throws in try migrator.appliedMigrations(db) }
        #expect(applied == ["v1", "v2", "v3"])
    }

    @Test func asyncMigrateRethrowsErrors() async throws {
        struct MigrationError: Error {}
        let dbQueue = try DatabaseQueue()
        var migrator = versionedMigrator(count: 1)
        migrator.registerMigration("failing") { _ in throw MigrationError() }
        let failingMigrator = migrator
        await #expect(throws: MigrationError.self) {
            try await failingMigrator.migrateAsync(dbQueue)
        }
        let applied = try await dbQueue.read { db throws in try failingMigrator.appliedMigrations(db) }
        #expect(applied == ["v1"])
    }

    @Test func asyncMigrateWithCompletion() async throws {
        let dbQueue = try DatabaseQueue()
        let migrator = versionedMigrator()
        let applied: [String] = try await withCheckedThrowingContinuation { continuation in
            migrator.asyncMigrate(dbQueue) { result in
                // The completion receives the connection, on its queue.
                continuation.resume(with: Result { try migrator.appliedMigrations(result.get()) })
            }
        }
        #expect(applied == ["v1", "v2", "v3"])
    }

    @Test func asyncMigrateWithCompletionReportsErrors() async throws {
        struct MigrationError: Error {}
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("failing") { _ in throw MigrationError() }
        let result: Result<Void, any Error> = await withCheckedContinuation { continuation in
            migrator.asyncMigrate(dbQueue) { result in
                continuation.resume(returning: result.map { _ in () })
            }
        }
        #expect(throws: MigrationError.self) { try result.get() }
    }

    @Test func asyncMigrationsAreExclusive() async throws {
        // Concurrent migrations of the same database apply each migration once.
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"))
        let log = LockedBox<[String]>([])
        var migrator = DatabaseMigrator()
        for identifier in ["v1", "v2", "v3"] {
            migrator.registerMigration(identifier) { _ in log.append(identifier) }
        }
        let sharedMigrator = migrator
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 {
                group.addTask { try await sharedMigrator.migrateAsync(dbQueue) }
            }
            try await group.waitForAll()
        }
        #expect(log.value == ["v1", "v2", "v3"])
    }
}
