import Dispatch
import Foundation
import Strata
import StrataTestSupport
import Testing

/// Task cancellation interrupts the user's statements only: the connection
/// stays usable, nothing crashes, observations go on.
@Suite("Task cancellation")
struct CancellationTests {
    // MARK: - A. A cancelled access leaves the connection writable

    @Test("A cancelled read leaves a queue writable (the issue's reproduction)")
    func cancelledReadLeavesQueueWritable() async throws {
        let directory = try TemporaryDirectory()
        let query = LongQuery()
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"), configuration: query.configuration)
        try await dbQueue.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        let task = try await query.startRead(dbQueue)
        task.cancel()
        _ = await task.result
        try await dbQueue.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try await dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test(
        "A read cancelled while its statement runs leaves the connection writable", arguments: AsyncWriterKind.allCases)
    func readCancelledWhileRunning(kind: AsyncWriterKind) async throws {
        let directory = try TemporaryDirectory()
        let query = LongQuery()
        let writer = try await kind.openWithTable(directory, configuration: query.configuration)
        let task = try await query.startRead(writer)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        try await writer.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        try await writer.writeWithoutTransaction { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 2)
    }

    @Test("A write cancelled on a pool with an observation running leaves the writer writable")
    func cancelledWriteWithObservation() async throws {
        let directory = try TemporaryDirectory()
        let query = LongQuery()
        let dbPool = try await AsyncWriterKind.pool.openWithTable(directory, configuration: query.configuration)
        let observed = ObservedValues<Int>()
        let cancellable = observeRowCount(of: "t", in: dbPool, recordingIn: observed)
        defer { cancellable.cancel() }
        #expect(await observed.wait { $0 == [0] })

        let task = try await query.startInsert(dbPool)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        for value in 1...3 {
            try await dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (?)", arguments: [value]) }
        }
        #expect(await observed.wait { $0.last == 3 })
        #expect(observed.errors.isEmpty)
    }

    // MARK: - B. Cancelled writes never crash

    @Test(
        "20,000 cancelled writes: each one a value or CancellationError, never a crash",
        .timeLimit(.minutes(3)), arguments: AsyncWriterKind.allCases)
    func manyCancelledWrites(kind: AsyncWriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try await kind.openWithTable(directory)
        var written = 0
        var cancelled = 0
        for i in 0..<20_000 {
            let task = Task {
                try await writer.write { try $0.execute(sql: "INSERT INTO t VALUES (?)", arguments: [i]) }
            }
            await Task.yield()
            task.cancel()
            switch await task.result {
            case .success: written += 1
            case .failure(let error):
                #expect(error is CancellationError, "\(error)")
                cancelled += 1
            }
        }
        #expect(written + cancelled == 20_000)
        let count = try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! }
        #expect(count == written)
        try await writer.write { try $0.execute(sql: "INSERT INTO t VALUES (-1)") }
    }

    // MARK: - C. Observations survive other tasks' cancellation

    @Test(
        "An observation goes on when the write that triggered its fetch is cancelled",
        arguments: AsyncWriterKind.allCases)
    func observationSurvivesCancelledWrite(kind: AsyncWriterKind) async throws {
        let directory = try TemporaryDirectory()
        let gate = FetchGate()
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(
                function: DatabaseFunction("gate", argumentCount: 1, pure: false) { values in
                    gate.pass(Int.fromDatabaseValue(values[0]) ?? 0)
                    return 1
                })
        }
        let writer = try await kind.openWithTable(directory, configuration: configuration)
        let observed = ObservedValues<Int>()
        let cancellable =
            ValueObservation
            .tracking { db in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
                _ = try Int.fetchOne(db, sql: "SELECT gate(?)", arguments: [count])
                // Statements after the blocking one must run too.
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
            }
            .start(
                in: writer, scheduling: .async(onQueue: DispatchQueue(label: "observation")), recordingIn: observed)
        defer { cancellable.cancel() }
        #expect(await observed.wait { $0 == [0] })

