import Foundation

/// Values and errors delivered by an observation. Tests wait for a condition
/// on the values: each new value wakes the waiters, and a deadline bounds the
/// wait (no polling, no fixed sleep).
final class ObservedValues<Value: Sendable>: Sendable {
    private struct Waiter {
        let id: Int
        let predicate: @Sendable ([Value]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var values: [Value] = []
        var errors: [String] = []
        var waiters: [Waiter] = []
        var nextWaiterID = 0
    }

    private let state = Mutex(State())

    var values: [Value] { state.withLock { $0.values } }
    var errors: [String] { state.withLock { $0.errors } }

    /// Records a value and wakes the waiters whose condition now holds.
    func record(_ value: Value) {
        let satisfied = state.withLock { state -> [Waiter] in
            state.values.append(value)
            let values = state.values
            let satisfied = state.waiters.filter { $0.predicate(values) }
            state.waiters.removeAll { waiter in satisfied.contains { $0.id == waiter.id } }
            return satisfied
        }
        for waiter in satisfied { waiter.continuation.resume(returning: true) }
    }

    /// Records an error.
    func record(error: any Error) {
        state.withLock { $0.errors.append("\(error)") }
    }

    /// Waits until `predicate` holds for the values received so far; returns
    /// false when `timeout` elapses first.
    func wait(
        timeout: Duration = .seconds(10), until predicate: @escaping @Sendable ([Value]) -> Bool
    ) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id = state.withLock { state -> Int? in
                if predicate(state.values) { return nil }
                state.nextWaiterID += 1
                state.waiters.append(
                    Waiter(id: state.nextWaiterID, predicate: predicate, continuation: continuation))
                return state.nextWaiterID
            }
            guard let id else {
                continuation.resume(returning: true)
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = self.state.withLock { state -> Waiter? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index)
                }
                expired?.continuation.resume(returning: false)
            }
        }
    }
}
