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
