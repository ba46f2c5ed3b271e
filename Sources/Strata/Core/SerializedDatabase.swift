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
        return try queue.sync {
            defer { db.accessDidEnd() }
            return try body(db)
        }
    }

    /// Runs `body` synchronously, on the queue, or right away when already on it.
    func reentrantSync<T>(_ body: (Database) throws -> T) rethrows -> T {
        if isOnQueue {
            return try body(db)
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
        queue.async {
            defer { self.db.accessDidEnd() }
            body(self.db)
        }
    }

    /// Interrupts the running statement, from any thread.
    func interrupt() {
        db.interruptState.interrupt()
    }

    /// Runs `body` on the queue without blocking the calling task; task
    /// cancellation interrupts the running statement and throws
    /// `CancellationError`. A cancelled access rolls back its transaction.
    func execute<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try await execute(rollsBackCancelledTransaction: true, body)
    }

    /// Same as `execute(_:)`, but a cancelled access leaves the transaction
    /// open when `rollsBackCancelledTransaction` is false (snapshots keep theirs).
    func execute<T: Sendable>(
        rollsBackCancelledTransaction: Bool,
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try Task.checkCancellation()
        let state = db.interruptState
        let access = AsyncAccessState()
        // The dispatch block may outlive the resumption of the continuation: it
        // must not retain `body`, which callers may not let escape.
        let box = BodyBox(body)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                queue.async {
                    let db = self.db
                    var body = box.take()
                    // Cancelled before the access started: don't touch the database.
                    if !access.start(state) {
                        body = nil
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    let result = Result { try body!(db) }
                    body = nil
                    db.accessDidEnd()
                    let wasCancelled = access.finish(state)
                    if wasCancelled {
                        // Leave the connection usable: no transaction left open by a cancelled access.
                        if rollsBackCancelledTransaction && db.isInsideTransaction { try? db.rollback() }
                        switch result {
                        case .success(let value):
                            // The access completed before noticing cancellation: keep its value.
                            continuation.resume(returning: value)
                        case .failure:
                            continuation.resume(throwing: CancellationError())
                        }
                    } else {
                        continuation.resume(with: result)
                    }
                }
            }
        } onCancel: {
            access.cancel(state)
        }
    }
}

/// Coordinates an async access and the cancellation of its task.
final class AsyncAccessState: @unchecked Sendable {
    private let lock = NSLock()
    private var isCancelled = false
    private var isRunning = false
    private var isFinished = false

    /// Called on the queue when the access starts; false if already cancelled.
    func start(_ interruptState: InterruptState) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if isCancelled { return false }
        isRunning = true
        return true
    }

    /// Called on the queue when the access ends; returns whether it was cancelled.
    func finish(_ interruptState: InterruptState) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        isRunning = false
        isFinished = true
        if isCancelled {
            interruptState.resetCancellation()
        }
        return isCancelled
    }

    /// Called when the task is cancelled, from any thread.
    func cancel(_ interruptState: InterruptState) {
        lock.lock()
        defer { lock.unlock() }
        guard !isFinished else { return }
        isCancelled = true
        if isRunning {
            interruptState.cancel()
        }
    }
}

/// Holds the body of an async access until the queue takes it.
private final class BodyBox<T>: @unchecked Sendable {
    private var body: (@Sendable (Database) throws -> T)?

    init(_ body: @escaping @Sendable (Database) throws -> T) {
        self.body = body
    }

    func take() -> (@Sendable (Database) throws -> T)? {
        defer { body = nil }
        return body
    }
}
