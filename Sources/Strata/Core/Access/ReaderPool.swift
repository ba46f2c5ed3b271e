import Dispatch
import Foundation

/// The read-only connections of a ``DatabasePool``: a state machine, guarded by
/// a lock, that leases readers to accesses, opens new ones on demand up to a
/// maximum, queues the accesses that find no reader available, and runs
/// barriers that wait until no reader is leased.
///
/// Waiting accesses are callbacks: synchronous accesses wait on a semaphore,
/// async ones on a continuation, so that a task never blocks a thread while it
/// waits for a reader. Callbacks always run outside of the lock.
final class ReaderPool: @unchecked Sendable {
    typealias Waiter = (Result<SerializedDatabase, any Error>) -> Void

    private struct State {
        /// Opened readers that nobody uses.
        var idle: [SerializedDatabase] = []
        /// Every opened reader, leased or idle.
        var all: [SerializedDatabase] = []
        /// Readers being opened.
        var openingCount = 0
        /// Readers leased to accesses, including those being opened.
        var leasedCount = 0
        /// Accesses that wait for a reader, first come, first served.
        var waiters: [(id: UInt64, waiter: Waiter)] = []
        /// Async accesses about to wait.
        var pendingIDs: Set<UInt64> = []
        /// Async accesses cancelled before they could wait.
        var cancelledIDs: Set<UInt64> = []
        /// Pending or running barriers: they postpone new leases.
        var barrierCount = 0
        /// Barriers waiting for leased readers to come back.
        var barrierWaiters: [DispatchSemaphore] = []
        /// Leased readers that must be closed when they come back.
        var invalidated: Set<ObjectIdentifier> = []
        var nextID: UInt64 = 0
        var readerNumber = 0
        var isClosed = false
    }

    private enum Action {
        case deliver(Waiter, Result<SerializedDatabase, any Error>)
        case open(Waiter, number: Int)
        case closeReader(SerializedDatabase)
        case resumeBarrier(DispatchSemaphore)
    }

    private let lock = Lock()
    private var state = State()
    private let maximumCount: Int
    private let makeReader: @Sendable (Int) throws -> SerializedDatabase
    /// The integrations that receive the readers in use, the growth of the
    /// pool, and the time accesses wait for a reader.
    private let instrument: (any DatabaseInstrument)?
    private let label: String

    /// - Parameters:
    ///   - maximumCount: the maximum number of readers.
    ///   - instrument: the integrations, if any.
    ///   - label: the label of the pool, for the integrations.
    ///   - makeReader: opens the reader with the given number (1, 2, ...).
    init(
        maximumCount: Int,
        instrument: (any DatabaseInstrument)? = nil,
        label: String = "",
        makeReader: @escaping @Sendable (Int) throws -> SerializedDatabase
    ) {
        precondition(maximumCount > 0, "maximumReaderCount must be at least 1")
        self.maximumCount = maximumCount
        self.instrument = instrument
        self.label = label
        self.makeReader = makeReader
    }

    /// Reports the time an access waited for a reader.
    private func reportWait(since start: UInt64) {
        guard let instrument else { return }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        instrument.readerWaitDidEnd(label: label, seconds: seconds)
    }

