import Dispatch

/// Queues that tests recognize: events record where they were delivered.
package enum TestQueues {
    package static let key = DispatchSpecificKey<String>()

    package static func make(_ label: String) -> DispatchQueue {
        let queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: label)
        return queue
    }

    /// Marks the main queue. On Linux, the main queue may be drained by a
    /// thread that is not the main thread (the test runner's main thread
    /// parks in `dispatch_main`): `Thread.isMainThread` can't tell.
    private static let markMain: Void = DispatchQueue.main.setSpecific(key: key, value: "main")

    /// "main" on the main queue, the label of a queue made by `make`, or "other".
    package static var current: String {
        markMain
        return DispatchQueue.getSpecific(key: key) ?? "other"
    }
}
