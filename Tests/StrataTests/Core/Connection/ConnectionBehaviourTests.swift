import Dispatch
import Foundation
import Strata
import StrataTestSupport
import Testing

/// Target queues, failed closes and backup progress.
struct ConnectionBehaviourTests {
    /// A serial queue that tells when code runs on it.
    private final class MarkedQueue: Sendable {
        let queue: DispatchQueue
        private let key = DispatchSpecificKey<Int>()

        init(_ label: String) {
            queue = DispatchQueue(label: label)
            queue.setSpecific(key: key, value: 1)
        }

        var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
    }

    /// A synchronous read, from async tests.
    private func syncRead<T>(_ reader: any DatabaseReader, _ value: (Database) throws -> T) throws -> T {
        try reader.read(value)
    }

    // MARK: - Target queues (item 7)

    @Test("Accesses run on the target queue, sync and async")
    func targetQueue() async throws {
        let target = MarkedQueue("target")
        let writeTarget = MarkedQueue("writeTarget")
        var configuration = Configuration()
        configuration.targetQueue = target.queue
        configuration.writeTargetQueue = writeTarget.queue
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        #expect(try syncRead(dbQueue) { _ in writeTarget.isCurrent })
        #expect(try await dbQueue.read { _ in writeTarget.isCurrent })
        try dbQueue.close()

        // A read-only queue uses targetQueue, never writeTargetQueue.
        configuration.readonly = true
        let readOnlyQueue = try DatabaseQueue(path: path, configuration: configuration)
        #expect(try syncRead(readOnlyQueue) { _ in target.isCurrent && !writeTarget.isCurrent })
        #expect(try await readOnlyQueue.read { _ in target.isCurrent && !writeTarget.isCurrent })

        // Pool readers use targetQueue.
        configuration.readonly = false
        let dbPool = try DatabasePool(path: directory.path("pool.sqlite"), configuration: configuration)
        #expect(try syncRead(dbPool) { _ in target.isCurrent })
        #expect(try await dbPool.write { _ in writeTarget.isCurrent })
    }

    @Test("A global target queue runs accesses one at a time")
    func globalTargetQueue() async throws {
        var configuration = Configuration()
        configuration.targetQueue = DispatchQueue.global(qos: .utility)
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try await dbQueue.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<50 {
                group.addTask {
                    try await dbQueue.write { try $0.execute(sql: "INSERT INTO t VALUES (?)", arguments: [i]) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 50)
    }

    // MARK: - Failed close (item 8)

    @Test("A close that fails on a live statement throws SQLITE_BUSY, logs it, and leaves the queue usable")
    func failedClose() async {
        await #expect(processExitsWith: .success) {
            let log = LockedBox<[String]>([])
            Database.logError = { _, message in log.append(message) }
            let dbQueue = try DatabaseQueue()
            var statement: Statement? = try dbQueue.inDatabase { try $0.makeStatement(sql: "SELECT 12345") }
            do {
                try dbQueue.close()
                exit(1)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            }
            guard log.value.contains("unfinalized statement: SELECT 12345") else { exit(2) }
            guard try dbQueue.read({ try Int.fetchOne($0, sql: "SELECT 1") }) == 1 else { exit(3) }
            statement = nil
            _ = statement
            try dbQueue.close()
            exit(0)
        }
    }

    @Test("A pool whose writer fails to close stays usable")
    func failedPoolClose() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        var statement: Statement? = try dbPool.writeWithoutTransaction { try $0.makeStatement(sql: "SELECT 1") }
        #expect(throws: DatabaseError.self) { try dbPool.close() }
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        statement = nil
        _ = statement
        try dbPool.close()
    }

    // MARK: - Backup progress (item 9)

    struct ProgressError: Error {}

    @Test("An error thrown by the progress of a completed backup is ignored")
    func backupProgressAfterCompletion() throws {
        let source = try DatabaseQueue()
        try source.write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
            for i in 0..<1000 {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [String(repeating: "x", count: i)])
            }
        }
        let destination = try DatabaseQueue()
        try source.backup(to: destination, pagesPerStep: 1) { progress in
            if progress.isCompleted { throw ProgressError() }
        }
        #expect(try destination.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1000)

        // Before completion, the error aborts the backup and is rethrown.
        let other = try DatabaseQueue()
        #expect(throws: ProgressError.self) {
            try source.backup(to: other, pagesPerStep: 1) { progress in
                if !progress.isCompleted { throw ProgressError() }
            }
        }
    }
}
