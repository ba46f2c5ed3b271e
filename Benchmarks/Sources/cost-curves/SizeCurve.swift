import CWorkloads
import Foundation
import GRDBWorkloads
import StrataWorkloads
import WorkloadSupport

/// Curve 3: point queries (by primary key, and through a secondary index)
/// as the file grows, for C, Strata and GRDB in turn: p50 and p99 latency
/// with a warm and a cold page cache, without and with a memory map.
///
/// The files (`SizeFixture`, about 1 KB per row) are built once in
/// `dataDirectory` and kept there for the next runs.
///
/// - Cold: the library opens the file and runs one query (its statement
///   prepared), the file's pages leave the page cache, then
///   `coldQueries` random queries are timed, and the library closes the
///   file; `coldCycles` times for each library.
/// - Warm: the three libraries keep the file open, the whole file is read
///   into the page cache, each library runs `warmQueries` queries untimed,
///   then `rounds` rounds of `warmQueries` timed queries each, the
///   libraries in turn.
struct SizeCurve {
    var megabytes: [Int]
    var dataDirectory: URL
    var rounds: Int
    var warmQueries = 2_000
    var coldCycles = 10
    var coldQueries = 100

    /// The memory map asked for with `mmap_size`: SQLite caps it at its
    /// compile-time maximum (2 GB by default), so a bigger file is mapped
    /// in part only.
    static let mappedBytes = 1 << 40

    enum QueryKind: String, CaseIterable {
        case primaryKey = "primary-key"
        case secondaryKey = "secondary-key"
    }

    enum Cache: String, CaseIterable {
        case cold, warm
    }

    /// One library's connection to a file, for point queries.
    struct Querier {
        let byID: (Int) throws -> Int
        let byKey: (Int) throws -> Int

        init(_ library: Library, path: String, mmapSize: Int) throws {
            switch library {
            case .c:
                let queries = try CPointQueries(path: path, mmapSize: mmapSize, threading: .multiThread)
                (byID, byKey) = (queries.fetch(id:), queries.fetch(key:))
            case .strata:
                let queries = try StrataPointQueries(path: path, mmapSize: mmapSize)
                (byID, byKey) = (queries.fetch(id:), queries.fetch(key:))
            case .grdb:
                let queries = try GRDBPointQueries(path: path, mmapSize: mmapSize)
                (byID, byKey) = (queries.fetch(id:), queries.fetch(key:))
            }
        }

        /// Runs one query of `kind` for row `id`; returns its latency in
        /// nanoseconds (the key is computed before the clock starts).
        func time(_ kind: QueryKind, id: Int) throws -> Double {
            let fetch = kind == .primaryKey ? byID : byKey
            let argument = kind == .primaryKey ? id : SizeFixture.key(forID: id)
            var result = 0
            let nanoseconds = try measureNanoseconds { result = try fetch(argument) }
            guard result > id else { throw CurveError("no row \(id) (\(kind.rawValue))") }
            return nanoseconds
        }
    }

    func run() throws -> CSVFile {
        var csv = CSVFile(header: [
            "size_mb", "file_bytes", "rows", "cache", "mmap", "query", "library", "p50_us", "p99_us", "samples",
        ])
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        for size in megabytes {
            let rowCount = SizeFixture.rowCount(megabytes: size)
            let path = try database(megabytes: size).path
            let fileBytes = fileSize(path)
            var random = SeededRandom(state: UInt64(size))
            for mmap in [false, true] {
                let mmapSize = mmap ? Self.mappedBytes : 0
                for cache in Cache.allCases {
                    let samples =
                        cache == .cold
                        ? try coldSamples(path: path, rowCount: rowCount, mmapSize: mmapSize, random: &random)
                        : try warmSamples(path: path, rowCount: rowCount, mmapSize: mmapSize, random: &random)
                    for kind in QueryKind.allCases {
                        for library in Library.allCases {
                            let sorted = samples["\(kind.rawValue)/\(library.rawValue)", default: []].sorted()
                            let p50 = percentile(sorted, 0.5) / 1000
                            let p99 = percentile(sorted, 0.99) / 1000
                            csv.append([
                                "\(size)", "\(fileBytes)", "\(rowCount)", cache.rawValue, mmap ? "on" : "off",
                                kind.rawValue, library.rawValue, String(format: "%.2f", p50),
                                String(format: "%.2f", p99), "\(sorted.count)",
                            ])
                            log(
                                "size \(size) MB \(cache.rawValue) mmap \(mmap ? "on" : "off") \(kind.rawValue) "
                                    + "\(library.rawValue): p50 \(String(format: "%.1f", p50)) µs, "
                                    + "p99 \(String(format: "%.1f", p99)) µs")
                        }
                    }
                }
            }
        }
        return csv
    }

