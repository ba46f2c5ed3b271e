import CWorkloads
import Foundation
import GRDBWorkloads
import StrataWorkloads
import WorkloadSupport

/// Curve 4: a pool's read throughput with 1, 2, 4, 8 and 16 concurrent
/// readers while a writer commits, and the writer's rate meanwhile, for C,
/// Strata and GRDB in turn (the pool workload of `pool-throughput`: each
/// reader scans table `t`, 200,000 rows; the writer commits batches of 100
/// rows until the readers are done).
///
/// Each library's pool gets as many reader connections as there are
/// readers, so that no reader waits for a connection: the curve shows what
/// the processor allows. It must flatten at the core count.
struct ReadersCurve {
    var readerCounts: [Int]
    var rounds: Int
    /// The scans of `t` of each measurement, shared by its readers.
    var scansPerMeasurement = 64

    /// One library's pool, with its readers.
    struct Pool {
        let measure: (_ scans: Int) throws -> (rows: Int, batches: Int)

        init(_ library: Library, path: String, readers: Int) throws {
            switch library {
            case .c:
                let pool = try CPoolWorkloads(
                    path: path, setupSQL: Fixture.poolSetup, threading: .multiThread, readerCount: readers)
                measure = { try pool.readersDuringWrites(scans: $0) }
            case .strata:
                let pool = try StrataPoolWorkloads(
                    path: path, setupSQL: Fixture.poolSetup, maximumReaderCount: readers)
                measure = { try pool.readersDuringWrites(readers: readers, scans: $0) }
            case .grdb:
                let pool = try GRDBPoolWorkloads(path: path, setupSQL: Fixture.poolSetup, maximumReaderCount: readers)
                measure = { try pool.readersDuringWrites(readers: readers, scans: $0) }
            }
        }
    }

    func run() throws -> CSVFile {
        var csv = CSVFile(header: [
            "readers", "library", "rows_per_second", "writer_batches_per_second", "ratio_to_c", "cores",
        ])
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-cost-curves-readers-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for readers in readerCounts {
            var pools: [Library: Pool] = [:]
            for library in Library.allCases {
                let path = directory.appendingPathComponent("\(library.rawValue)-\(readers).sqlite").path
                pools[library] = try Pool(library, path: path, readers: readers)
                _ = try pools[library]!.measure(1)  // warm-up: opens every reader
            }
            let scans = max(1, scansPerMeasurement / readers)
            var readRates: [Library: [Double]] = [:]
            var writeRates: [Library: [Double]] = [:]
            for round in 0..<rounds {
                for library in rotated(Library.allCases, by: round) {
                    var result = (rows: 0, batches: 0)
                    let nanoseconds = try measureNanoseconds { result = try pools[library]!.measure(scans) }
                    readRates[library, default: []].append(Double(result.rows) / (nanoseconds / 1e9))
                    writeRates[library, default: []].append(Double(result.batches) / (nanoseconds / 1e9))
                }
            }
            let cRate = median(readRates[.c]!)
            for library in Library.allCases {
                let rate = median(readRates[library]!)
                let writes = median(writeRates[library]!)
                csv.append([
                    "\(readers)", library.rawValue, String(format: "%.0f", rate), String(format: "%.1f", writes),
                    String(format: "%.3f", rate / cRate), "\(cores)",
                ])
                log(
                    "readers \(readers) \(library.rawValue): \(String(format: "%.2f", rate / 1e6)) M rows/s, "
                        + "writer \(String(format: "%.0f", writes)) batches/s, \(String(format: "%.2f", rate / cRate)) of C"
                )
            }
        }
        return csv
    }
}
