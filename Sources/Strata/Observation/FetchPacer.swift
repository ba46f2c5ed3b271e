import Dispatch

/// Holds the fetches of paced value observations (``ObservationPacing``)
/// of one writer until their time, with one timer for all of them.
///
/// A held fetch runs once the writer has made no commit for its quiet
/// period, or at its deadline (its maximum delay). The broker of the writer
/// counts the commits (``writerDidCommit()``): when the quiet period ends
/// and commits came meanwhile, the pacer looks again after twice that
/// period, then four times..., until the deadline: a burst that ends is
/// fetched soon after it, and a writer that never pauses wakes the timer a
/// few times per deadline only. Fetches held by the same commit share their
/// times, so that they are released together, and run in one read
/// transaction on a pool.
///
/// The observers set their pending-fetch flag before they hold a fetch
/// (see ``LibraryTransactionObserver/pendingFetchFlag``): the broker skips
/// them meanwhile, so that a held fetch costs the writer nothing more than
/// the count of its commits.
final class FetchPacer: @unchecked Sendable {
    private struct Waiting {
        /// When to look at the commit count again, in `DispatchTime`
        /// nanoseconds.
        var checkTime: UInt64
        /// The wait before `checkTime`, doubled at each check.
        var quietPeriod: UInt64
        let deadline: UInt64
        /// The commit count at the last check.
        var commitNumber: Int
        let release: @Sendable () -> Void
    }

    private struct State {
        var commitNumber = 0
        var waiting: [Waiting] = []
        /// When the timer fires next, if it is armed.
        var armedTime: UInt64?
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "Strata.FetchPacer")
    private let timer: any DispatchSourceTimer

    init() {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.activate()
    }

    deinit {
        // The writer is gone: so are the observations it would fetch for.
        timer.cancel()
    }

    /// Counts a commit of the writer. Called by its broker, on its queue.
    func writerDidCommit() {
        state.withLock { $0.commitNumber &+= 1 }
    }

    /// Calls `release` once the writer has made no commit for the quiet
    /// period of `intervals`, or once its maximum delay has passed.
    func hold(_ intervals: PacingIntervals, release: @escaping @Sendable () -> Void) {
        let now = DispatchTime.now().uptimeNanoseconds
        let deadline = now &+ intervals.maximumDelay
        let arms = state.withLock { state -> Bool in
            let waiting = Waiting(
                checkTime: min(now &+ intervals.quietPeriod, deadline), quietPeriod: max(1, intervals.quietPeriod),
                deadline: deadline, commitNumber: state.commitNumber, release: release)
            state.waiting.append(waiting)
            if let armed = state.armedTime, armed <= waiting.checkTime { return false }
            state.armedTime = waiting.checkTime
            return true
        }
        // The timer is only scheduled on its queue, by `fire()`, which
        // looks at every waiting fetch: scheduling never races with firing.
        if arms { queue.async { [self] in fire() } }
    }

    /// Releases the fetches whose time has come, and arms the timer for
    /// the next one. On `queue`.
    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        var released: [@Sendable () -> Void] = []
        state.withLock { state in
            state.armedTime = nil
            var next = UInt64.max
            var index = 0
            while index < state.waiting.count {
                var waiting = state.waiting[index]
                if waiting.checkTime <= now {
                    if waiting.commitNumber == state.commitNumber || waiting.deadline <= now {
                        released.append(waiting.release)
                        state.waiting.remove(at: index)
                        continue
                    }
                    // Commits came: look again later, at the latest at the
                    // deadline.
                    waiting.commitNumber = state.commitNumber
                    waiting.quietPeriod = min(waiting.quietPeriod, waiting.deadline) * 2
                    waiting.checkTime = min(now + waiting.quietPeriod, waiting.deadline)
                    state.waiting[index] = waiting
                }
                next = min(next, waiting.checkTime)
                index += 1
            }
            if next != UInt64.max {
                state.armedTime = next
                // A little leeway: the fetches of one commit are released
                // together.
                timer.schedule(deadline: DispatchTime(uptimeNanoseconds: next), leeway: .microseconds(50))
            }
        }
        for release in released { release() }
    }
}
