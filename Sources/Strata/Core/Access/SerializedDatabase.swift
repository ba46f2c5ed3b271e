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
    /// Runs async accesses on `queue`, in their callers' tasks: a
    /// `DatabaseTaskExecutor` where the system has task executors, nil
    /// elsewhere. Typed `AnyObject` because a stored property can't have a
    /// type that needs a newer system than the deployment target.
    private let executor: AnyObject?
    /// Whether this is a reader of a pool, for the integrations.
    private let role: DatabaseAccessRole

    /// - Parameters:
    ///   - label: the queue label; `configuration.label ?? defaultLabel` when nil.
    ///   - qos: the quality of service of the queue, unless the configuration
    ///     gives it a target queue (it then runs at the target's).
    ///   - isReader: reader connections of a pool use `targetQueue`, not `writeTargetQueue`.
    ///   - writer: the writer of the pool of a reader: it stays open until
    ///     this connection is closed.
    init(
        path: String, configuration: Configuration, defaultLabel: String, qos: DispatchQoS,
        label: String? = nil, isReader: Bool = false, closingBefore writer: SerializedDatabase? = nil
    ) throws {
        let label = label ?? configuration.label ?? defaultLabel
        self.path = path
        self.configuration = configuration
        let target = isReader ? configuration.targetQueue : configuration.writeTargetQueue ?? configuration.targetQueue
        if let target {
            // No QoS: with one, a global target queue is replaced by the
            // global queue of that QoS, and the work runs elsewhere.
            self.queue = DispatchQueue(label: label, target: target)
        } else {
            self.queue = DispatchQueue(label: label, qos: qos)
        }
        if configuration.usesTaskExecutorForAsyncAccesses,
            #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        {
            self.executor = DatabaseTaskExecutor(queue: queue)
        } else {
            self.executor = nil
        }
        self.role = isReader ? .reader : .writer
        self.db = try Database(path: path, description: label, configuration: configuration)
        db.closesBefore = writer
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
        db.serializedDatabase = self
    }

    /// Whether the current code runs on this connection's queue.
    var isOnQueue: Bool {
        DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self)
    }

    /// `queue.sync(execute:)`, for a value of any type. Dispatch's generic
    /// `sync` carries the value out in an optional, and where `T` is not
    /// known at compile time (accesses are not inlined into their callers),
    /// each use of `T?` looked its type up in the runtime's cache: with
    /// its two extra closures, a tenth of the fixed cost of a one-row
    /// write access (issue 46). This one writes the value in place.
    @inline(__always)
    private func syncOnQueue<T>(_ work: () throws -> T) rethrows -> T {
        try Self.sync(on: queue, work, rescue: { throw $0 })
    }

    /// `syncOnQueue(_:)`: the error of `work` is rethrown by `rescue`, so
    /// that the function rethrows. The value is written on the stack when
    /// it fits in four words (nearly always), and on the heap otherwise.
    /// Not `withUnsafeTemporaryAllocation`, which looks up the type of a
    /// `Result` of `T`.
    private static func sync<T>(
        on queue: DispatchQueue, _ work: () throws -> T, rescue: (any Error) throws -> T
    ) rethrows -> T {
        var words: (Int, Int, Int, Int) = (0, 0, 0, 0)
        if MemoryLayout<T>.size <= MemoryLayout.size(ofValue: words)
            && MemoryLayout<T>.alignment <= MemoryLayout<Int>.alignment
        {
            return try withUnsafeMutableBytes(of: &words) { bytes in
                try sync(on: queue, into: bytes.baseAddress!, work, rescue: rescue)
            }
        }
        let storage = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
        defer { storage.deallocate() }
        return try sync(on: queue, into: storage, work, rescue: rescue)
    }

    /// Runs `work` on the queue, and moves its value out of `storage`.
    private static func sync<T>(
        on queue: DispatchQueue, into storage: UnsafeMutableRawPointer, _ work: () throws -> T,
        rescue: (any Error) throws -> T
    ) rethrows -> T {
        var failure: (any Error)?
        // Dispatch's non-generic `sync`, for a closure that returns nothing.
        queue.sync {
            do {
                storage.initializeMemory(as: T.self, to: try work())
            } catch {
                failure = error
            }
        }
        if let failure { return try rescue(failure) }
        return storage.assumingMemoryBound(to: T.self).move()
    }

    /// Runs `body` synchronously on the queue. Reentrant calls are a programmer error.
    func sync<T>(_ body: (Database) throws -> T) rethrows -> T {
        if isOnQueue {
            fatalError("Database methods are not reentrant.")
        }
        return try syncFromOutsideQueue(body)
    }

    /// `sync(_:)`, for callers that checked already that the current code
    /// does not run on the queue: a pool checks that it runs in none of its
    /// accesses (it marks the queues of its connections). One
    /// `DispatchQueue.getSpecific` fewer per access.
    func syncFromOutsideQueue<T>(_ body: (Database) throws -> T) rethrows -> T {
        if db.instrument != nil {
            return try instrumentedSync(body)
        }
        return try syncOnQueue {
            defer { db.accessDidEnd() }
            return try body(db)
        }
    }

    /// `sync`, reported to the integrations.
    private func instrumentedSync<T>(_ body: (Database) throws -> T) rethrows -> T {
        let access = willWait()
        return try syncOnQueue {
            defer { db.accessDidEnd() }
            return try instrumented(access, body)
        }
    }

    /// Starts reporting an access, on the caller's thread or task.
    private func willWait() -> DatabaseAccessContext {
        let access = DatabaseAccessContext(role: role, label: db.description, timed: db.instrumentTimesAccesses)
        db.instrument?.accessWillWait(access)
        return access
    }

    /// Runs an access on the queue, reported to the integrations.
    private func instrumented<T>(_ access: DatabaseAccessContext, _ body: (Database) throws -> T) rethrows -> T {
        let instrument = db.instrument!
        if access.waitStart != 0 {
            access.start = DispatchTime.now().uptimeNanoseconds
        }
        let enclosing = db.currentAccess
        let enclosingTiming = db.instrumentStatementTiming
        db.currentAccess = access
        defer {
            db.currentAccess = enclosing
            db.instrumentStatementTiming = enclosingTiming
        }
        instrument.accessDidStart(access, db)
        // Decided once per access: an instrument whose output would be
        // thrown away (a logger above `debug`, a no-op tracer) asks for no
        // statement of the access.
        db.instrumentStatementTiming = instrument.statementTiming(during: access)
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
        return try syncOnQueue {
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

    /// Runs `body` on the queue, without blocking the calling task.
    /// Task cancellation interrupts the running statement and throws
    /// `CancellationError`. A cancelled access rolls back its transaction.
    func execute<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await execute(rollsBackCancelledTransaction: true, body)
    }

    /// Same as `execute(_:)`, but a cancelled access leaves the transaction
    /// open when `rollsBackCancelledTransaction` is false (snapshots keep theirs).
    ///
    /// Where the system has task executors (macOS 15, iOS 18, tvOS 18,
    /// watchOS 11, and Linux), `body` runs in the caller's task (it sees its
    /// task-local values and `Task.isCancelled`), on the connection's queue:
    /// the task prefers the queue's executor for the duration of the access.
    /// On older systems, the task waits on a continuation while `body` runs
    /// on the queue, outside of the task. Both honour cancellation the same
    /// way: through `AsyncAccessState`, which interrupts SQLite.
    func execute<T: Sendable>(
        rollsBackCancelledTransaction: Bool,
        _ body: @Sendable (Database) throws -> T
    ) async throws -> T {
        // Cancelled before the access started: don't touch the database.
        try Task.checkCancellation()
        let access = AsyncAccessState(db.interruptState)
        let instrumentedAccess = db.instrument != nil ? willWait() : nil
        return try await withTaskCancellationHandler {
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let executor {
                let executor = unsafeDowncast(executor, to: DatabaseTaskExecutor.self)
                return try await withTaskExecutorPreference(executor) {
                    try await runAccess(
                        access, instrumentedAccess, rollsBackCancelledTransaction: rollsBackCancelledTransaction, body)
                }
            } else {
                return try await runAccessOnQueue(
                    access, instrumentedAccess, rollsBackCancelledTransaction: rollsBackCancelledTransaction, body)
            }
        } onCancel: {
            access.cancel()
        }
    }

    /// The part of an async access that runs on the queue, in the caller's
    /// task (which prefers the queue's executor).
    @concurrent
    private func runAccess<T: Sendable>(
        _ access: AsyncAccessState,
        _ instrumentedAccess: DatabaseAccessContext?,
        rollsBackCancelledTransaction: Bool,
        _ body: @Sendable (Database) throws -> T
    ) async throws -> T {
        try performAccess(
            access, instrumentedAccess, rollsBackCancelledTransaction: rollsBackCancelledTransaction, body)
    }

    /// The async access of systems without task executors: the task waits
    /// on a continuation while the queue runs the access.
    private func runAccessOnQueue<T: Sendable>(
        _ access: AsyncAccessState,
        _ instrumentedAccess: DatabaseAccessContext?,
        rollsBackCancelledTransaction: Bool,
        _ body: @Sendable (Database) throws -> T
    ) async throws -> T {
        // `body` does not escape: the task waits until the queue ran it,
        // and `PendingAccess` lets it go before resuming the task.
        try await withoutActuallyEscaping(body) { body in
            let pending = PendingAccess(body)
            return try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    let result = pending.run { body in
                        Result {
                            try self.performAccess(
                                access, instrumentedAccess,
                                rollsBackCancelledTransaction: rollsBackCancelledTransaction, body)
                        }
                    }
                    continuation.resume(with: result)
                }
            }
        }
    }

    /// Runs an async access on the queue, and leaves the connection as the
    /// access found it when it was cancelled.
    ///
    /// It throws, rather than returning a `Result`: where `T` is not known
    /// at compile time, each use of `Result<T, any Error>` looked its type
    /// up in the runtime's cache (issue 46).
    private func performAccess<T>(
        _ access: AsyncAccessState,
        _ instrumentedAccess: DatabaseAccessContext?,
        rollsBackCancelledTransaction: Bool,
        _ body: (Database) throws -> T
    ) throws -> T {
        assert(isOnQueue, "async accesses run on the connection's queue")
        guard access.start() else { throw CancellationError() }
        defer { db.accessDidEnd() }
        let value: T
        do {
            if let instrumentedAccess {
                value = try instrumented(instrumentedAccess, body)
            } else {
                value = try body(db)
            }
        } catch {
            if access.finish() {
                // Leave the connection as the access found it.
                leaveCancelledAccess(rollsBackCancelledTransaction: rollsBackCancelledTransaction)
                throw CancellationError()
            }
            throw error
        }
        if access.finish() {
            // Leave the connection as the access found it.
            if leaveCancelledAccess(rollsBackCancelledTransaction: rollsBackCancelledTransaction) {
                throw CancellationError()
            }
            // Else the access completed before noticing cancellation: keep its value.
        }
        return value
    }

    /// Clears the cancellation of an access, and rolls back its
    /// transaction when asked. Returns whether it rolled back.
    @discardableResult
    private func leaveCancelledAccess(rollsBackCancelledTransaction: Bool) -> Bool {
        db.clearCancellation()
        if rollsBackCancelledTransaction && db.isInsideTransaction {
            db.rollbackAfterError()
            return true
        }
        return false
    }
}

