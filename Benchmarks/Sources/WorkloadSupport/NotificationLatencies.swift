import Dispatch
import Foundation

/// The commit-to-notification latencies of the observations curve
/// (`cost-curves observations`), shared by C, Strata and GRDB: before each
/// write the writer says which value its observers will see, each observer
/// reports the values it gets, and the writer waits until all of them have
/// the expected one.
public final class NotificationLatencies: @unchecked Sendable {
    private let condition = NSCondition()
    private let observerCount: Int
    private var expected = Int.min
    private var start: UInt64 = 0
    private var arrived: [Bool]
    private var remaining = 0
    private var latencies: [Double] = []
    private var isAbandoned = false

    /// A recorder for `observerCount` observers.
    public init(observerCount: Int) {
        self.observerCount = observerCount
        arrived = Array(repeating: true, count: observerCount)
    }

    /// Starts the clock for `value`: every observer is to see it next.
    public func expect(_ value: Int) {
        condition.withLock {
            expected = value
            arrived = Array(repeating: false, count: observerCount)
            remaining = observerCount
            start = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// Observer number `observer` got `value`: a latency when it is the
    /// expected value, seen for the first time.
    public func delivered(_ value: Int, by observer: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        condition.withLock {
            guard value == expected, !arrived[observer] else { return }
            arrived[observer] = true
            latencies.append(Double(now - start))
            remaining -= 1
            if remaining == 0 { condition.broadcast() }
        }
    }

    /// Waits until every observer has the expected value, or until the
    /// recorder is abandoned.
    public func wait() {
        condition.withLock {
            while remaining > 0 && !isAbandoned { condition.wait() }
        }
    }

    /// The observers failed: from now on, `wait()` returns at once.
    public func abandon() {
        condition.withLock {
            isAbandoned = true
            condition.broadcast()
        }
    }

    /// Takes the latencies recorded so far, in nanoseconds, and starts a new
    /// list.
    public func take() -> [Double] {
        condition.withLock {
            defer { latencies = [] }
            return latencies
        }
    }
}
