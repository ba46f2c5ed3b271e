import CWorkloads
import Foundation
import GRDBWorkloads
import StrataWorkloads
import WorkloadSupport

/// Curve 5: observations on a pool (`ValueObservation.tracking` of the
/// latest row, `ObservationShape.latestRow`, notified on a global queue):
/// the writer's rate of one-row commits with 0, 1, 10, 100 and 1,000 of
/// them against none, and the latency from a commit to each notification
/// (p50 and p99), for Strata and GRDB in turn. C is the floor: the same
/// fetches after each commit on a reader thread of its own, without any
/// bookkeeping (`CObservationFloor`).
struct ObservationsCurve {
    var observationCounts: [Int]
    var rounds: Int
    var rateSeconds = 2.0

    /// One library's pool, for one number of observations.
    struct Subject {
        let rate: (_ observations: Int, _ seconds: Double) throws -> Int
        let latencies: (_ observations: Int, _ writes: Int) throws -> [Double]

        init(_ library: Library, path: String) throws {
            switch library {
            case .c:
                let floor = try CObservationFloor(path: path, threading: .multiThread)
                rate = { try floor.writesWithObservations(observationCount: $0, seconds: $1).writes }
                latencies = floor.notificationLatencies
            case .strata:
                let workloads = try StrataObservationWorkloads(path: path, shape: .latestRow)
                rate = { try workloads.writesWithObservations(observationCount: $0, seconds: $1).writes }
                latencies = workloads.notificationLatencies
            case .grdb:
                let workloads = try GRDBObservationWorkloads(path: path, shape: .latestRow)
                rate = { try workloads.writesWithObservations(observationCount: $0, seconds: $1).writes }
                latencies = workloads.notificationLatencies
            }
        }
    }

    /// The writes of one latency measurement with `observations`
    /// observations: enough for 20,000 latencies, between 50 and 1,000.
    static func latencyWrites(observations: Int) -> Int {
        min(1_000, max(50, 20_000 / max(1, observations)))
    }

    func run() throws -> CSVFile {
        var csv = CSVFile(header: [
            "observations", "library", "writes_per_second", "ratio_to_none", "p50_us", "p99_us", "samples",
        ])
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-cost-curves-observations-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var noneRates: [Library: Double] = [:]
        for count in observationCounts {
            var subjects: [Library: Subject] = [:]
            for library in Library.allCases {
                let path = directory.appendingPathComponent("\(library.rawValue)-\(count).sqlite").path
                let subject = try Subject(library, path: path)
                _ = try subject.rate(count, rateSeconds / 4)  // warm-up
                subjects[library] = subject
            }
            var rates: [Library: [Double]] = [:]
            var latencies: [Library: [Double]] = [:]
            for round in 0..<rounds {
                for library in rotated(Library.allCases, by: round) {
                    let writes = try subjects[library]!.rate(count, rateSeconds)
                    rates[library, default: []].append(Double(writes) / rateSeconds)
                    if count > 0 {
                        latencies[library, default: []] += try subjects[library]!.latencies(
                            count, Self.latencyWrites(observations: count))
                    }
                }
            }
            for library in Library.allCases {
                let rate = median(rates[library]!)
                if count == 0 { noneRates[library] = rate }
                let ratio = noneRates[library].map { String(format: "%.3f", rate / $0) } ?? ""
                let sorted = latencies[library, default: []].sorted()
                let p50 = sorted.isEmpty ? "" : String(format: "%.1f", percentile(sorted, 0.5) / 1000)
                let p99 = sorted.isEmpty ? "" : String(format: "%.1f", percentile(sorted, 0.99) / 1000)
                csv.append([
                    "\(count)", library.rawValue, String(format: "%.0f", rate), ratio, p50, p99, "\(sorted.count)",
                ])
                log(
                    "observations \(count) \(library.rawValue): \(String(format: "%.0f", rate)) writes/s"
                        + (ratio.isEmpty ? "" : " (\(ratio) of none)")
                        + (p50.isEmpty ? "" : ", latency p50 \(p50) µs, p99 \(p99) µs"))
            }
        }
        return csv
    }
}
