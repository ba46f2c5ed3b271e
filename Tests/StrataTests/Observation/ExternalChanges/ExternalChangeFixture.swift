import Foundation
@testable import Strata
import StrataTestSupport
import Testing

/// The writers that observe external changes, in the journal modes they
/// support.
enum ExternalChangeWriter: String, CaseIterable, CustomStringConvertible {
    /// A pool, in WAL mode.
    case poolWAL
    /// A queue in SQLite's default rollback-journal mode (DELETE).
    case queueJournal
    /// A queue in WAL mode.
    case queueWAL

    var description: String { rawValue }

    /// Opens the writer on a new database with a `player(value)` table,
    /// observing external changes.
    func open(
        _ directory: TemporaryDirectory, configure: (inout Configuration) -> Void = { _ in }
    ) throws -> (writer: any DatabaseWriter, path: String) {
        let path = directory.path("external.sqlite")
        var configuration = Configuration()
        configuration.observesExternalChanges = true
        configuration.busyMode = .timeout(10)
        configure(&configuration)
        let writer: any DatabaseWriter
        switch self {
        case .poolWAL:
            writer = try DatabasePool(path: path, configuration: configuration)
        case .queueJournal:
            writer = try DatabaseQueue(path: path, configuration: configuration)
        case .queueWAL:
            configuration.journalMode = .wal
            writer = try DatabaseQueue(path: path, configuration: configuration)
        }
        try writer.write { db in try db.execute(sql: "CREATE TABLE player(value); CREATE TABLE other(value)") }
        return (writer, path)
    }
}

/// The count of players, observed.
let externalPlayerCount = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }

/// Inserts a player from another process.
func insertPlayerFromAnotherProcess(_ path: String, table: String = "player") async throws {
    try await ExternalWriterProcess.run(["exec", path, "write:INSERT INTO \(table) (value) VALUES (1)"])
}

/// The external change monitor of a writer, for the tests of its life cycle.
func externalChangeMonitor(_ writer: any DatabaseWriter) async throws -> ExternalChangeMonitor? {
    try await writer.writeWithoutTransaction { db in db.observationBroker?.externalChangeMonitor }
}

/// Whether the external change monitor of a writer watches now (read on
/// the writer's queue, after the accesses scheduled before).
func externalChangeMonitorIsRunning(_ writer: any DatabaseWriter) async throws -> Bool {
    try await writer.writeWithoutTransaction { db in db.observationBroker?.externalChangeMonitor?.isRunning ?? false }
}

/// Starts `externalPlayerCount` on `writer`, and waits for its first value.
func startObservingPlayerCount(
    _ writer: any DatabaseWriter, sourceLocation: SourceLocation = #_sourceLocation
) async -> (AnyDatabaseCancellable, ObservedValues<Int>) {
    let values = ObservedValues<Int>()
    let cancellable = externalPlayerCount.start(
        in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: values)
    await values.waitForValues(1, sourceLocation: sourceLocation)
    return (cancellable, values)
}

/// Inserts a player from another process `count` times, and calls `check`
/// with the number of players after each insert.
func insertPlayersFromAnotherProcess(
    _ path: String, count: Int = 3, checkingEach check: (Int) async throws -> Void
) async throws {
    for inserted in 1...count {
        try await insertPlayerFromAnotherProcess(path)
        try await check(inserted)
    }
}
