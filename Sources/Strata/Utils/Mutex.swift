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
// The primitive lives in the tail of a `ManagedBuffer`, next to the value it
// protects: one allocation, and an address that never moves (which
// `os_unfair_lock` requires).

#if canImport(Darwin)
    typealias LockPrimitive = os_unfair_lock
#elseif canImport(WinSDK)
    typealias LockPrimitive = SRWLOCK
#else
    typealias LockPrimitive = pthread_mutex_t
#endif

/// The storage of a ``Mutex``: the protected value in the header, and the
/// lock primitive as the single element.
final class LockStorage<Value>: ManagedBuffer<Value, LockPrimitive> {
    static func make(_ initialValue: Value) -> LockStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in initialValue }
        let storage = unsafeDowncast(buffer, to: LockStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
                lock.initialize(to: os_unfair_lock())
            #elseif canImport(WinSDK)
                InitializeSRWLock(lock)
            #else
                lock.initialize(to: pthread_mutex_t())
                let status = pthread_mutex_init(lock, nil)
                precondition(status == 0, "pthread_mutex_init failed")
            #endif
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(Darwin) && !canImport(WinSDK)
                pthread_mutex_destroy(lock)
            #endif
            _ = lock.deinitialize(count: 1)
        }
    }

    @inline(__always)
    func lock(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
            os_unfair_lock_lock(primitive)
        #elseif canImport(WinSDK)
            AcquireSRWLockExclusive(primitive)
        #else
            pthread_mutex_lock(primitive)
        #endif
    }

    @inline(__always)
    func unlock(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
            os_unfair_lock_unlock(primitive)
        #elseif canImport(WinSDK)
            ReleaseSRWLockExclusive(primitive)
        #else
            pthread_mutex_unlock(primitive)
        #endif
    }

    @inline(__always)
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try withUnsafeMutablePointers { value, primitive in
            lock(primitive)
            defer { unlock(primitive) }
            return try body(&value.pointee)
        }
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
        storage = LockStorage.make(initialValue)
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try storage.withLock(body)
    }
}

/// A lock that protects no value of its own, for classes that guard several
/// stored properties (`NSLock` allocates twice, and pays an Objective-C
/// message on Apple systems).
struct Lock: @unchecked Sendable {
    private let storage = LockStorage<Void>.make(())

    init() {}

    /// Runs `body` while holding the lock.
    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try storage.withLock { _ in try body() }
    }
}
