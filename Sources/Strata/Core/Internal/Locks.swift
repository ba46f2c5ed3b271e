#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#elseif canImport(WinSDK)
    import WinSDK
#else
    #error("Unsupported platform: Strata needs a mutual exclusion lock")
#endif

// The library's locks. The `Synchronization` module would need macOS 15 /
// iOS 18, and Strata supports the same systems as GRDB 7 (macOS 10.15,
// iOS 13, tvOS 13, watchOS 7): these locks wrap `os_unfair_lock` on Apple
// systems (available since macOS 10.12 / iOS 10), a pthread mutex on Linux
// and other Unix systems, and an SRW lock on Windows.
//
// The primitive is allocated on its own, so that its address never moves
// (which `os_unfair_lock` requires). The protected value is a stored
// property of the storage class, only accessed under the lock. (Keeping
// both in one `ManagedBuffer` saves an allocation, but the buffer's header
// accessor is a formal access that the thread sanitizer reports as a race
// when two threads compute the header's address at once.)

#if canImport(Darwin)
    typealias LockPrimitive = os_unfair_lock
#elseif canImport(WinSDK)
    typealias LockPrimitive = SRWLOCK
#else
    typealias LockPrimitive = pthread_mutex_t
#endif

/// A lock primitive, allocated once, at an address that never moves.
class PlatformLock {
    private let primitive: UnsafeMutablePointer<LockPrimitive>

    init() {
        primitive = UnsafeMutablePointer<LockPrimitive>.allocate(capacity: 1)
        #if canImport(Darwin)
            primitive.initialize(to: os_unfair_lock())
        #elseif canImport(WinSDK)
            InitializeSRWLock(primitive)
        #else
            primitive.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(primitive, nil)
            precondition(status == 0, "pthread_mutex_init failed")
        #endif
    }

    deinit {
        #if !canImport(Darwin) && !canImport(WinSDK)
            pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    @inline(__always)
    final func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(primitive)
        #elseif canImport(WinSDK)
            AcquireSRWLockExclusive(primitive)
        #else
            pthread_mutex_lock(primitive)
        #endif
    }

    @inline(__always)
    final func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(primitive)
        #elseif canImport(WinSDK)
            ReleaseSRWLockExclusive(primitive)
        #else
            pthread_mutex_unlock(primitive)
        #endif
    }
}

/// The storage of a ``Mutex``: a lock and the value it protects.
final class LockStorage<Value>: PlatformLock {
    private var value: Value

    init(_ initialValue: Value) {
        value = initialValue
    }

    @inline(__always)
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body(&value)
    }
}

/// A value protected by a lock, with the API of `Synchronization.Mutex`
/// that the library uses: `withLock`. Copies share the lock and the value.
/// The lock is not recursive.
///
/// ```swift
/// let count = Mutex(0)
/// count.withLock { $0 += 1 }
/// ```
struct Mutex<Value>: @unchecked Sendable {
    private let storage: LockStorage<Value>

    init(_ initialValue: Value) {
        storage = LockStorage(initialValue)
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try storage.withLock(body)
    }
}

/// A lock that protects no value of its own, for classes that guard several
/// stored properties (`NSLock.withLock` needs macOS 13 / iOS 16, and `NSLock`
/// pays an Objective-C message on Apple systems).
///
/// It has no value of its own: an `inout` access to an empty value makes the
/// thread sanitizer report races with the reads of the class metadata.
struct Lock: @unchecked Sendable {
    private let base = PlatformLock()

    init() {}

    /// Runs `body` while holding the lock.
    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        base.lock()
        defer { base.unlock() }
        return try body()
    }
}
