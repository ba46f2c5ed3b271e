import CWorkloads
import Dispatch
import Foundation
import GRDBWorkloads
import StrataWorkloads
import WorkloadSupport

/// Curve 6: the write-ahead log under a long reader. A writer commits one
/// row at a steady rate; after `beforeSeconds`, a reader holds a snapshot
/// open for `holdSeconds`, then lets it go, and the writer goes on for
/// `afterSeconds`. Every `sampleSeconds`, the curve records the WAL file's
/// size and the latency of the commits of that interval (p50, p99 and the
/// slowest). One library after the other: each run is a time line.
struct WALCurve {
    var holdSeconds: Double
    var beforeSeconds = 2.0
    var afterSeconds = 10.0
    var writesPerSecond = 1_000
    var sampleSeconds = 0.25

    /// One library's pool, with its writer and its long reader.
    struct Subject {
        let walPath: String
        let insert: (Int) throws -> Void
        let holdSnapshot: @Sendable (_ started: DispatchSemaphore, _ release: DispatchSemaphore) throws -> Void

        init(_ library: Library, path: String) throws {
            switch library {
            case .c:
                let workloads = try CLongReaderWorkloads(path: path, threading: .multiThread)
                (walPath, insert, holdSnapshot) = (workloads.walPath, workloads.insert, workloads.holdSnapshot)
            case .strata:
                let workloads = try StrataLongReaderWorkloads(path: path)
                (walPath, insert, holdSnapshot) = (workloads.walPath, workloads.insert, workloads.holdSnapshot)
            case .grdb:
                let workloads = try GRDBLongReaderWorkloads(path: path)
                (walPath, insert, holdSnapshot) = (workloads.walPath, workloads.insert, workloads.holdSnapshot)
            }
        }
    }

    func run() throws -> CSVFile {
        var csv = CSVFile(header: [
            "library", "seconds", "phase", "wal_bytes", "commits", "p50_us", "p99_us", "max_us",
        ])
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-cost-curves-wal-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for library in Library.allCases {
            let path = directory.appendingPathComponent("\(library.rawValue).sqlite").path
            try timeline(Subject(library, path: path), library: library, into: &csv)
        }
        return csv
    }

    private func timeline(_ subject: Subject, library: Library, into csv: inout CSVFile) throws {
        let holdStart = beforeSeconds
        let holdEnd = beforeSeconds + holdSeconds
        let end = holdEnd + afterSeconds
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        let readerError = ErrorBox()
        var readerRunning = false
        var latencies: [Double] = []
        var maximumWAL = 0
        var intervalStart = 0.0
        var write = 0
        let start = monotonicNanoseconds()
        func elapsed() -> Double { Double(monotonicNanoseconds() - start) / 1e9 }
        while true {
            let now = elapsed()
            if !readerRunning, now >= holdStart, now < holdEnd {
                readerRunning = true
                let hold = subject.holdSnapshot
                Thread.detachNewThread {
                    do { try hold(started, release) } catch {
                        readerError.error = error
                        started.signal()
                    }
                    readerDone.signal()
                }
                started.wait()
                if let error = readerError.error { throw error }
            }
            if readerRunning, now >= holdEnd {
                readerRunning = false
                release.signal()
                readerDone.wait()
                if let error = readerError.error { throw error }
            }
            if now - intervalStart >= sampleSeconds || now >= end {
                let walBytes = fileSize(subject.walPath)
                maximumWAL = max(maximumWAL, walBytes)
                let sorted = latencies.sorted()
                let phase = intervalStart < holdStart ? "before" : intervalStart < holdEnd ? "holding" : "after"
                csv.append([
                    library.rawValue, String(format: "%.2f", now), phase, "\(walBytes)", "\(sorted.count)",
                    String(format: "%.1f", percentile(sorted, 0.5) / 1000),
                    String(format: "%.1f", percentile(sorted, 0.99) / 1000),
                    String(format: "%.1f", (sorted.last ?? .nan) / 1000),
                ])
                latencies.removeAll(keepingCapacity: true)
                intervalStart = now
                if now >= end { break }
            }
            // The next commit at its place in the steady rate; none to catch
            // up on after a slow one.
            let due = Double(write) / Double(writesPerSecond)
            if due > now {
                usleep(useconds_t((due - now) * 1e6))
            } else if now - due > 0.1 {
                write = Int(now * Double(writesPerSecond))
            }
            latencies.append(try measureNanoseconds { try subject.insert(write) })
            write += 1
        }
        log(
            "wal \(library.rawValue): largest WAL \(maximumWAL / 1_048_576) MiB, at the end \(fileSize(subject.walPath) / 1_048_576) MiB"
        )
    }
}

/// An error of the long reader's thread, for the writer's.
private final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    var error: (any Error)? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