        // The fetch that follows this write blocks until the write's task is cancelled.
        gate.blocks(whenCountIs: 1)
        let task = Task { try await writer.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") } }
        try await gate.waitUntilBlocked()
        task.cancel()
        gate.open()
        _ = await task.result
        try await writer.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(await observed.wait { $0.last == 2 })
        #expect(observed.errors.isEmpty)
    }

    // MARK: - 2. A cancelled write rolls back

    @Test(
        "A write cancelled after its closure returned rolls back and throws CancellationError",
        arguments: AsyncWriterKind.allCases)
    func writeCancelledBeforeCommit(kind: AsyncWriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try await kind.openWithTable(directory)
        let task = TaskCanceller.task { canceller in
            try await writer.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                canceller.cancel()
                return 42
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
        try await writer.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
    }

    @Test("A cancelled access does not touch the database", arguments: AsyncWriterKind.allCases)
    func cancelledBeforeStart(kind: AsyncWriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try await kind.openWithTable(directory)
        let ran = LockedBox(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await writer.write { db in
                ran.value = true
                try db.execute(sql: "INSERT INTO t VALUES (1)")
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!ran.value)
        #expect(try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test("A read-only access nested in a cancelled write restores writes", arguments: AsyncWriterKind.allCases)
    func readOnlyInCancelledAccess(kind: AsyncWriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try await kind.openWithTable(directory)
        let task = TaskCanceller.task { canceller in
            try await writer.writeWithoutTransaction { db in
                try db.readOnly {
                    canceller.cancel()
                    _ = try Int.fetchOne(db, sql: "SELECT 1")
                }
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        try await writer.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        try await writer.writeWithoutTransaction { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
    }

    // MARK: - 3. Rollbacks complete

    @Test("A rollback completes after interrupt() with statements still running", arguments: [false, true])
    func rollbackAfterInterrupt(fts5: Bool) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            if fts5 {
                try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts5(a)")
            } else {
                try db.execute(sql: "CREATE TABLE t(a)")
            }
            for i in 0..<100 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["word\(i)"]) }
        }
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES ('new')")
                let cursor = try String.fetchCursor(db, sql: "SELECT a FROM t")
                _ = try cursor.next()
                dbQueue.interrupt()
                throw Failure()
            }
        }
        let count = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
        #expect(count == 100)
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t VALUES ('after')") }
    }

