import Foundation

/// How often a value observation fetches while commits keep coming: a
/// Strata addition to ``ValueObservation`` (``ValueObservation/paced(_:)``),
/// and the pacing of live values (``LiveValue``).
///
/// A value observation fetches after each commit that changes its region
/// (``everyCommit``): the fetches that run meanwhile coalesce the commits,
/// so a busy writer gets about one fetch per commit when fetches are quick.
/// Each fetch, reduction and notification wakes threads, and while the
/// writer is busy those wake-ups compete with it: on a two-core machine,
/// one observation of a quick query on a pool halves the rate of short
/// writes. Values shown to people need no more than one per frame.
///
/// A paced observation fetches at once after a commit that comes at least
/// ``maximumDelay`` after its last fetch. After a commit that comes sooner,
/// it waits: until the writer made no commit during ``quietPeriod`` (when
/// it did, the observation looks again after twice that time, then four
/// times...), and at most ``maximumDelay`` after that commit. One fetch
/// then sees every commit made meanwhile. The values keep their order, and
/// the last one always reflects the last commit.
///
/// ```swift
/// let observation = ValueObservation
///     .tracking { db in try Player.fetchCount(db) }
///     .paced(.display)
/// ```
///
/// Pacing applies to observations of a ``DatabaseQueue`` or a
/// ``DatabasePool``, where it delays the fetch; an observation of a
/// replica fetches once for each batch of changes the replica applies.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct ObservationPacing: Sendable, Hashable {
    /// How long the writer must make no commit for the fetch to run before
    /// ``maximumDelay``.
    public var quietPeriod: Duration
    /// The longest a fetch waits after a commit; also the time since the
    /// last fetch after which a commit is fetched at once.
    public var maximumDelay: Duration

    /// A pacing that waits for `quietPeriod` without commits, at most
    /// `maximumDelay` after a commit. Negative durations count as zero, and
    /// a quiet period longer than the maximum delay as the maximum delay.
    public init(quietPeriod: Duration, maximumDelay: Duration) {
        self.quietPeriod = quietPeriod
        self.maximumDelay = maximumDelay
    }

    /// A fetch after each commit that changes the observed region, as
    /// ``ValueObservation`` does by default.
    public static let everyCommit = ObservationPacing(quietPeriod: .zero, maximumDelay: .zero)

    /// For values shown to people, the pacing of ``LiveValue`` by default:
    /// a commit after a pause of a frame (1/60 s) is fetched at once;
    /// commits that follow each other are fetched once the writer pauses
    /// for half a millisecond, and at least once a frame while it doesn't.
    public static let display = ObservationPacing(
        quietPeriod: .microseconds(500), maximumDelay: .microseconds(16_667))

    /// The pacing in nanoseconds, or nil for ``everyCommit``.
    var intervals: PacingIntervals? {
        let maximum = Self.nanoseconds(maximumDelay)
        guard maximum > 0 else { return nil }
        return PacingIntervals(quietPeriod: min(Self.nanoseconds(quietPeriod), maximum), maximumDelay: maximum)
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow else { return UInt64.max / 2 }
        return UInt64(nanoseconds.partialValue) + UInt64(attoseconds / 1_000_000_000)
    }
}

/// The durations of an ``ObservationPacing``, in nanoseconds of
/// `DispatchTime`: what observers store, with no availability condition.
struct PacingIntervals: Sendable, Hashable {
    /// At most `maximumDelay`.
    let quietPeriod: UInt64
    /// Positive.
    let maximumDelay: UInt64
}

extension ValueObservation {
    /// The observation, fetching at the given pace while commits keep
    /// coming (see ``ObservationPacing``). A Strata addition; by default, a
    /// value observation fetches after each commit.
    ///
    /// ```swift
    /// let cancellable = ValueObservation
    ///     .tracking(Player.fetchAll)
    ///     .paced(.display)
    ///     .start(in: dbPool) { error in
    ///         // Handle error
    ///     } onChange: { players in
    ///         print("Fresh players: \(players)")
    ///     }
    /// ```
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public func paced(_ pacing: ObservationPacing) -> Self {
        var observation = self
        observation.pacing = pacing.intervals
        return observation
    }
}
