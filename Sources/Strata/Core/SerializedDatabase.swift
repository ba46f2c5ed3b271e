import Dispatch
import Foundation

/// A connection and the serial dispatch queue that owns it: the connection is
/// only touched on that queue.
final class SerializedDatabase: @unchecked Sendable {
    /// The connection; only touched on `queue`.
    private let db: Database
    let queue: DispatchQueue
    let configuration: Configuration
    let path: String
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    /// Runs async accesses on `queue`, in their callers' tasks.
    private let executor: DatabaseTaskExecutor
    /// Whether this is a reader of a pool, for the integrations.
    private let role: DatabaseAccessRole

    /// - Parameters:
    ///   - label: the queue label; `configuration.label ?? defaultLabel` when nil.
    ///   - isReader: reader connections of a pool use `targetQueue`, not `writeTargetQueue`.
    init(
        path: String, configuration: Configuration, defaultLabel: String, qos: DispatchQoS,
        label: String? = nil, isReader: Bool = false
    ) throws {
        let label = label ?? configuration.label ?? defaultLabel
        self.path = path
        self.configuration = configuration
        self.queue = DispatchQueue(
            label: label, qos: qos,
            target: isReader ? configuration.targetQueue : configuration.writeTargetQueue ?? configuration.targetQueue)
        self.executor = DatabaseTaskExecutor(queue: queue)
        self.role = isReader ? .reader : .writer
        self.db = try Database(path: path, description: label, configuration: configuration)
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    /// Whether the current code runs on this connection's queue.
    var isOnQueue: Bool {
        DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self)
    }

    /// Runs `body` synchronously on the queue. Reentrant calls are a programmer error.
    func sync<T>(_ body: (Database) throws -> T) rethrows -> T {
        if isOnQueue {
            fatalError("Database methods are not reentrant.")
        }
        if db.instrument != nil {
            return try instrumentedSync(body)
        }
        return try queue.sync {
            defer { db.accessDidEnd() }
            return try body(db)
        }
    }

    /// `sync`, reported to the integrations.
    private func instrumentedSync<T>(_ body: (Database) throws -> T) rethrows -> T {
        let access = willWait()
        return try queue.sync {
            defer { db.accessDidEnd() }
            return try instrumented(access, body)
        }
    }

    /// Starts reporting an access, on the caller's thread or task.
    private func willWait() -> DatabaseAccessContext {
        let access = DatabaseAccessContext(role: role, label: queue.label)
        db.instrument?.accessWillWait(access)
        return access
    }

    /// Runs an access on the queue, reported to the integrations.
    private func instrumented<T>(_ access: DatabaseAccessContext, _ body: (Database) throws -> T) rethrows -> T {
        let instrument = db.instrument!
        access.start = DispatchTime.now().uptimeNanoseconds
        let enclosing = db.currentAccess
        db.currentAccess = access
        defer { db.currentAccess = enclosing }
        instrument.accessDidStart(access, db)
        do {
            let result = try body(db)
            instrument.accessDidEnd(access, db, error: nil)
            return result
        } catch {
            instrument.accessDidEnd(access, db, error: error)
            throw error
        }
    }

    /// Runs `body` synchronously, on the queue, or right away when already on it.
    func reentrantSync<T>(_ body: (Database) throws -> T) rethrows -> T {
        if isOnQueue {
            return try body(db)
        }
        if db.instrument != nil {
            return try instrumentedSync(body)
        }
        return try queue.sync {
            defer { db.accessDidEnd() }
            return try body(db)
        }
    }

    /// Runs `body` on the queue, from code that already runs on it.
    func execute<T>(_ body: (Database) throws -> T) rethrows -> T {
        precondition(isOnQueue, "Must be called from the database queue")
        return try body(db)
    }

    /// Runs `body` asynchronously on the queue.
    func async(_ body: @escaping @Sendable (Database) -> Void) {
        if db.instrument != nil {
            let access = willWait()
            queue.async {
                defer { self.db.accessDidEnd() }
                self.instrumented(access, body)
            }
            return
        }
        queue.async {
            defer { self.db.accessDidEnd() }
            body(self.db)
        }
    }

    /// Interrupts the running statement, from any thread.
    func interrupt() {
        db.interruptState.interrupt()
    }

    /// Runs `body` on the queue, in the calling task, without blocking it.
    /// Task cancellation interrupts the running statement and throws
    /// `CancellationError`. A cancelled access rolls back its transaction.
    func execute<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await execute(rollsBackCancelledTransaction: true, body)
    }

    /// Same as `execute(_:)`, but a cancelled access leaves the transaction
    /// open when `rollsBackCancelledTransaction` is false (snapshots keep theirs).
    ///
    /// `body` runs in the caller's task (it sees its task-local values and
    /// `Task.isCancelled`), on the connection's queue: the task prefers the
    /// queue's executor for the duration of the access.
    func execute<T: Sendable>(
        rollsBackCancelledTransaction: Bool,
        _ body: @Sendable (Database) throws -> T
    ) async throws -> T {
        // Cancelled before the access started: don't touch the database.
        try Task.checkCancellation()
        let access = AsyncAccessState(db.interruptState)
        let instrumentedAccess = db.instrument != nil ? willWait() : nil
        return try await withTaskCancellationHandler {
            try await withTaskExecutorPreference(executor) {
                try await runAccess(
                    access, instrumentedAccess, rollsBackCancelledTransaction: rollsBackCancelledTransaction, body)
            }
        } onCancel: {
            access.cancel()
        }
    }

    /// The part of an async access that runs on the queue.
    @concurrent
    private func runAccess<T: Sendable>(
        _ access: AsyncAccessState,
        _ instrumentedAccess: DatabaseAccessContext?,
        rollsBackCancelledTransaction: Bool,
        _ body: @Sendable (Database) throws -> T
    ) async throws -> T {
        assert(isOnQueue, "async accesses run on the connection's queue")
        guard access.start() else { throw CancellationError() }
        var result: Result<T, any Error>
        if let instrumentedAccess {
            result = Result { try instrumented(instrumentedAccess, body) }
        } else {
            result = Result { try body(db) }
        }
        if access.finish() {
            // Leave the connection as the access found it.
            db.clearCancellation()
            if rollsBackCancelledTransaction && db.isInsideTransaction {
                db.rollbackAfterError()
                result = .failure(CancellationError())
            }
            if case .failure = result {
                result = .failure(CancellationError())
            }
            // Else the access completed before noticing cancellation: keep its value.
        }
        db.accessDidEnd()
        return try result.get()
    }
}

/// Runs the jobs of the tasks that access a connection on its dispatch queue.
final class DatabaseTaskExecutor: TaskExecutor {
    let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// Coordinates an async access and the cancellation of its task: only a
/// running access is interrupted, and a cancellation after its end is ignored.
final class AsyncAccessState: @unchecked Sendable {
    private let lock = NSLock()
    private let interruptState: InterruptState
    private var isCancelled = false
    private var isRunning = false
    private var isFinished = false

    init(_ interruptState: InterruptState) {
        self.interruptState = interruptState
    }

    /// Called on the queue when the access starts; false if already cancelled.
    func start() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if isCancelled { return false }
        isRunning = true
        return true
    }

    /// Called on the queue when the access ends; returns whether it was
    /// cancelled. No interruption happens after it returns.
    func finish() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        isRunning = false
        isFinished = true
        return isCancelled
    }

    /// Called when the task is cancelled, from any thread.
    func cancel() {
        lock.lock()
        defer { lock.unlock() }
        guard !isFinished else { return }
        isCancelled = true
        if isRunning {
            interruptState.cancel()
        }
    }
}