    static var closedError: DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed")
    }

    // MARK: - Leasing

    /// Returns a reader, blocking the current thread until one is available.
    func acquire() throws -> SerializedDatabase {
        if let reader = takeIdleReader() {
            return reader
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let semaphore = DispatchSemaphore(value: 0)
        let box = ResultBox()
        enqueue(id: 0) { result in
            box.result = result
            semaphore.signal()
        }
        semaphore.wait()
        reportWait(since: start)
        return try box.result!.get()
    }

    /// Returns a reader, suspending the task until one is available. Task
    /// cancellation while waiting throws `CancellationError`.
    func acquire() async throws -> SerializedDatabase {
        try Task.checkCancellation()
        if let reader = takeIdleReader() {
            return reader
        }
        let id = makeID()
        let start = DispatchTime.now().uptimeNanoseconds
        defer { reportWait(since: start) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<SerializedDatabase, any Error>) in
                enqueue(id: id) { result in continuation.resume(with: result) }
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }

    /// Calls `completion` with a reader as soon as one is available.
    func acquire(_ completion: @escaping Waiter) {
        enqueue(id: 0, completion)
    }

    /// A reader when one is available without waiting for another access:
    /// an idle one, or a new one, opened on the current thread, when the
    /// pool has not reached its maximum. Nil otherwise, or when the opening
    /// fails.
    func acquireWithoutWaiting() -> SerializedDatabase? {
        if let reader = takeIdleReader() {
            return reader
        }
        let number = withState { state -> Int? in
            guard state.waiters.isEmpty && state.barrierCount == 0 && !state.isClosed,
                state.all.count + state.openingCount < maximumCount
            else { return nil }
            state.leasedCount += 1
            state.openingCount += 1
            state.readerNumber += 1
            return state.readerNumber
        }
        guard let number else { return nil }
        let box = ResultBox()
        run([.open({ result in box.result = result }, number: number)])
        return try? box.result?.get()
    }

    /// The fast path: an idle reader when nobody waits.
    private func takeIdleReader() -> SerializedDatabase? {
        withState { state in
            guard state.waiters.isEmpty && state.barrierCount == 0 && !state.isClosed,
                let reader = state.idle.popLast()
            else { return nil }
            state.leasedCount += 1
            return reader
        }
    }

    /// Gives back a leased reader.
    func release(_ reader: SerializedDatabase) {
        let actions = withState { state -> [Action] in
            state.leasedCount -= 1
            let id = ObjectIdentifier(reader)
            var actions: [Action] = []
            if state.isClosed || state.invalidated.remove(id) != nil {
                state.all.removeAll { $0 === reader }
                actions.append(.closeReader(reader))
            } else {
                state.idle.append(reader)
            }
            return actions + pump(&state)
        }
        run(actions)
    }

    /// Returns the identifier of an async access that may be cancelled.
    private func makeID() -> UInt64 {
        withState { state in
            state.nextID += 1
            state.pendingIDs.insert(state.nextID)
            return state.nextID
        }
    }

    private func enqueue(id: UInt64, _ waiter: @escaping Waiter) {
        let actions = withState { state -> [Action] in
            state.pendingIDs.remove(id)
            if state.cancelledIDs.remove(id) != nil {
                return [.deliver(waiter, .failure(CancellationError()))]
            }
            if state.isClosed {
                return [.deliver(waiter, .failure(Self.closedError))]
            }
            state.waiters.append((id, waiter))
            return pump(&state)
        }
        run(actions)
    }

    private func cancelWaiter(_ id: UInt64) {
        let actions = withState { state -> [Action] in
            if id != 0, let index = state.waiters.firstIndex(where: { $0.id == id }) {
                let waiter = state.waiters.remove(at: index).waiter
                return [.deliver(waiter, .failure(CancellationError()))]
            }
            // Not waiting yet: `enqueue` fails it. Already served: nothing to do.
            if state.pendingIDs.contains(id) {
                state.cancelledIDs.insert(id)
            }
            return []
        }
        run(actions)
    }

    /// Serves the waiters that can be served, and resumes a barrier when no
    /// reader is leased.
    private func pump(_ state: inout State) -> [Action] {
        var actions: [Action] = []
        while !state.waiters.isEmpty && state.barrierCount == 0 && !state.isClosed {
            if let reader = state.idle.popLast() {
                state.leasedCount += 1
                actions.append(.deliver(state.waiters.removeFirst().waiter, .success(reader)))
            } else if state.all.count + state.openingCount < maximumCount {
                state.leasedCount += 1
                state.openingCount += 1
                state.readerNumber += 1
                actions.append(.open(state.waiters.removeFirst().waiter, number: state.readerNumber))
            } else {
                break
            }
        }
        if state.leasedCount == 0 && !state.barrierWaiters.isEmpty {
            actions.append(contentsOf: state.barrierWaiters.map { .resumeBarrier($0) })
            state.barrierWaiters.removeAll()
        }
        return actions
    }

    private func run(_ actions: [Action]) {
        for action in actions {
            switch action {
            case .deliver(let waiter, let result):
                waiter(result)
            case .open(let waiter, let number):
                let result = Result { try makeReader(number) }
                let actions = withState { state -> [Action] in
                    state.openingCount -= 1
                    switch result {
                    case .success(let reader):
                        state.all.append(reader)
                        instrument?.readerPoolDidGrow(label: label, count: state.all.count, maximum: maximumCount)
                        if state.isClosed {
                            state.leasedCount -= 1
                            state.all.removeAll { $0 === reader }
                            return [.deliver(waiter, .failure(Self.closedError)), .closeReader(reader)]
                        }
                        return [.deliver(waiter, result)]
                    case .failure:
                        state.leasedCount -= 1
                        return [.deliver(waiter, result)] + pump(&state)
                    }
                }
                run(actions)
            case .closeReader(let reader):
                reader.async { db in try? db.close() }
            case .resumeBarrier(let semaphore):
                semaphore.signal()
            }
        }
    }

    private func withState<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try lock.withLock {
            guard let instrument else { return try body(&state) }
            let leasedCount = state.leasedCount
            // Reported under the lock, so that the last report is the last count.
            defer {
                if state.leasedCount != leasedCount {
                    instrument.readersInUseDidChange(label: label, count: state.leasedCount)
                }
            }
            return try body(&state)
        }
    }

    // MARK: - Barrier

    /// Waits until no reader is leased, runs `body` while new leases wait, and
    /// serves them afterwards.
    func barrier<T>(_ body: () throws -> T) rethrows -> T {
        let semaphore: DispatchSemaphore? = withState { state in
            state.barrierCount += 1
            if state.leasedCount == 0 { return nil }
            let semaphore = DispatchSemaphore(value: 0)
            state.barrierWaiters.append(semaphore)
            return semaphore
        }
        semaphore?.wait()
        defer {
            let actions = withState { state -> [Action] in
                state.barrierCount -= 1
                return pump(&state)
            }
            run(actions)
        }
        return try body()
    }

    // MARK: - Management

    /// The opened readers, leased or idle.
    var readers: [SerializedDatabase] {
        withState { $0.all }
    }

    /// The number of accesses waiting for a reader.
    var waiterCount: Int {
        withState { $0.waiters.count }
    }

    /// Whether a barrier waits for the leased readers, or runs.
    var hasBarrier: Bool {
        withState { $0.barrierCount > 0 }
    }

    /// Whether the current code runs on one of the readers, and which.
    var currentReader: SerializedDatabase? {
        readers.first { $0.isOnQueue }
    }

    /// Closes idle readers now, and leased ones when they come back.
    func invalidateAll() {
        let idle = withState { state -> [SerializedDatabase] in
            let idle = state.idle
            state.idle.removeAll()
            state.all.removeAll { reader in idle.contains { $0 === reader } }
            state.invalidated = Set(state.all.map(ObjectIdentifier.init))
            return idle
        }
        for reader in idle {
            reader.async { db in try? db.close() }
        }
    }

    /// Runs `body` on each idle reader, which stays unavailable meanwhile.
    func forEachIdleReader(_ body: (SerializedDatabase) -> Void) {
        let idle = withState { state -> [SerializedDatabase] in
            let idle = state.idle
            state.idle.removeAll()
            state.leasedCount += idle.count
            return idle
        }
        for reader in idle {
            body(reader)
            release(reader)
        }
    }

    /// Fails the waiters, closes the idle readers, and the leased ones when
    /// they come back. Throws the first error of SQLite.
    func close() throws {
        let (idle, waiters) = withState { state -> ([SerializedDatabase], [Waiter]) in
            state.isClosed = true
            let idle = state.idle
            state.idle.removeAll()
            state.all.removeAll { reader in idle.contains { $0 === reader } }
            let waiters = state.waiters.map(\.waiter)
            state.waiters.removeAll()
            return (idle, waiters)
        }
        for waiter in waiters {
            waiter(.failure(Self.closedError))
        }
        var firstError: (any Error)?
        for reader in idle {
            do {
                try reader.sync { db in try db.close() }
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    /// Undoes ``close()`` when the pool stays open because its writer could
    /// not close: later accesses open new readers.
    func reopen() {
        let actions = withState { state -> [Action] in
            state.isClosed = false
            return pump(&state)
        }
        run(actions)
    }
}

/// The result handed to a thread that waits on a semaphore.
private final class ResultBox: @unchecked Sendable {
    var result: Result<SerializedDatabase, any Error>?
}
