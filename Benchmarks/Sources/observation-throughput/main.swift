import Foundation
import GRDBWorkloads
import StrataWorkloads
import WorkloadSupport

// Writes per second on a pool while observations of a constant region fetch
// a 10,000-row aggregate after each commit, Strata vs GRDB 7 (release build):
//     swift build -c release --product observation-throughput && .build/release/observation-throughput
// `OBSERVATION_SHAPE=tracking` observes with GRDB's default kind instead
// (`ValueObservation.tracking`, whose region may change), a count of a
// 50,000-row table, with one observation by default (ObservationShape).
//
// Arguments: the number of observations (default 10), the seconds of writes
// per run (default 5), the rounds (default 3). `OBSERVATION_LIBRARY=Strata`
// (or GRDB) runs one library only, and `OBSERVATION_SKIP_BASELINE=1` only
// the runs with observations, for profilers. `SQLITE_AUTOCHECKPOINT=1` gives
// Strata's pool SQLite's own automatic checkpoint back (see CheckpointPacer).
// `OBSERVATION_WAL_SIZE=1` prints the size the WAL reached in each Strata run.
//
// Each run happens in a process of its own (this program, run again with
// `OBSERVATION_RUN=<library>:<observations>`), so that no run inherits the
// memory, threads or leftover work of another; it starts once the page cache
// holds nothing the previous run wrote. Odd rounds run without observations
// first, even rounds with them. The last column is the share of the
// machine's processor time that the hypervisor gave to other machines during
// the run (Linux only): compare rounds where it stays low.

let environment = ProcessInfo.processInfo.environment
let arguments = CommandLine.arguments.dropFirst().compactMap(Double.init)
let shape = environment["OBSERVATION_SHAPE"].flatMap(ObservationShape.init(rawValue:)) ?? .constantAggregate
let observationCount = arguments.count > 0 ? Int(arguments[0]) : (shape == .trackingCount ? 1 : 10)
let seconds = arguments.count > 1 ? arguments[1] : 5
let rounds = arguments.count > 2 ? Int(arguments[2]) : 3

/// Runs one library with `count` observations, on a new database file, and
/// prints its cells: writes/s, values delivered/s, writer CPU, writer waits
/// per write.
func runOnce(library: String, count: Int) throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("observation-throughput-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("db.sqlite").path
    let result =
        library == "GRDB"
        ? try GRDBObservationWorkloads(path: path, shape: shape)
            .writesWithObservations(observationCount: count, seconds: seconds)
        : try StrataObservationWorkloads(path: path, shape: shape)
            .writesWithObservations(observationCount: count, seconds: seconds)
    let cpu = Int((100 * result.writerCPUSeconds / seconds).rounded())
    let waits = String(format: "%.2f", Double(result.writerWaits) / Double(max(1, result.writes)))
    print("\(Int(Double(result.writes) / seconds)) | \(Int(Double(result.values) / seconds)) | \(cpu)% | \(waits)")
}

if let run = environment["OBSERVATION_RUN"] {
    let parts = run.split(separator: ":")
    try runOnce(library: String(parts[0]), count: Int(parts[1])!)
    exit(0)
}

/// Runs `runOnce` in a new process, once the page cache has been written to
/// disk, and returns its cells.
func runInChildProcess(library: String, count: Int) throws -> String {
    sync()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = Array(CommandLine.arguments.dropFirst())
    process.environment = environment.merging(["OBSERVATION_RUN": "\(library):\(count)"]) { $1 }
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw NSError(domain: "observation-throughput", code: Int(process.terminationStatus))
    }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

print(
    "| round | library | observations | writes/s | values delivered/s | writer CPU | writer waits per write | stolen |"
)
print("|---:|---|---:|---:|---:|---:|---:|---:|")
for round in 1...rounds {
    for count in round % 2 == 1 ? [0, observationCount] : [observationCount, 0] {
        if environment["OBSERVATION_SKIP_BASELINE"] != nil, count == 0 { continue }
        for library in ["Strata", "GRDB"] {
            if let only = environment["OBSERVATION_LIBRARY"], only != library { continue }
            let ticks = machineStolenTicks()
            let cells = try runInChildProcess(library: library, count: count)
            let stolen = stolenPercentage(from: ticks, to: machineStolenTicks()).map { "\(Int($0.rounded()))%" } ?? "?"
            print("| \(round) | \(library) | \(count) | \(cells) | \(stolen) |")
        }
    }
}