    /// The file of about `megabytes` megabytes, built the first time.
    func database(megabytes: Int) throws -> URL {
        let url = dataDirectory.appendingPathComponent("size-\(megabytes)mb.sqlite")
        let rowCount = SizeFixture.rowCount(megabytes: megabytes)
        if FileManager.default.fileExists(atPath: url.path) {
            // A file of an interrupted build lacks rows, or the index.
            let connection = try CConnection(path: url.path, threading: .multiThread)
            let complete = try? connection.scalar(
                "SELECT (SELECT MAX(id) FROM item) = \(rowCount) AND EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'item_key')"
            )
            if complete == 1 { return url }
        }
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
        let start = monotonicNanoseconds()
        let connection = try CConnection(path: url.path, threading: .multiThread)
        for sql in SizeFixture.buildSQL(rowCount: rowCount) { try connection.execute(sql) }
        log("size \(megabytes) MB: file built in \(seconds(since: start)) s")
        return url
    }

    private func coldSamples(
        path: String, rowCount: Int, mmapSize: Int, random: inout SeededRandom
    ) throws -> [String: [Double]] {
        let fileBytes = fileSize(path)
        var samples: [String: [Double]] = [:]
        for cycle in 0..<coldCycles {
            for library in rotated(Library.allCases, by: cycle) {
                for kind in QueryKind.allCases {
                    let querier = try Querier(library, path: path, mmapSize: mmapSize)
                    _ = try querier.time(kind, id: 1)
                    try PageCache.drop(path)
                    try PageCache.drop(path + "-wal")
                    if cycle == 0, let resident = PageCache.residentBytes(path), resident > fileBytes / 10 {
                        log("size: \(resident) bytes of \(path) still in the page cache after the drop")
                    }
                    for _ in 0..<coldQueries {
                        let id = Int.random(in: 1...rowCount, using: &random)
                        samples["\(kind.rawValue)/\(library.rawValue)", default: []].append(
                            try querier.time(kind, id: id))
                    }
                }
            }
        }
        return samples
    }

    private func warmSamples(
        path: String, rowCount: Int, mmapSize: Int, random: inout SeededRandom
    ) throws -> [String: [Double]] {
        var queriers: [Library: Querier] = [:]
        for library in Library.allCases {
            queriers[library] = try Querier(library, path: path, mmapSize: mmapSize)
        }
        try PageCache.load(path)
        let fileBytes = fileSize(path)
        if let resident = PageCache.residentBytes(path), resident < fileBytes * 95 / 100 {
            log("size: only \(resident) bytes of \(path) in the page cache after reading it")
        }
        for library in Library.allCases {
            for kind in QueryKind.allCases {
                for _ in 0..<warmQueries {
                    _ = try queriers[library]!.time(kind, id: Int.random(in: 1...rowCount, using: &random))
                }
            }
        }
        var samples: [String: [Double]] = [:]
        for round in 0..<rounds {
            for library in rotated(Library.allCases, by: round) {
                for kind in QueryKind.allCases {
                    var latencies: [Double] = []
                    latencies.reserveCapacity(warmQueries)
                    for _ in 0..<warmQueries {
                        let id = Int.random(in: 1...rowCount, using: &random)
                        latencies.append(try queriers[library]!.time(kind, id: id))
                    }
                    samples["\(kind.rawValue)/\(library.rawValue)", default: []] += latencies
                }
            }
        }
        return samples
    }
}

/// A curve could not be measured.
struct CurveError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
