import Foundation
@testable import Strata
import StrataTestSupport
import Testing

/// Observing another process that writes steadily, with the default busy
/// mode: the locks of the other process are waited for, not thrown.
@Suite("External changes: locks of other processes")
struct ExternalChangeBusyTests {
    /// The configuration of a database that observes external changes and
    /// keeps every other default.
    private static func observingDefaults(_ configuration: inout Configuration) {
        configuration = Configuration()
        configuration.observesExternalChanges = true
    }

    @Test(
        "With the default busy mode, an observation sees every commit of a process that writes steadily, and never fails",
        arguments: ExternalChangeWriter.allCases)
    func steadyWriterWithDefaultBusyMode(_ kind: ExternalChangeWriter) async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try kind.open(directory, configure: Self.observingDefaults)
        let (cancellable, values) = await startObservingPlayerCount(writer)

        // Another connection holds the write lock while the other process
        // opens, and releases it once that process says it opens: the
        // process, with the default busy mode, waits for it.
        var lockerConfiguration = Configuration()
        lockerConfiguration.allowsUnsafeTransactions = true
        let locker = try DatabaseQueue(path: path, configuration: lockerConfiguration)
        try await locker.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
        let helper = try ExternalWriterProcess(["write-for", path, "2", "player"], watchesOutput: true)
        try await helper.waitForOutput("opening")
        try await locker.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }

        // The other process inserts rows, one transaction each, for 2 seconds.
        let output = try await helper.waitForExit()
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("inserted=") })
        let inserted = try #require(Int(line.dropFirst("inserted=".count)))
        #expect(inserted > 0)
        #expect(
            await values.wait(timeout: .seconds(20)) { $0.last == inserted },
            "inserted \(inserted), last observed \(values.values.last ?? -1)")
        #expect(values.errors.isEmpty, "\(values.errors)")
        // The initial value, then the writes' (how many along the way
        // depends on the machine's load: in rollback-journal mode, a reader
        // only gets in between two of the other process's transactions), in
        // order.
        #expect(values.values.count >= 2, "\(values.values.count) values")
        #expect(values.values == values.values.sorted())
        let fresh = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
        #expect(fresh == inserted)
        cancellable.cancel()
    }

    @Test("Observing external changes makes the default busy mode wait, and keeps the others")
    func waitsForExternalLocks() {
        var configuration = Configuration()
        #expect(!configuration.waitsForExternalLocks)
        configuration.observesExternalChanges = true
        #expect(configuration.waitsForExternalLocks)
        #expect(configuration.externalChangesBusyTimeout == 5)
        configuration.busyMode = .timeout(1)
        #expect(!configuration.waitsForExternalLocks)
        configuration.busyMode = .callback { _ in false }
        #expect(!configuration.waitsForExternalLocks)
    }

    @Test("The wait is bounded: a connection that opens while another holds a lock longer throws SQLITE_BUSY after it")
    func waitIsBounded() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("locked.sqlite")
        var lockerConfiguration = Configuration()
        lockerConfiguration.allowsUnsafeTransactions = true
        let locker = try DatabaseQueue(path: path, configuration: lockerConfiguration)
        // Rollback-journal mode: the exclusive lock keeps readers out.
        try locker.writeWithoutTransaction { db in try db.execute(sql: "CREATE TABLE t(a); BEGIN EXCLUSIVE") }

        // Without the setting, GRDB's default: SQLITE_BUSY at once.
        let error = try #require(throws: DatabaseError.self) { try DatabaseQueue(path: path) }
        #expect(error.resultCode == .SQLITE_BUSY)

        var configuration = Configuration()
        configuration.observesExternalChanges = true
        configuration.externalChangesBusyTimeout = 0.3
        let clock = ContinuousClock()
        let start = clock.now
        let waitedError = try #require(throws: DatabaseError.self) {
            try DatabaseQueue(path: path, configuration: configuration)
        }
        #expect(waitedError.resultCode == .SQLITE_BUSY)
        #expect(clock.now - start >= .milliseconds(300))

        try locker.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }
}
