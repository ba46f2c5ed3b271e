// The replica's eyes on its follower. While the replica has connections
// open, or observations to tell, a timer looks at the file: when the
// follower waits for the exclusive lock, the connections go (see
// ReplicaConnections); when the files change, the observations fetch again.
// With no connection open and no observation, the timer stops and the
// replica costs nothing.

import Dispatch
import Foundation

/// Watches a replica's file for its follower, on a queue of its own.
final class ReplicaMonitor: @unchecked Sendable {
    private let queue: DispatchQueue
    private let interval: TimeInterval
    private let probe: ReplicaFileProbe
    /// On `queue` only.
    private var timer: (any DispatchSourceTimer)?
    /// The version the listeners were last told about. On `queue` only.
    private var notifiedVersion: ReplicaFileProbe.Version?
    /// Pools whose closing failed (SQLite could not close a connection
    /// yet): closing is tried again at each look. On `queue` only.
    private var unclosedPools: [DatabasePool] = []
    /// Pools handed over for closing and not closed yet.
    private let closingCount = Mutex(0)
    private let listeners = Mutex(Listeners())
    /// Set once, right after init.
    private(set) weak var connections: ReplicaConnections?

    private struct Listeners {
        var nextID = 0
        var callbacks: [Int: @Sendable () -> Void] = [:]
    }

    init(path: String, interval: TimeInterval, label: String) {
        self.probe = ReplicaFileProbe(path: path)
        self.interval = max(interval, 0.001)
        self.queue = DispatchQueue(label: label)
    }

    func attach(_ connections: ReplicaConnections) {
        self.connections = connections
    }

    // MARK: - Starting and stopping the looks

    /// Called before a pool opens: the descriptor that reads the locks must
    /// be open on the file the pool opens, or an older one.
    func prepareToOpenPool() {
        probe.openDescriptor()
    }

    /// Starts the timer if it is not running.
    func startLooking() {
        queue.async { [self] in startTimerIfNeeded() }
    }

    private func startTimerIfNeeded() {
        guard timer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(
            deadline: .now() + interval, repeating: interval, leeway: .nanoseconds(Int(interval * 100_000_000)))
        timer.setEventHandler { [weak self] in self?.look() }
        timer.resume()
        self.timer = timer
    }

    /// Stops the timer, and closes every pool left to close.
    func stop() {
        queue.async { [self] in
            timer?.cancel()
            timer = nil
            retryClosing()
        }
    }

    // MARK: - Closing pools

    /// Closes a pool that no access holds, on the monitor's queue.
    func close(_ pool: DatabasePool) {
        closingCount.withLock { $0 += 1 }
        queue.async { [self] in
            do {
                try pool.close()
            } catch {
                unclosedPools.append(pool)
            }
            closingCount.withLock { $0 -= 1 }
        }
    }

    private func retryClosing() {
        unclosedPools.removeAll { pool in (try? pool.close()) != nil }
    }

    // MARK: - Listeners

    /// Calls `onChange` after each change of the files that new reads can
    /// see, until the returned cancellable is cancelled.
    func addListener(_ onChange: @escaping @Sendable () -> Void) -> AnyDatabaseCancellable {
        // The version to compare with is read before the listener's first
        // fetch can start: a change after it is told.
        queue.sync {
            if listeners.withLock({ $0.callbacks.isEmpty }) {
                notifiedVersion = probe.currentVersion()
            }
            startTimerIfNeeded()
        }
        let id = listeners.withLock { listeners in
            let id = listeners.nextID
            listeners.nextID += 1
            listeners.callbacks[id] = onChange
            return id
        }
        return AnyDatabaseCancellable { [weak self] in
            self?.listeners.withLock { _ = $0.callbacks.removeValue(forKey: id) }
        }
    }

    // MARK: - Looking

    private func look() {
        guard let connections else {
            timer?.cancel()
            timer = nil
            return
        }
        retryClosing()
        let callbacks = listeners.withLock { Array($0.callbacks.values) }
        // The version is read before the locks: a change that comes between
        // the two shows in the next look's version, and a file replaced
        // before the version was read shows in the locks.
        let version = callbacks.isEmpty ? nil : probe.currentVersion()
        let follower = probe.followerState()
        switch follower {
        case .waitsForExclusiveLock, .replacedFile:
            connections.yield()
        case .idle:
            connections.endYieldingIfClosed()
        }
        if follower == .replacedFile, unclosedPools.isEmpty, closingCount.withLock({ $0 == 0 }) {
            // The descriptor of the old file goes once no connection uses
            // it; the next look opens the new file.
            connections.whileNoPoolIsOpen { probe.closeDescriptor() }
        }
        if follower == .idle, !callbacks.isEmpty {
            // Not while the follower holds the lock: it is still writing.
            if version != notifiedVersion {
                notifiedVersion = version
                for callback in callbacks { callback() }
            }
        }
        if callbacks.isEmpty, unclosedPools.isEmpty, closingCount.withLock({ $0 == 0 }),
            connections.whileIdle({ probe.closeDescriptor() })
        {
            // Nothing to watch until a pool opens or a listener comes.
            timer?.cancel()
            timer = nil
        }
    }
}