/// The closure of an async access that waits on a continuation: the queue
/// takes it out before running it, so that nothing retains it once the
/// waiting task resumes (`withoutActuallyEscaping` checks it).
private final class PendingAccess<T>: @unchecked Sendable {
    private var body: (@Sendable (Database) throws -> T)?

    init(_ body: @escaping @Sendable (Database) throws -> T) {
        self.body = body
    }

    func run(_ perform: (@Sendable (Database) throws -> T) -> Result<T, any Error>) -> Result<T, any Error> {
        guard let body else { preconditionFailure("an access runs once") }
        self.body = nil
        return perform(body)
    }
}

/// Runs the jobs of the tasks that access a connection on its dispatch queue.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
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
    private let lock = Lock()
    private let interruptState: InterruptState
    private var isCancelled = false
    private var isRunning = false
    private var isFinished = false

    init(_ interruptState: InterruptState) {
        self.interruptState = interruptState
    }

    /// Called on the queue when the access starts; false if already cancelled.
    func start() -> Bool {
        lock.withLock {
            if isCancelled { return false }
            isRunning = true
            return true
        }
    }

    /// Called on the queue when the access ends; returns whether it was
    /// cancelled. No interruption happens after it returns.
    func finish() -> Bool {
        lock.withLock {
            isRunning = false
            isFinished = true
            return isCancelled
        }
    }

    /// Called when the task is cancelled, from any thread.
    func cancel() {
        lock.withLock {
            guard !isFinished else { return }
            isCancelled = true
            if isRunning {
                interruptState.cancel()
            }
        }
    }
}
