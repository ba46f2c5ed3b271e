import Dispatch
import Foundation

/// A wait that did not end in time.
package struct WaitTimeout: Error, CustomStringConvertible {
    package var description: String

    package init(description: String) {
        self.description = description
    }
}

/// A state that tests wait on: the one waiter of the kit.
///
/// Callbacks (an observation's `onChange`, a subscriber, a transaction
/// observer, another thread) change the state with ``update(_:)``; each change
/// wakes the waiters whose condition now holds. A deadline bounds every wait,
/// and it is the only timer: a test never sleeps or polls.
///
/// ```swift
/// let commits = Waitable(0)
/// observer.onCommit = { commits.update { $0 += 1 } }
/// try await commits.wait("two commits") { $0 >= 2 }
/// ```
package final class Waitable<State>: @unchecked Sendable {
    private struct Waiter {
        let id: Int
        let condition: (State) -> Bool
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = TestLock()
    private var state: State
    private var waiters: [Waiter] = []
    /// The deadline of each waiter, cancelled when its condition holds.
    private var deadlines: [Int: Task<Void, Never>] = [:]
    private var nextID = 0

    package init(_ state: State) {
        self.state = state
    }

    /// The state now.
    package var value: State { lock.withLock { state } }

    /// Changes the state, and wakes the waiters whose condition now holds.
    package func update(_ body: (inout State) -> Void) {
        let (ready, deadlines) = lock.withLock { () -> ([Waiter], [Task<Void, Never>]) in
            body(&state)
            let ready = waiters.filter { $0.condition(state) }
            waiters.removeAll { waiter in ready.contains { $0.id == waiter.id } }
            return (ready, ready.compactMap { self.deadlines.removeValue(forKey: $0.id) })
        }
        for deadline in deadlines { deadline.cancel() }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Returns once `condition` holds; throws ``WaitTimeout`` when `timeout`
    /// elapses first.
    package func wait(
        _ description: String, timeout: Duration = .seconds(10), until condition: @escaping (State) -> Bool
    ) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let id = lock.withLock { () -> Int? in
                if condition(state) { return nil }
                nextID += 1
                waiters.append(Waiter(id: nextID, condition: condition, continuation: continuation))
                return nextID
            }
            guard let id else {
                continuation.resume()
                return
            }
            // The deadline runs on the tasks' thread pool, as the work the
            // test waits for often does: when the whole suite keeps that pool
            // busy, both are late together, and a wall-clock timer on another
            // thread would expire waits whose event is merely queued.
            // It is cancelled as soon as the condition holds, so that no
            // sleeping task outlives the wait.
            let deadline = Task {
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                let waiter = self.lock.withLock { () -> Waiter? in
                    self.deadlines[id] = nil
                    guard let index = self.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return self.waiters.remove(at: index)
                }
                waiter?.continuation.resume(throwing: WaitTimeout(description: "timed out: \(description)"))
            }
            let isWaiting = lock.withLock { () -> Bool in
                guard waiters.contains(where: { $0.id == id }) else { return false }
                deadlines[id] = deadline
                return true
            }
            if !isWaiting { deadline.cancel() }
        }
    }

    /// Whether `condition` holds before `timeout` elapses.
    package func holds(
        within timeout: Duration = .seconds(10), _ condition: @escaping (State) -> Bool
    ) async -> Bool {
        do {
            try await wait("condition", timeout: timeout, until: condition)
            return true
        } catch {
            return false
        }
    }
}
