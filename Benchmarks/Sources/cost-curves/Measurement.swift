import Foundation

/// Monotonic time, in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// The nanoseconds `body` takes.
func measureNanoseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = monotonicNanoseconds()
    try body()
    return Double(monotonicNanoseconds() - start)
}

/// The process's resident memory, from /proc/self/status (Linux): now
/// (`VmRSS`) and its peak since the last `resetPeak()` (`VmHWM`).
enum ResidentMemory {
    /// `VmRSS` and `VmHWM`, in bytes; nil where /proc does not tell them.
    static func read() -> (current: Int, peak: Int)? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        var current: Int?
        var peak: Int?
        for line in status.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
            if fields[0] == "VmRSS:" { current = kilobytes * 1024 }
            if fields[0] == "VmHWM:" { peak = kilobytes * 1024 }
        }
        guard let current, let peak else { return nil }
        return (current, peak)
    }

    /// Sets the peak to the current resident memory (Linux 4.0 and later:
    /// writing 5 to /proc/self/clear_refs). False where it cannot.
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    /// Gives the memory that earlier work freed back to the system (glibc's
    /// `malloc_trim`, looked up at run time: Swift's Glibc module does not
    /// declare it), so that a measure of the peak does not reuse it.
    static func returnFreedMemory() {
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        typealias MallocTrim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }

    /// The bytes of resident memory that `body` added at its peak, or nil
    /// where the peak cannot be measured.
    static func peakGrowth(_ body: () throws -> Void) rethrows -> Int? {
        guard resetPeak(), let before = read() else {
            try body()
            return nil
        }
        try body()
        guard let after = read() else { return nil }
        return max(0, after.peak - before.current)
    }
}

/// Lines of comma-separated values, written to a file at the end.
struct CSVFile {
    let header: [String]
    var lines: [[String]] = []

    mutating func append(_ fields: [String]) {
        precondition(fields.count == header.count)
        lines.append(fields)
    }

    func write(to url: URL) throws {
        let text = ([header] + lines).map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
