/// Something that can stop a database observation.
public protocol DatabaseCancellable: Sendable {
    /// Stops the observation. Calling it again does nothing.
    func cancel()
}

/// A cancellable that runs a closure once, when cancelled or deinitialized.
///
/// ```swift
/// let cancellable = AnyDatabaseCancellable { print("cancelled") }
/// cancellable.cancel() // prints "cancelled"
/// ```
public final class AnyDatabaseCancellable: DatabaseCancellable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    /// A cancellable that runs `cancel` once.
    public init(cancel: @escaping @Sendable () -> Void) {
        onCancel = Mutex(cancel)
    }

    /// A cancellable that cancels `base`.
    public convenience init(_ base: some DatabaseCancellable) {
        self.init(cancel: { base.cancel() })
    }

    deinit {
        cancel()
    }

    /// Runs the cancel closure, the first time only.
    public func cancel() {
        let cancel = onCancel.withLock { closure in
            defer { closure = nil }
            return closure
        }
        cancel?()
    }
}
