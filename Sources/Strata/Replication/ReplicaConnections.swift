// The connections of a replica, and the gate that lets them go when the
// follower must apply changes. Accesses pass the gate: they get the current
// read-only pool, opened on demand, and give it back when they end. When the
// monitor sees the follower waiting, the gate stops letting accesses in,
// closes the pool as soon as the last running access ends, and opens its
// doors again once the follower has released its lock. The next access
// opens a new pool, whose connections have no stale cache.

import Dispatch
import Foundation

/// The read-only pool of a replica, opened on demand and closed whenever
/// the follower needs the file.
final class ReplicaConnections: Sendable {
    private struct State {
        var pool: DatabasePool?
        /// Accesses that hold `pool`.
        var activeCount = 0
        /// The follower waits: no access may start, and `pool` closes once
        /// idle.
        var isYielding = false
        /// Accesses waiting for the end of `isYielding`.
        var waiters: [@Sendable () -> Void] = []
        /// `close()` was called: accesses throw.
        var isClosed = false
    }

    private let state = Mutex(State())
    private let openPool: @Sendable () throws -> DatabasePool
    /// Closes a pool that no access holds any longer, off the queues of
    /// the pool itself.
    private let closePool: @Sendable (DatabasePool) -> Void
    /// Told when a pool opened, so that the monitor looks at the follower.
    private let didOpenPool: @Sendable () -> Void

    init(
        openPool: @escaping @Sendable () throws -> DatabasePool,
        closePool: @escaping @Sendable (DatabasePool) -> Void,
        didOpenPool: @escaping @Sendable () -> Void
    ) {
        self.closePool = closePool
        self.openPool = openPool
        self.didOpenPool = didOpenPool
    }

    /// Whether a pool is open.
    var hasOpenPool: Bool { state.withLock { $0.pool != nil } }

    // MARK: - Accesses

    /// The pool an access runs in, once the gate is open. Call `release()`
    /// when the access ends. Blocks the current thread while the follower
    /// applies changes.
    func acquire() throws -> DatabasePool {
        while true {
            let semaphore = DispatchSemaphore(value: 0)
            if let pool = try tryAcquire(orWait: { semaphore.signal() }) {
                return pool
            }
            semaphore.wait()
        }
    }

    /// The pool an access runs in, without blocking the calling task.
    func acquire() async throws -> DatabasePool {
        while true {
            var pool: DatabasePool?
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                do {
                    pool = try tryAcquire(orWait: { continuation.resume() })
                    if pool != nil { continuation.resume() }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            if let pool { return pool }
        }
    }

    /// Gives the pool to `completion` once the gate is open, or the error
    /// that prevented opening it.
    func acquire(_ completion: @escaping @Sendable (Result<DatabasePool, any Error>) -> Void) {
        do {
            if let pool = try tryAcquire(orWait: { [self] in acquire(completion) }) {
                completion(.success(pool))
            }
        } catch {
            completion(.failure(error))
        }
    }

    /// Returns the pool, or registers `wait` and returns nil while the
    /// follower applies changes.
    private func tryAcquire(orWait wait: @escaping @Sendable () -> Void) throws -> DatabasePool? {
        var opened = false
        let pool: DatabasePool? = try state.withLock { state in
            if state.isClosed, let pool = state.pool {
                // The closed pool throws the error of a closed connection.
                return pool
            }
            if state.isClosed {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed")
            }
            if state.isYielding {
                state.waiters.append(wait)
                return nil
            }
            let pool: DatabasePool
            if let current = state.pool {
                pool = current
            } else {
                pool = try openPool()
                state.pool = pool
                opened = true
            }
            state.activeCount += 1
            return pool
        }
        if opened { didOpenPool() }
        return pool
    }

    /// Ends an access that `acquire` started.
    func release() {
        let poolToClose: DatabasePool? = state.withLock { state in
            state.activeCount -= 1
            guard state.activeCount == 0, state.isYielding, !state.isClosed, let pool = state.pool else {
                return nil
            }
            state.pool = nil
            return pool
        }
        if let poolToClose {
            closePool(poolToClose)
        }
    }

    /// The pool that runs the current access, if the current code runs in
    /// an access of this replica (reentrant reads pass the gate without
    /// waiting: the access they run in holds it open).
    func poolOfCurrentAccess() -> DatabasePool? {
        guard let pool = state.withLock({ $0.pool }), pool.runsCurrentAccess else { return nil }
        return pool
    }

    // MARK: - Yielding to the follower

    /// Stops new accesses, and closes the pool now if no access runs;
    /// otherwise the last access to end closes it.
    func yield() {
        let poolToClose: DatabasePool? = state.withLock { state in
            guard !state.isClosed else { return nil }
            state.isYielding = true
            guard state.activeCount == 0, let pool = state.pool else { return nil }
            state.pool = nil
            return pool
        }
        if let poolToClose {
            closePool(poolToClose)
        }
    }

    /// Lets accesses in again if the pool is closed. Returns whether the
    /// gate is open.
    @discardableResult
    func endYieldingIfClosed() -> Bool {
        let waiters: [@Sendable () -> Void]? = state.withLock { state in
            guard state.isYielding else { return [] }
            guard state.pool == nil else { return nil }
            state.isYielding = false
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter() }
        return true
    }

    /// Runs `body` with the open pool, if there is one.
    func whileOpen(_ body: (DatabasePool) -> Void) {
        state.withLock { state in
            if let pool = state.pool { body(pool) }
        }
    }

    /// Runs `body` if no pool is open, while none can open. Returns whether
    /// it ran.
    @discardableResult
    func whileNoPoolIsOpen(_ body: () -> Void) -> Bool {
        state.withLock { state in
            guard state.pool == nil else { return false }
            body()
            return true
        }
    }

    /// Runs `body` if no pool is open and the gate is open, while no pool
    /// can open. Returns whether it ran.
    func whileIdle(_ body: () -> Void) -> Bool {
        state.withLock { state in
            guard state.pool == nil, !state.isYielding else { return false }
            body()
            return true
        }
    }

    // MARK: - Closing

    /// Closes the pool later, off the current thread, which may run an
    /// access of the pool (the replica's last reference can go there).
    /// Later accesses throw.
    func closeEventually() {
        let (pool, waiters): (DatabasePool?, [@Sendable () -> Void]) = state.withLock { state in
            state.isClosed = true
            defer {
                state.waiters = []
                state.pool = nil
            }
            return (state.pool, state.waiters)
        }
        for waiter in waiters { waiter() }
        if let pool { closePool(pool) }
    }

    /// Closes the pool; later accesses throw.
    func close() throws {
        let (pool, waiters): (DatabasePool?, [@Sendable () -> Void]) = state.withLock { state in
            state.isClosed = true
            defer { state.waiters = [] }
            return (state.pool, state.waiters)
        }
        for waiter in waiters { waiter() }
        try pool?.close()
    }
}
