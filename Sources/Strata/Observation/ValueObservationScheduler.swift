import Foundation

/// Where and when a ``ValueObservation`` notifies its values.
///
/// ```swift
/// observation.start(in: dbQueue, scheduling: .async(onQueue: myQueue)) { ... }
/// ```
public protocol ValueObservationScheduler: Sendable {
    /// Whether the initial value is notified synchronously, when the
    /// observation starts.
    func immediateInitialValue() -> Bool

    /// Runs an action that notifies a value or an error.
    func schedule(_ action: @escaping @Sendable () -> Void)
}

/// A scheduler that notifies values on the main actor.
public protocol ValueObservationMainActorScheduler: ValueObservationScheduler {
    /// Runs an action on the main actor.
    func scheduleOnMainActor(_ action: @escaping @MainActor @Sendable () -> Void)
}

extension ValueObservationMainActorScheduler {
    /// Runs an action that notifies a value or an error, on the main actor.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        scheduleOnMainActor { action() }
    }
}

/// Notifies values asynchronously on a dispatch queue: `.async(onQueue:)`.
public struct AsyncValueObservationScheduler: ValueObservationScheduler {
    let queue: DispatchQueue

    /// Creates a scheduler that notifies every value, the initial one included, with
    /// `queue.async`.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// False: all values are notified asynchronously.
    public func immediateInitialValue() -> Bool { false }

    /// Runs the action asynchronously on the queue.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        queue.async(execute: action)
    }
}

/// Notifies the initial value synchronously on the main actor, when the
/// observation starts, and the other values asynchronously on the main
/// actor: `.immediate`.
public struct ImmediateValueObservationScheduler: ValueObservationMainActorScheduler {
    /// Creates the scheduler of `.immediate`: the initial value is notified synchronously, on
    /// the main actor, when the observation starts.
    public init() {}

    /// True: the initial value is notified when the observation starts.
    public func immediateInitialValue() -> Bool { true }

    /// Runs the action asynchronously on the main queue. (Only the initial
    /// value is notified synchronously, by the observation itself.)
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        DispatchQueue.main.async(execute: action)
    }

    /// Runs the action asynchronously on the main actor.
    public func scheduleOnMainActor(_ action: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated { action() } }
    }
}

/// Notifies all values asynchronously on the main actor: `.mainActor`, the
/// default of observations started from the main actor.
public final class DelayedMainActorValueObservationScheduler: ValueObservationMainActorScheduler {
    init() {}

    /// False: all values are notified asynchronously.
    public func immediateInitialValue() -> Bool { false }

    /// Runs the action asynchronously on the main queue.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        DispatchQueue.main.async(execute: action)
    }

    /// Runs the action asynchronously on the main actor.
    public func scheduleOnMainActor(_ action: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated { action() } }
    }
}

/// Notifies values on the cooperative thread pool, in order: `.task`.
/// Each `.task` scheduler runs its actions one after the other in a task
/// of its own.
public final class TaskValueObservationScheduler: ValueObservationScheduler {
    private let continuation: AsyncStream<@Sendable () -> Void>.Continuation

    init(priority: TaskPriority?) {
        let (stream, continuation) = AsyncStream<@Sendable () -> Void>.makeStream()
        self.continuation = continuation
        Task(priority: priority) {
            for await action in stream {
                action()
            }
        }
    }

    deinit {
        continuation.finish()
    }

    /// False: all values are notified asynchronously.
    public func immediateInitialValue() -> Bool { false }

    /// Runs the action in the scheduler's task, after the previous ones.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        continuation.yield(action)
    }
}

extension ValueObservationScheduler where Self == AsyncValueObservationScheduler {
    /// Values are notified asynchronously on the queue.
    public static func async(onQueue queue: DispatchQueue) -> AsyncValueObservationScheduler {
        AsyncValueObservationScheduler(queue: queue)
    }
}

extension ValueObservationScheduler where Self == ImmediateValueObservationScheduler {
    /// The initial value is notified synchronously when the observation
    /// starts from the main actor; other values asynchronously on the main actor.
    public static var immediate: ImmediateValueObservationScheduler { ImmediateValueObservationScheduler() }
}

extension ValueObservationMainActorScheduler where Self == ImmediateValueObservationScheduler {
    /// The initial value is notified synchronously when the observation
    /// starts; other values asynchronously on the main actor.
    public static var immediate: ImmediateValueObservationScheduler { ImmediateValueObservationScheduler() }
}

extension ValueObservationScheduler where Self == DelayedMainActorValueObservationScheduler {
    /// All values are notified asynchronously on the main actor.
    public static var mainActor: DelayedMainActorValueObservationScheduler {
        DelayedMainActorValueObservationScheduler()
    }
}

extension ValueObservationScheduler where Self == TaskValueObservationScheduler {
    /// Values are notified in tasks of the cooperative thread pool.
    public static var task: TaskValueObservationScheduler { TaskValueObservationScheduler(priority: nil) }

    /// Values are notified in tasks of the given priority.
    public static func task(priority: TaskPriority) -> TaskValueObservationScheduler {
        TaskValueObservationScheduler(priority: priority)
    }
}

extension ValueObservationMainActorScheduler where Self == DelayedMainActorValueObservationScheduler {
    /// All values are notified asynchronously on the main actor.
    public static var mainActor: DelayedMainActorValueObservationScheduler {
        DelayedMainActorValueObservationScheduler()
    }
}
