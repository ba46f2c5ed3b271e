import Foundation
import GRDBWorkloads
import StrataWorkloads

// Writes per second on a pool while observations of a constant region fetch
// a 10,000-row aggregate after each commit, Strata vs GRDB 7 (release build):
//     swift build -c release --product observation-throughput && .build/release/observation-throughput
//
// Arguments: the number of observations (default 10), the seconds of writes
// per run (default 5), the rounds (default 3). `OBSERVATION_LIBRARY=Strata`
// (or GRDB) runs one library only, and `OBSERVATION_SKIP_BASELINE=1` only
// the runs with observations, for profilers. `SQLITE_AUTOCHECKPOINT=1` gives
// Strata's pool SQLite's own automatic checkpoint back (see CheckpointPacer).
// `OBSERVATION_WAL_SIZE=1` prints the size the WAL reached in each Strata run.

let arguments = CommandLine.arguments.dropFirst().compactMap(Double.init)
let observationCount = arguments.count > 0 ? Int(arguments[0]) : 10
let seconds = arguments.count > 1 ? arguments[1] : 5
let rounds = arguments.count > 2 ? Int(arguments[2]) : 3

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("observation-throughput-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

func path() -> String {
    directory.appendingPathComponent("\(UUID().uuidString).sqlite").path
}

print("| round | library | observations | writes/s | values delivered/s | writer CPU | writer waits per write |")
print("|---:|---|---:|---:|---:|---:|---:|")
for round in 1...rounds {
    for count in [0, observationCount] {
        if ProcessInfo.processInfo.environment["OBSERVATION_SKIP_BASELINE"] != nil, count == 0 { continue }
        for (name, run) in [
            ("Strata", { try StrataObservationWorkloads(path: path()).writesWithObservations(observationCount: count, seconds: seconds) }),
            ("GRDB", { try GRDBObservationWorkloads(path: path()).writesWithObservations(observationCount: count, seconds: seconds) }),
        ] as [(String, () throws -> (writes: Int, values: Int, writerCPUSeconds: Double, writerWaits: Int))] {
            if let only = ProcessInfo.processInfo.environment["OBSERVATION_LIBRARY"], only != name { continue }
            let result = try run()
            let cpu = Int((100 * result.writerCPUSeconds / seconds).rounded())
            print("| \(round) | \(name) | \(count) | \(Int(Double(result.writes) / seconds)) | \(Int(Double(result.values) / seconds)) | \(cpu)% | \(String(format: "%.2f", Double(result.writerWaits) / Double(max(1, result.writes)))) |")
        }
    }
}
