// The durations of a statement's executions, in buckets of fixed relative
// width: recording one is a few instructions and no allocation, the memory
// is bounded (1 KB), and a percentile comes out within 6.25% of the
// duration it estimates (half a bucket's width).

/// Counts of durations, by buckets that split each power of two of
/// nanoseconds in eight.
struct DurationHistogram: Sendable {
    /// Bits of the duration below its leading bit that pick the bucket.
    private static let subBucketBits = 3
    private static let subBucketCount = 1 << subBucketBits
    /// Durations under 2^8 ns (256 ns) share the first buckets, and
    /// durations of 2^40 ns (18 minutes) or more the last one.
    private static let smallestMagnitude = 8
    private static let largestMagnitude = 40
    /// The linear buckets under 256 ns, then eight for each power of two.
    static let bucketCount = (largestMagnitude - smallestMagnitude + 2) * subBucketCount

    /// The counts by bucket, allocated at the first duration.
    private var counts: [UInt32] = []

    /// The number of durations recorded.
    private(set) var count = 0

    /// The shortest and the longest durations recorded.
    private(set) var minimum: UInt64 = .max
    private(set) var maximum: UInt64 = 0

    /// An empty histogram.
    init() {}

    /// A histogram of counts by bucket (``bucket(of:)``), kept elsewhere
    /// (the statement statistics keep theirs in a buffer of their own, which
    /// costs no copy-on-write check per duration).
    init(counts: [UInt32], minimum: UInt64, maximum: UInt64) {
        self.counts = counts
        self.count = counts.reduce(0) { $0 + Int($1) }
        self.minimum = count == 0 ? .max : minimum
        self.maximum = maximum
    }

    /// Records a duration, in nanoseconds.
    mutating func record(_ nanoseconds: UInt64) {
        if counts.isEmpty { counts = Array(repeating: 0, count: Self.bucketCount) }
        let index = Self.bucket(of: nanoseconds)
        counts[index] &+= 1
        count += 1
        if nanoseconds < minimum { minimum = nanoseconds }
        if nanoseconds > maximum { maximum = nanoseconds }
    }

    /// The duration (nanoseconds) under which the fraction `p` (0...1) of
    /// the durations are: the middle of its bucket, within the durations
    /// recorded. Nil when none is.
    func percentile(_ p: Double) -> UInt64? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((p * Double(count)).rounded(.up)))
        // The ends are known exactly.
        if rank == 1 { return minimum }
        if rank >= count { return maximum }
        var seen = 0
        for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
            seen += Int(bucketCount)
            if seen >= rank {
                let (lower, upper) = Self.bounds(of: index)
                let middle = lower + (upper - lower) / 2
                return min(max(middle, minimum), maximum)
            }
        }
        return maximum
    }

    /// The bucket of a duration.
    @inline(__always)
    static func bucket(of nanoseconds: UInt64) -> Int {
        let smallest = UInt64(1) << smallestMagnitude
        if nanoseconds < smallest {
            // Linear buckets under 256 ns.
            return Int(nanoseconds >> (smallestMagnitude - subBucketBits))
        }
        let magnitude = min(63 - nanoseconds.leadingZeroBitCount, largestMagnitude)
        let subBucket: Int
        if magnitude == largestMagnitude && nanoseconds >= UInt64(1) << (largestMagnitude + 1) {
            subBucket = subBucketCount - 1
        } else {
            subBucket = Int((nanoseconds >> (magnitude - subBucketBits)) & UInt64(subBucketCount - 1))
        }
        return (magnitude - smallestMagnitude + 1) * subBucketCount + subBucket
    }

    /// The durations a bucket holds: lower bound included, upper excluded.
    private static func bounds(of index: Int) -> (UInt64, UInt64) {
        if index < subBucketCount {
            let width = UInt64(1) << (smallestMagnitude - subBucketBits)
            return (UInt64(index) * width, UInt64(index + 1) * width)
        }
        let magnitude = index / subBucketCount - 1 + smallestMagnitude
        let subBucket = UInt64(index % subBucketCount)
        let width = UInt64(1) << (magnitude - subBucketBits)
        let lower = (UInt64(1) << magnitude) + subBucket * width
        return (lower, lower + width)
    }
}
