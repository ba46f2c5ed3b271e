import Foundation

// Locks for the tests, usable on every system the package supports:
// `Synchronization` needs macOS 15 / iOS 18, and `NSLock.withLock` macOS 13 /
// iOS 16, while the package targets macOS 10.15 / iOS 13.

/// A lock with `withLock`, over `NSLock`'s `lock()` and `unlock()`.
final class TestLock: @unchecked Sendable {
    private let base = NSLock()

    func lock() { base.lock() }
    func unlock() { base.unlock() }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        base.lock()
        defer { base.unlock() }
        return try body()
    }
}

/// A value protected by a lock, with the `withLock` of `Synchronization.Mutex`.
final class Mutex<Value>: @unchecked Sendable {
    private let lock = TestLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
