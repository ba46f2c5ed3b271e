import Foundation
@testable import Strata
import StrataTestSupport
import Testing

/// When the watching of external changes starts and stops, and what
/// observations get when the database file goes away.
@Suite("External changes: life cycle")
struct ExternalChangeLifecycleTests {
    @Test("Watching starts with the first observation, not before")
    func watchingStartsWithTheFirstObservation() async throws {
        let directory = try TemporaryDirectory()
        let (writer, _) = try ExternalChangeWriter.poolWAL.open(directory)
        #expect(try await externalChangeMonitor(writer) == nil)
        let (cancellable, _) = await startObservingPlayerCount(writer)
        #expect(try await externalChangeMonitorIsRunning(writer))
        cancellable.cancel()
    }

    @Test("Without the setting, no watching starts")
    func noWatchingWithoutTheSetting() async throws {
        let directory = try TemporaryDirectory()
        let (writer, _) = try ExternalChangeWriter.poolWAL.open(directory) { $0.observesExternalChanges = false }
        let (cancellable, _) = await startObservingPlayerCount(writer)
        #expect(try await externalChangeMonitor(writer) == nil)
        cancellable.cancel()
    }

    @Test("Watching stops with the last observation, and starts again with the next one")
    func watchingStopsWithTheLastObservation() async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try ExternalChangeWriter.poolWAL.open(directory)
        let values = ObservedValues<Int>()
        let valueCancellable = externalPlayerCount.start(
            in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: values)
        let regionCancellable = DatabaseRegionObservation(tracking: Table("player")).start(
            in: writer, onError: { Issue.record($0) }, onChange: { _ in })
        await values.waitForValues(1)
        valueCancellable.cancel()
        #expect(try await externalChangeMonitorIsRunning(writer))
        regionCancellable.cancel()
        #expect(try await externalChangeMonitorIsRunning(writer) == false)

        let (cancellable, newValues) = await startObservingPlayerCount(writer)
        #expect(try await externalChangeMonitorIsRunning(writer))
        try await insertPlayerFromAnotherProcess(path)
        #expect(await newValues.wait { $0.last == 1 })
        cancellable.cancel()
    }

    @Test("Closing the pool stops watching", arguments: ExternalChangeWriter.allCases)
    func closingStopsWatching(_ kind: ExternalChangeWriter) async throws {
        let directory = try TemporaryDirectory()
        let (writer, _) = try kind.open(directory)
        let (cancellable, _) = await startObservingPlayerCount(writer)
        let monitor = try #require(try await externalChangeMonitor(writer))
        try writer.close()
        #expect(monitor.isRunning == false)
        cancellable.cancel()
    }

    @Test("A deleted database file fails the observations with a clear error", arguments: ExternalChangeWriter.allCases)
    func deletedFileFailsObservations(_ kind: ExternalChangeWriter) async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try kind.open(directory)
        let values = ObservedValues<Int>()
        let regionErrors = ObservedValues<Int>()
        let cancellable = externalPlayerCount.start(
            in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: values)
        let regionCancellable = DatabaseRegionObservation(tracking: Table("player")).start(
            in: writer, onError: { regionErrors.record(error: $0) }, onChange: { _ in })
        await values.waitForValues(1)
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        let error = try #require(await values.firstError() as? DatabaseError)
        #expect(error.extendedResultCode == .SQLITE_READONLY_DBMOVED)
        #expect(error.message?.contains("was deleted") == true)
        let regionError = try #require(await regionErrors.firstError() as? DatabaseError)
        #expect(regionError.extendedResultCode == .SQLITE_READONLY_DBMOVED)
        cancellable.cancel()
        regionCancellable.cancel()
    }

    @Test("A database file replaced by another fails the observations with a clear error")
    func replacedFileFailsObservations() async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try ExternalChangeWriter.poolWAL.open(directory)
        let (cancellable, values) = await startObservingPlayerCount(writer)
        // As a restore from a backup does: a new file renamed over the old one.
        let backupPath = directory.path("backup.sqlite")
        try await DatabaseQueue(path: backupPath).write { db in try db.execute(sql: "CREATE TABLE player(value)") }
        #expect(rename(backupPath, path) == 0)
        let error = try #require(await values.firstError() as? DatabaseError)
        #expect(error.extendedResultCode == .SQLITE_READONLY_DBMOVED)
        #expect(error.message?.contains("was replaced") == true)

        // An observation that starts later fails at once.
        let laterValues = ObservedValues<Int>()
        let laterCancellable = externalPlayerCount.start(
            in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: laterValues)
        let laterError = try #require(await laterValues.firstError() as? DatabaseError)
        #expect(laterError.extendedResultCode == .SQLITE_READONLY_DBMOVED)
        cancellable.cancel()
        laterCancellable.cancel()
    }

    @Test("In-memory databases ignore the setting: observations work as usual")
    func inMemoryDatabasesIgnoreTheSetting() async throws {
        var configuration = Configuration()
        configuration.observesExternalChanges = true
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE player(value)") }
        let (cancellable, values) = await startObservingPlayerCount(dbQueue)
        #expect(try await externalChangeMonitor(dbQueue) == nil)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (value) VALUES (1)") }
        #expect(await values.wait { $0.last == 1 })
        cancellable.cancel()
    }
}
