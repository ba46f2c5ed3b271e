import Dispatch
import Foundation
import Strata
import StrataTestSupport
import Testing

// A global dispatch queue given as target queue is the queue accesses run on.
// A failed dispatch precondition stops the process: each check runs in a
// process of its own.

/// Stops the process unless the code runs on the global queue of `qos`.
private func assertOnGlobalQueue(_ qos: DispatchQoS.QoSClass) {
    dispatchPrecondition(condition: .onQueue(DispatchQueue.global(qos: qos)))
}

struct GlobalTargetQueueTests {
    /// Synchronous accesses of a queue whose target is the background queue.
    private static func checkQueue() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.targetQueue = DispatchQueue.global(qos: .background)
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            assertOnGlobalQueue(.background)
            try db.execute(sql: "CREATE TABLE t(a)")
        }
        try dbQueue.read { _ in assertOnGlobalQueue(.background) }
        return dbQueue
    }

    @Test("B02: a database queue runs its write and read on a global target queue")
    func queueOnGlobalTargetQueue() async {
        await #expect(processExitsWith: .success) {
            let dbQueue = try GlobalTargetQueueTests.checkQueue()
            try await dbQueue.write { _ in assertOnGlobalQueue(.background) }
            try await dbQueue.read { _ in assertOnGlobalQueue(.background) }
            exit(0)
        }
    }

    /// Reads of a read-only queue whose target is the background queue, and
    /// whose write target is another queue.
    private static func checkReadOnlyQueue(_ path: String) throws {
        try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE t(a)") }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.targetQueue = DispatchQueue.global(qos: .background)
        configuration.writeTargetQueue = DispatchQueue(label: "writeTarget")
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.read { db in
            assertOnGlobalQueue(.background)
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
        }
    }

    @Test("B02: a read-only database queue runs on its global target queue, not on writeTargetQueue")
    func readOnlyQueueOnGlobalTargetQueue() async throws {
        try await TemporaryDirectory.withDatabasePath { path in
            await #expect(processExitsWith: .success) { [path = path as String] in
                try GlobalTargetQueueTests.checkReadOnlyQueue(path)
                exit(0)
            }
        }
    }

    /// Synchronous accesses of a pool whose write target is the utility
    /// queue, and whose target is the background queue.
    private static func checkPool(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.targetQueue = DispatchQueue.global(qos: .background)
        configuration.writeTargetQueue = DispatchQueue.global(qos: .utility)
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in
            assertOnGlobalQueue(.utility)
            try db.execute(sql: "CREATE TABLE t(a)")
        }
        try dbPool.read { db in
            assertOnGlobalQueue(.background)
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
        }
        try dbPool.makeSnapshot().read { _ in assertOnGlobalQueue(.background) }
        return dbPool
    }

    @Test("B02: a database pool writes on its global writeTargetQueue and reads on its global targetQueue")
    func poolOnGlobalTargetQueues() async throws {
        try await TemporaryDirectory.withDatabasePath { path in
            await #expect(processExitsWith: .success) { [path = path as String] in
                let dbPool = try GlobalTargetQueueTests.checkPool(path)
                try await dbPool.write { _ in assertOnGlobalQueue(.utility) }
                try await dbPool.read { _ in assertOnGlobalQueue(.background) }
                exit(0)
            }
        }
    }
}