    @Test("A savepoint rolls back in a cancelled access", arguments: AsyncWriterKind.allCases)
    func savepointInCancelledAccess(kind: AsyncWriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try await kind.openWithTable(directory)
        struct Failure: Error {}
        let task = TaskCanceller.task { canceller in
            try await writer.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (2)")
                    canceller.cancel()
                    throw Failure()
                }
            }
        }
        await #expect(throws: (any Error).self) { try await task.value }
        #expect(try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
        try await writer.write { try $0.execute(sql: "INSERT INTO t VALUES (3)") }
    }

    // MARK: - 4. Accesses run in the caller's task

    enum Local {
        @TaskLocal static var requestID = "none"
    }

    @Test("Async accesses see the caller's task-local values", arguments: AsyncWriterKind.allCases)
    func taskLocalValues(kind: AsyncWriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.open(directory)
        let seen = try await Local.$requestID.withValue("r-42") {
            let read = try await writer.read { _ in Local.requestID }
            let write = try await writer.write { _ in Local.requestID }
            let unsafeRead = try await writer.unsafeRead { _ in Local.requestID }
            let barrier = try await writer.barrierWriteWithoutTransaction { _ in Local.requestID }
            return [read, write, unsafeRead, barrier]
        }
        if kind.runsInCallersTask {
            #expect(seen == ["r-42", "r-42", "r-42", "r-42"])
        } else {
            // Older systems: the access runs on the queue, outside of the task.
            #expect(seen == ["none", "none", "none", "none"])
        }
    }

    @Test("Task.isCancelled inside an access is the caller's", arguments: AsyncWriterKind.allCases)
    func isCancelledIsTheCallers(kind: AsyncWriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.open(directory)
        let task = Task {
            try await writer.read { _ in
                let before = Task.isCancelled
                withUnsafeCurrentTask { $0?.cancel() }
                return [before, Task.isCancelled]
            }
        }
        // The read completed: its value is kept despite the cancellation.
        if kind.runsInCallersTask {
            #expect(try await task.value == [false, true])
        } else {
            // Older systems: the access runs outside of the task, and
            // `withUnsafeCurrentTask` finds none to cancel.
            #expect(try await task.value == [false, false])
        }
    }

    @Test(
        "Async accesses run in the caller's task, or outside of any task on older systems",
        arguments: AsyncWriterKind.allCases)
    func accessPath(kind: AsyncWriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.open(directory)
        let inTask = try await writer.read { _ in withUnsafeCurrentTask { $0 != nil } }
        #expect(inTask == kind.runsInCallersTask)
    }

    @Test(
        "A task cancelled before its access starts throws CancellationError, whenever it is cancelled",
        arguments: AsyncWriterKind.allCases)
    func cancelledWhileWaiting(kind: AsyncWriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try await kind.openWithTable(directory)
        // A sync write holds the writer while the async one waits behind it.
        // The test waits for it without blocking a thread of the tasks' pool.
        let holding = Waitable(false)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? writer.write { _ in
                holding.update { $0 = true }
                release.wait()
            }
        }
        try await holding.wait("a sync write holds the writer") { $0 }
        let task = Task {
            try await writer.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        task.cancel()
        release.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test(
        "A cancellation after an access returned does not affect the next access", arguments: AsyncWriterKind.allCases)
    func cancellationAfterAccess(kind: AsyncWriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try await kind.openWithTable(directory)
        let task = Task {
            let count = try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! }
            withUnsafeCurrentTask { $0?.cancel() }
            return count
        }
        #expect(try await task.value == 0)
        try await writer.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }
}

/// Cancels a task from inside one of its accesses, whether the access runs
/// in the task or, on older systems, outside of it.
private final class TaskCanceller: @unchecked Sendable {
    private let attached = DispatchSemaphore(value: 0)
    private var cancelTask: (@Sendable () -> Void)?

    /// Starts `operation` in a new task, with the canceller of this task:
    /// `operation` cancels its own task from inside an access, on both
    /// access paths.
    static func task<Success: Sendable>(
        _ operation: @escaping @Sendable (TaskCanceller) async throws -> Success
    ) -> Task<Success, any Error> {
        let canceller = TaskCanceller()
        let task = Task { try await operation(canceller) }
        canceller.attach(task)
        return task
    }

    func attach<Success, Failure>(_ task: Task<Success, Failure>) {
        cancelTask = { task.cancel() }
        attached.signal()
    }

    /// Waits until the task is attached, then cancels it.
    func cancel() {
        attached.wait()
        cancelTask?()
        attached.signal()
    }
}

/// Blocks an observation fetch until the test opens the gate.
private final class FetchGate: @unchecked Sendable {
    private let lock = TestLock()
    private var blockingCount: Int?
    private let blocked = Waitable(false)
    private let opened = DispatchSemaphore(value: 0)

    /// The next fetch that sees `count` rows blocks.
    func blocks(whenCountIs count: Int) { lock.withLock { blockingCount = count } }

    /// Called by the fetch: blocks when it sees the chosen count.
    func pass(_ count: Int) {
        let blocks = lock.withLock { () -> Bool in
            guard blockingCount == count else { return false }
            blockingCount = nil
            return true
        }
        guard blocks else { return }
        blocked.update { $0 = true }
        // Bounded, so that a failed test does not leave the writer blocked.
        _ = opened.wait(timeout: .now() + 60)
    }

    /// Returns once a fetch is blocked, without blocking a thread.
    func waitUntilBlocked() async throws {
        try await blocked.wait("a fetch is blocked") { $0 }
    }

    func open() { opened.signal() }
}
