import Foundation
import Strata
import StrataTestSupport
import Testing

/// The "v3 merges v1 and v2" migrator of the merged migrations feature.
private func mergingMigrator(log: LockedBox<[String]>) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v3", merging: ["v1", "v2"]) { db, appliedIDs in
        log.append("v3 after \(appliedIDs.sorted())")
        if !appliedIDs.contains("v1") {
            try db.execute(sql: "CREATE TABLE t1 (id INTEGER PRIMARY KEY)")
        }
        if !appliedIDs.contains("v2") {
            try db.execute(sql: "CREATE TABLE t2 (id INTEGER PRIMARY KEY)")
        }
        try db.execute(sql: "CREATE TABLE t3 (id INTEGER PRIMARY KEY)")
    }
    return migrator
}

struct MergedMigrationTests {
    @Test func freshDatabaseRunsTheMergedMigrationWithNothingApplied() throws {
        let log = LockedBox<[String]>([])
        let migrator = mergingMigrator(log: log)
        #expect(migrator.migrations == ["v3"])
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        #expect(log.value == ["v3 after []"])
        try dbQueue.read { db throws in
            #expect(try migrator.appliedIdentifiers(db) == ["v3"])
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try tableExists(db, "t1") && tableExists(db, "t2") && tableExists(db, "t3"))
        }
    }

    @Test func partiallyMigratedDatabaseGetsTheAppliedMergedIdentifiers() throws {
        let dbQueue = try DatabaseQueue()
        try versionedMigrator(count: 3).migrate(dbQueue, upTo: "v1")

        let log = LockedBox<[String]>([])
        let migrator = mergingMigrator(log: log)
        try dbQueue.read { db throws in
            // Merged migrations are known: the database is not too new.
            #expect(try migrator.hasBeenSuperseded(db) == false)
            #expect(try migrator.hasCompletedMigrations(db) == false)
        }
        try migrator.migrate(dbQueue)
        #expect(log.value == ["v3 after [\"v1\"]"])
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["v3"])
            // The merged identifiers are replaced by the merging one.
            #expect(try migrator.appliedIdentifiers(db) == ["v3"])
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try migrator.hasBeenSuperseded(db) == false)
        }
    }

    @Test func fullyMigratedDatabaseSkipsTheMergedMigration() throws {
        let dbQueue = try DatabaseQueue()
        try versionedMigrator(count: 3).migrate(dbQueue)

        let log = LockedBox<[String]>([])
        var migrator = mergingMigrator(log: log)
        migrator.registerMigration("v4") { db throws in
            try db.execute(sql: "CREATE TABLE t4 (id INTEGER PRIMARY KEY)")
        }
        try migrator.migrate(dbQueue)
        #expect(log.value == [])
        try dbQueue.read { db throws in
            #expect(try tableExists(db, "t4"))
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try migrator.hasBeenSuperseded(db) == false)
        }
    }

    @Test func appliedMergingMigrationForgetsTheMergedIdentifiers() throws {
        // A database where v3 was applied while v1 and v2 are still recorded.
        let dbQueue = try DatabaseQueue()
        try versionedMigrator(count: 2).migrate(dbQueue)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v3')")
            try db.execute(sql: "CREATE TABLE t3 (id INTEGER PRIMARY KEY)")
        }
        let log = LockedBox<[String]>([])
        let migrator = mergingMigrator(log: log)
        try migrator.migrate(dbQueue)
        #expect(log.value == [])
        try dbQueue.read { db throws in
            #expect(try migrator.appliedIdentifiers(db) == ["v3"])
        }
    }

    @Test func aMigrationMayListItselfAmongTheMergedOnes() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v2", merging: ["v1", "v2"]) { db, appliedIDs in
            if !appliedIDs.contains("v1") {
                try db.execute(sql: "CREATE TABLE t1 (id INTEGER PRIMARY KEY)")
            }
            try db.execute(sql: "CREATE TABLE t2 (id INTEGER PRIMARY KEY)")
        }
        #expect(migrator.migrations == ["v2"])
        let dbQueue = try DatabaseQueue()
        try versionedMigrator(count: 1).migrate(dbQueue)
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try migrator.appliedIdentifiers(db) == ["v2"])
            #expect(try tableExists(db, "t2"))
        }
    }

    @Test func mergedMigrationsRunInTheirTransaction() throws {
        struct MergeError: Error {}
        let dbQueue = try DatabaseQueue()
        try versionedMigrator(count: 3).migrate(dbQueue, upTo: "v1")
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v3", merging: ["v1", "v2"]) { db, _ in
            try db.execute(sql: "CREATE TABLE t2 (id INTEGER PRIMARY KEY)")
            throw MergeError()
        }
        #expect(throws: MergeError.self) {
            try migrator.migrate(dbQueue)
        }
        try dbQueue.read { db throws in
            #expect(try migrator.appliedIdentifiers(db) == ["v1"])
            #expect(try !tableExists(db, "t2"))
        }
    }

    @Test func mergedMigrationsAreKnownToTheSchemaChangeCheck() throws {
        let dbQueue = try DatabaseQueue()
        try versionedMigrator(count: 3).migrate(dbQueue)
        var migrator = mergingMigrator(log: LockedBox<[String]>([]))
        migrator.eraseDatabaseOnSchemaChange = true
        try dbQueue.read { db throws in
            #expect(try migrator.hasSchemaChanges(db) == false)
        }
    }

    @Test func mergingWithImmediateForeignKeyChecks() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v2", foreignKeyChecks: .immediate, merging: ["v1"]) { db, _ throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
        try migrator.migrate(DatabaseQueue())
    }

    @Test func migratingBelowAnAppliedMergedMigrationIsFatal() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try versionedMigrator(count: 4).migrate(dbQueue)

            var migrator = DatabaseMigrator()
            migrator.registerMigration("v3", merging: ["v1", "v2"]) { _, _ in }
            migrator.registerMigration("v5", merging: ["v4"]) { _, _ in }
            try migrator.migrate(dbQueue, upTo: "v3")
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(#"database is already migrated beyond migration "v3""#))
    }

    @Test func migratingUpToAMergedMigration() throws {
        let dbQueue = try DatabaseQueue()
        try versionedMigrator(count: 4).migrate(dbQueue, upTo: "v1")
        let log = LockedBox<[String]>([])
        var migrator = mergingMigrator(log: log)
        migrator.registerMigration("v5", merging: ["v4"]) { _, appliedIDs in
            log.append("v5 after \(appliedIDs.sorted())")
        }
        try migrator.migrate(dbQueue, upTo: "v3")
        #expect(log.value == ["v3 after [\"v1\"]"])
        try migrator.migrate(dbQueue)
        #expect(log.value == ["v3 after [\"v1\"]", "v5 after []"])
    }

    @Test func mergingARegisteredMigrationIsFatal() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { _ in }
            migrator.registerMigration("v2", merging: ["v1"]) { _, _ in }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(#"can not merge already registered migration: "v1""#))
    }

    @Test func registeringAMergedIdentifierIsFatal() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v2", merging: ["v1"]) { _, _ in }
            migrator.registerMigration("v1") { _ in }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(#"already registered migration: "v1""#))
    }
}
