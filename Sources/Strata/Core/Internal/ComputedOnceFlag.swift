// A Boolean computed on first use and cached, for the properties of hot
// paths: the test of the cache is inlined in the caller, where the getter of
// a `lazy` property is a call.

/// A Boolean computed on first use, then read from the cache.
struct ComputedOnceFlag {
    /// 0 until computed, then 1 (false) or 2 (true).
    private var state: UInt8 = 0

    /// The cached value, computed by `compute` on first use.
    @inline(__always)
    mutating func value(_ compute: () -> Bool) -> Bool {
        switch state {
        case 1: return false
        case 2: return true
        default: return computeValue(compute)
        }
    }

    @inline(never)
    private mutating func computeValue(_ compute: () -> Bool) -> Bool {
        let result = compute()
        state = result ? 2 : 1
        return result
    }
}
