import Foundation
import Testing

/// Values and errors delivered by an observation (or any callback). Tests
/// wait for a condition on them: each new value or error wakes the waiters,
/// and a deadline bounds the wait (no polling, no fixed sleep).
final class ObservedValues<Value: Sendable>: Sendable {
    private struct Waiter {
        let id: Int
        let predicate: @Sendable ([Value], [any Error]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var values: [Value] = []
        var errors: [any Error] = []
        var waiters: [Waiter] = []
        var nextWaiterID = 0

        /// Removes and returns the waiters whose condition now holds.
        mutating func satisfiedWaiters() -> [Waiter] {
            let (values, errors) = (self.values, self.errors)
            let satisfied = waiters.filter { $0.predicate(values, errors) }
            waiters.removeAll { waiter in satisfied.contains { $0.id == waiter.id } }
            return satisfied
        }
    }

    private let state = Mutex(State())

    var values: [Value] { state.withLock { $0.values } }
    /// The descriptions of the errors received so far.
    var errors: [String] { state.withLock { $0.errors.map { "\($0)" } } }

    /// Records a value and wakes the waiters whose condition now holds.
    func record(_ value: Value) {
        let satisfied = state.withLock { state in
            state.values.append(value)
            return state.satisfiedWaiters()
        }
        for waiter in satisfied { waiter.continuation.resume(returning: true) }
    }

    /// Records an error and wakes the waiters whose condition now holds.
    func record(error: any Error) {
        let satisfied = state.withLock { state in
            state.errors.append(error)
            return state.satisfiedWaiters()
        }
        for waiter in satisfied { waiter.continuation.resume(returning: true) }
    }

    /// Waits until `predicate` holds for the values received so far; returns
    /// false when `timeout` elapses first.
    func wait(
        timeout: Duration = .seconds(10), until predicate: @escaping @Sendable ([Value]) -> Bool
    ) async -> Bool {
        await wait(timeout: timeout) { values, _ in predicate(values) }
    }

    /// Waits for the first error; nil when `timeout` elapses first.
    func firstError(timeout: Duration = .seconds(10)) async -> (any Error)? {
        guard await wait(timeout: timeout, until: { _, errors in !errors.isEmpty }) else { return nil }
        return state.withLock { $0.errors.first }
    }

    private func wait(
        timeout: Duration, until predicate: @escaping @Sendable ([Value], [any Error]) -> Bool
    ) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id = state.withLock { state -> Int? in
                if predicate(state.values, state.errors) { return nil }
                state.nextWaiterID += 1
                state.waiters.append(
                    Waiter(id: state.nextWaiterID, predicate: predicate, continuation: continuation))
                return state.nextWaiterID
            }
            guard let id else {
                continuation.resume(returning: true)
                return
            }
            // The deadline: the only sleep, and it ends the wait early only
            // when the expected event never comes.
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

extension ObservedValues {
    /// Waits until `count` values were received; records an issue when the
    /// deadline elapses first.
    func waitForValues(
        _ count: Int, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let received = await wait(timeout: timeout) { $0.count >= count }
        #expect(received, "\(count) values expected, got \(values.count)", sourceLocation: sourceLocation)
    }

    /// Waits until an error was received; records an issue when the deadline
    /// elapses first.
    func waitForError(timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation) async {
        let error = await firstError(timeout: timeout)
        #expect(error != nil, "an error expected", sourceLocation: sourceLocation)
    }
}
