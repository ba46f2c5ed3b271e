import Foundation
import Strata
import Testing

/// Values and errors delivered by an observation (or any callback), on a
/// ``Waitable``: tests wait for a condition on them, bounded by a deadline.
///
/// ```swift
/// let values = ObservedValues<Int>()
/// let cancellable = observation.start(in: dbQueue, onError: values.record(error:), onChange: values.record)
/// await values.waitForValues(2)
/// ```
package final class ObservedValues<Value: Sendable>: Sendable {
    private struct Received {
        var values: [Value] = []
        var errors: [any Error] = []
    }

    private let received = Waitable(Received())

    package init() {}

    /// The values received so far, oldest first.
    package var values: [Value] { received.value.values }

    /// The descriptions of the errors received so far.
    package var errors: [String] { received.value.errors.map { "\($0)" } }

    /// Records a value and wakes the waiters whose condition now holds.
    package func record(_ value: Value) {
        received.update { $0.values.append(value) }
    }

    /// Records an error and wakes the waiters whose condition now holds.
    package func record(error: any Error) {
        received.update { $0.errors.append(error) }
    }

    /// Waits until `predicate` holds for the values received so far; returns
    /// false when `timeout` elapses first.
    package func wait(
        timeout: Duration = .seconds(10), until predicate: @escaping @Sendable ([Value]) -> Bool
    ) async -> Bool {
        await received.holds(within: timeout) { predicate($0.values) }
    }

    /// Waits for the first error; nil when `timeout` elapses first.
    package func firstError(timeout: Duration = .seconds(10)) async -> (any Error)? {
        guard await received.holds(within: timeout, { !$0.errors.isEmpty }) else { return nil }
        return received.value.errors.first
    }

    /// Waits until `count` values were received; records an issue when the
    /// deadline elapses first.
    package func waitForValues(
        _ count: Int, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let done = await wait(timeout: timeout) { $0.count >= count }
        #expect(done, "\(count) values expected, got \(values.count)", sourceLocation: sourceLocation)
    }

    /// Waits until an error was received; records an issue when the deadline
    /// elapses first.
    package func waitForError(timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation) async
    {
        let error = await firstError(timeout: timeout)
        #expect(error != nil, "an error expected", sourceLocation: sourceLocation)
    }
}

extension ValueObservation where Reducer.Value: Sendable {
    /// Starts the observation with `scheduler`, and records its values and
    /// errors in `values`.
    package func start(
        in reader: any DatabaseReader, scheduling scheduler: some ValueObservationScheduler,
        recordingIn values: ObservedValues<Reducer.Value>
    ) -> AnyDatabaseCancellable {
        start(in: reader, scheduling: scheduler, onError: { values.record(error: $0) }, onChange: { values.record($0) })
    }
}
