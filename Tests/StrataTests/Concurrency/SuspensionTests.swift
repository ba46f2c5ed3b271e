import Foundation
@testable import Strata
import StrataTestSupport
import Testing

/// Database.suspendNotification and resumeNotification (DatabaseSharing article).
///
/// The notifications reach every database of the process that observes them:
/// the tests of this suite run one at a time.
@Suite(.serialized)
struct SuspensionTests {
    /// A pool on a file of `directory` that observes the suspension
    /// notifications, with an empty table `t(a)`.
    private func makeSuspendablePool(_ directory: TemporaryDirectory) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.observesSuspensionNotifications = true
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        return dbPool
    }

    @Test func suspendedPoolRejectsWritesAndAcceptsReads() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeSuspendablePool(directory)
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        defer { NotificationCenter.default.post(name: Database.resumeNotification, object: nil) }
        var caught = false
        do {
            try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        } catch DatabaseError.SQLITE_INTERRUPT, DatabaseError.SQLITE_ABORT {
            caught = true
        }
        #expect(caught)
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test func suspensionInterruptsAWriteTransaction() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeSuspendablePool(directory)
        defer { NotificationCenter.default.post(name: Database.resumeNotification, object: nil) }
        let error = #expect(throws: DatabaseError.self) {
            try dbPool.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
                try db.execute(sql: "INSERT INTO t VALUES (2)")
            }
        }
        #expect(error?.resultCode == .SQLITE_INTERRUPT || error?.resultCode == .SQLITE_ABORT)
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test("A suspended pool does not look for external changes, and sees them once resumed")
    func suspendedPoolLooksForExternalChangesOnceResumed() async throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try ExternalChangeWriter.poolWAL.open(directory) {
            $0.observesSuspensionNotifications = true
        }
        let values = ObservedValues<Int>()
        let cancellable = externalPlayerCount.start(
            in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: values)
        defer { cancellable.cancel() }
        await values.waitForValues(1)
        let versionBefore = try await writer.writeWithoutTransaction { db in
            db.observationBroker?.externalChangeMonitor?.dataVersion
        }
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        defer { NotificationCenter.default.post(name: Database.resumeNotification, object: nil) }
        try await insertPlayerFromAnotherProcess(path)
        // Reading the data version could take a lock: a check while
        // suspended reads nothing.
        let versionWhileSuspended = try await writer.writeWithoutTransaction { db in
            let monitor = db.observationBroker?.externalChangeMonitor
            monitor?.check(db)
            return monitor?.dataVersion
        }
        #expect(versionWhileSuspended == versionBefore)
        #expect(values.values == [0])
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        #expect(await values.wait { $0.last == 1 })
    }

    @Test func databasesWithoutTheFlagIgnoreSuspension() throws {
        let dbQueue = try DatabaseQueue()
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        defer { NotificationCenter.default.post(name: Database.resumeNotification, object: nil) }
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }
}
