// Code that moves everything the linker places after it (the code of Strata,
// GRDB and the workloads, which follow this module in `compare`) by a few
// kilobytes. `Scripts/compare-layouts.sh` rewrites this file to build
// `compare` with several layouts of the same code: a workload's wall clock
// depends on where its code lands in the processor's instruction cache, by
// up to 7% from one build to the next (issue 34), and a mean over layouts
// tells a change of the code from a change of its addresses. This committed
// version is layout 0: no padding.

/// The code layout of this build of the benchmarks.
public enum CodeLayout {
    /// The layout (0: the committed one, without padding).
    public static let index = 0

    /// Called once when `compare` starts, so that the linker keeps the
    /// padding (none here).
    @inline(never)
    public static func pad(_ value: Int) -> Int { value }
}
