import Foundation
import Strata
import StrataTestSupport
import Testing

/// The programmer errors of migrators stop the program with a clear message.
struct MigratorFatalErrorTests {
    @Test func registeringAnIdentifierTwiceIsFatal() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { _ in }
            migrator.registerMigration("v1") { _ in }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(#"already registered migration: "v1""#))
    }

    @Test func migratingBackwardsIsFatal() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            let migrator = versionedMigrator(count: 3)
            try migrator.migrate(dbQueue)
            try migrator.migrate(dbQueue, upTo: "v2")
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(#"database is already migrated beyond migration "v2""#))
    }

    @Test func migratingToAnUnknownMigrationIsFatal() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try versionedMigrator(count: 2).migrate(dbQueue, upTo: "v3")
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(#"undefined migration: "v3""#))
    }

    @Test func migratingBeyondAGapIsFatal() async {
        // v3 is applied, v2 is not: targeting v2 would run it after v3.
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            let partial = emptyMigrator("v1", "v3")
            try partial.migrate(dbQueue)

            let migrator = emptyMigrator("v1", "v2", "v3")
            try migrator.migrate(dbQueue, upTo: "v2")
        }
    }
}
