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

/// The size of the file at `path` in bytes; 0 where it does not exist.
func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? 0
}

/// A file's pages in the operating system's page cache.
enum PageCache {
    /// Writes the file's dirty pages, then drops all its pages from the page
    /// cache (`posix_fadvise(POSIX_FADV_DONTNEED)`; pages that a process
    /// maps stay). Throws where the file cannot be opened.
    static func drop(_ path: String) throws {
        let descriptor = open(path, O_RDWR)
        guard descriptor >= 0 else { throw PageCacheError(path: path, call: "open", code: errno) }
        defer { close(descriptor) }
        fsync(descriptor)
        let code = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
        guard code == 0 else { throw PageCacheError(path: path, call: "posix_fadvise", code: code) }
    }

    /// Reads the whole file once, so that its pages are in the page cache.
    static func load(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw PageCacheError(path: path, call: "open", code: errno) }
        defer { close(descriptor) }
        let size = 8 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        defer { buffer.deallocate() }
        while read(descriptor, buffer, size) > 0 {}
    }

    /// The bytes of the file's pages in the page cache (`mincore` on a map
    /// of the file), to check that a drop or a load did its job.
    static func residentBytes(_ path: String) -> Int? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
        let length = Int(status.st_size)
        guard let map = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), map != MAP_FAILED else { return nil }
        defer { munmap(map, length) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var vector = [UInt8](repeating: 0, count: (length + pageSize - 1) / pageSize)
        guard mincore(map, length, &vector) == 0 else { return nil }
        return vector.reduce(0) { $0 + Int($1 & 1) } * pageSize
    }
}

/// A system call of ``PageCache`` failed.
struct PageCacheError: Error, CustomStringConvertible {
    var path: String
    var call: String
    var code: Int32
    var description: String { "\(call) \(path): \(String(cString: strerror(code)))" }
}

/// A seeded generator (SplitMix64): a run of a curve draws the same random
/// arguments as the run before it.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
