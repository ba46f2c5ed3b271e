#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The processor time the current thread has used, in seconds: with the
/// wall-clock time, it tells whether a loop waited or computed.
public func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The number of times the current thread waited (voluntary context
/// switches): a loop that never blocks keeps it still.
public func threadWaitCount() -> Int {
    #if canImport(Glibc)
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD
        return usage.ru_nvcsw
    #else
        return 0
    #endif
}

/// The processor time of the whole machine so far, in clock ticks, and the
/// part of it that the hypervisor gave to other machines (`steal` in
/// `/proc/stat`): a benchmark on a virtual machine compares runs only when
/// little was stolen. Nil where `/proc/stat` does not exist.
public func machineStolenTicks() -> (total: Int, stolen: Int)? {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
        let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
    else { return nil }
    // user nice system idle iowait irq softirq steal ...
    let ticks = line.split(separator: " ").dropFirst().compactMap { Int($0) }
    guard ticks.count >= 8 else { return nil }
    return (ticks.reduce(0, +), ticks[7])
}

/// The share of the machine's processor time stolen between two readings of
/// ``machineStolenTicks()``, as a percentage; nil when unknown.
public func stolenPercentage(from start: (total: Int, stolen: Int)?, to end: (total: Int, stolen: Int)?) -> Double? {
    guard let start, let end, end.total > start.total else { return nil }
    return 100 * Double(end.stolen - start.stolen) / Double(end.total - start.total)
}
