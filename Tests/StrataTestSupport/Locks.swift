import Foundation

// Locks for the tests, usable on every system the package supports:
// `Synchronization` needs macOS 15 / iOS 18, and `NSLock.withLock` macOS 13 /
// iOS 16, while the package targets macOS 10.15 / iOS 13.

/// A lock with `withLock`, over `NSLock`'s `lock()` and `unlock()`.
package final class TestLock: @unchecked Sendable {
    private let base = NSLock()

    package init() {}

    package func lock() { base.lock() }
    package func unlock() { base.unlock() }

    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        base.lock()
        defer { base.unlock() }
        return try body()
    }
}

/// A value that threads and tasks share, behind a lock: the one box of the
/// tests (a flag, a result set from another thread, an event log).
///
/// ```swift
/// let events = LockedBox<[String]>([])
/// events.append("commit")
/// #expect(events.value == ["commit"])
/// ```
package final class LockedBox<Value>: @unchecked Sendable {
    private let lock = TestLock()
    private var stored: Value

    package init(_ value: Value) {
        stored = value
    }

    /// The value now.
    package var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Runs `body` with the value, under the lock.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }
}

extension LockedBox where Value: RangeReplaceableCollection {
    /// Appends an element, under the lock.
    package func append(_ element: Value.Element) {
        withLock { $0.append(element) }
    }
}

/// A count that threads and tasks increment.
package final class Counter: Sendable {
    private let count = LockedBox(0)

    package init() {}

    /// The count now.
    package var value: Int { count.value }

    /// Adds one, and returns the new count.
    @discardableResult
    package func increment() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
