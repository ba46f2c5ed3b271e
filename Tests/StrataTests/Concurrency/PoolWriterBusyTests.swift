import Dispatch
import Foundation
import Testing

@testable import Strata
import StrataTestSupport

/// A pool's writer with the default busy mode tries again, briefly, to lock
/// the database (see ``Database/retryBrieflyWhenBusy(onRetry:)``).
@Suite("Busy locks of a pool's writer")
struct PoolWriterBusyTests {
    /// The write lock of a database, held by another connection until
    /// `release` is signaled; `released` is signaled after its commit.
    private struct HeldWriteLock {
        let release = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)

        /// Returns once the lock is held.
        init(path: String) {
            let locked = DispatchSemaphore(value: 0)
            let (release, released) = (release, released)
            Thread.detachNewThread {
                do {
                    let other = try DatabaseQueue(path: path)
                    try other.writeWithoutTransaction { db in
                        try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
                        locked.signal()
                        _ = release.wait(timeout: .now() + 60)
                        try db.execute(sql: "COMMIT")
                    }
                } catch {
                    Issue.record(error)
                    locked.signal()
                }
                released.signal()
            }
            locked.wait()
        }

        /// Lets the other connection commit, and waits until it has.
        func releaseAndWait() {
            release.signal()
            released.wait()
        }
    }

    private func makePool(_ directory: TemporaryDirectory, configuration: Configuration = Configuration()) throws
        -> DatabasePool
    {
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        return dbPool
    }

    private func insert(_ dbPool: DatabasePool) throws {
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
    }

    @Test("A lock released while the writer tries again does not fail the write", .timeLimit(.minutes(1)))
    func lockReleasedSoon() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePool(directory)
        let lock = HeldWriteLock(path: dbPool.path)
        let retries = LockedBox<[Int]>([])
        dbPool.writeWithoutTransaction { db in
            db.retryBrieflyWhenBusy { count in
                retries.withLock { $0.append(count) }
                // The other connection commits before the next try.
                if count == 0 { lock.releaseAndWait() }
            }
        }
        try insert(dbPool)
        #expect(retries.withLock { $0 } == [0])
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test("A lock held longer still throws SQLITE_BUSY, after a few tries", .timeLimit(.minutes(1)))
    func lockHeldLonger() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePool(directory)
        let lock = HeldWriteLock(path: dbPool.path)
        defer { lock.releaseAndWait() }
        let start = DispatchTime.now()
        #expect {
            try insert(dbPool)
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_BUSY
        }
        // About 10 milliseconds of retries; a generous bound for slow machines.
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        #expect(elapsed < 5)
    }

    @Test("The pool's busy mode of the configuration replaces the brief retries")
    func configuredBusyModeWins() throws {
        let directory = try TemporaryDirectory()
        let calls = LockedBox(0)
        var configuration = Configuration()
        configuration.busyMode = .callback { _ in
            calls.withLock { $0 += 1 }
            return false
        }
        let dbPool = try makePool(directory, configuration: configuration)
        let lock = HeldWriteLock(path: dbPool.path)
        defer { lock.releaseAndWait() }
        #expect(throws: DatabaseError.self) {
            try insert(dbPool)
        }
        #expect(calls.withLock { $0 } == 1)
    }
}
