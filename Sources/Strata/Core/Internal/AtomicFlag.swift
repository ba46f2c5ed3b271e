// A boolean that threads read without a lock while another sets it: the
// cancellation and suspension flags, read before each statement.
//
// On Linux, the `Synchronization` module is always there: the flag is an
// `Atomic<Bool>`. On Apple systems, `Atomic` needs macOS 15 / iOS 18 and
// Strata supports older ones: the flag is guarded by `os_unfair_lock`, which
// costs a few instructions when nobody else holds it. (swift-atomics would
// do, but its C shim module is only found through SwiftPM's search paths,
// so that tools that load Strata's module on their own, such as
// `swift-symbolgraph-extract`, could not load it.)

#if canImport(Darwin)
    /// A boolean shared between threads.
    final class AtomicFlag: @unchecked Sendable {
        private let storage: LockStorage<Bool>

        init(_ value: Bool) {
            storage = LockStorage(value)
        }

        /// The current value.
        @inline(__always)
        func load() -> Bool {
            storage.withLock { $0 }
        }

        /// Sets the value.
        @inline(__always)
        func store(_ value: Bool) {
            storage.withLock { $0 = value }
        }

        /// Sets the value, and returns the previous one.
        func exchange(_ value: Bool) -> Bool {
            storage.withLock { current in
                defer { current = value }
                return current
            }
        }

        /// Whether the value is `expected`. Read under the lock, so that a
        /// later `exchange` on another thread synchronizes with this call.
        func isStill(_ expected: Bool) -> Bool {
            storage.withLock { $0 == expected }
        }
    }
#else
    import Synchronization

    /// A boolean shared between threads.
    final class AtomicFlag: Sendable {
        private let value: Atomic<Bool>

        init(_ value: Bool) {
            self.value = Atomic(value)
        }

        /// The current value (acquiring: what the setter wrote before is visible).
        @inline(__always)
        func load() -> Bool {
            value.load(ordering: .acquiring)
        }

        /// Sets the value (releasing).
        @inline(__always)
        func store(_ newValue: Bool) {
            value.store(newValue, ordering: .releasing)
        }

        /// Sets the value, and returns the previous one.
        func exchange(_ newValue: Bool) -> Bool {
            value.exchange(newValue, ordering: .acquiringAndReleasing)
        }

        /// Whether the value is `expected`; if so, writes it again, so that a
        /// later `exchange` on another thread synchronizes with this call
        /// (a read-modify-write: a plain load would not order the caller's
        /// earlier writes before that thread's later reads).
        @inline(__always)
        func isStill(_ expected: Bool) -> Bool {
            value.compareExchange(
                expected: expected, desired: expected, ordering: .acquiringAndReleasing
            ).exchanged
        }
    }
#endif
