import CWorkloads
import Foundation
import GRDBWorkloads
import StrataWorkloads
import WorkloadSupport

// Pool throughput, raw C (multi-thread) vs Strata vs GRDB 7 (release build):
//     swift build -c release --product pool-throughput && .build/release/pool-throughput

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pool-throughput-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

let setupSQL = Fixture.poolSetup
let c = try CPoolWorkloads(
    path: directory.appendingPathComponent("c.sqlite").path, setupSQL: setupSQL, threading: .multiThread)
let strata = try StrataPoolWorkloads(path: directory.appendingPathComponent("strata.sqlite").path, setupSQL: setupSQL)
let grdb = try GRDBPoolWorkloads(path: directory.appendingPathComponent("grdb.sqlite").path, setupSQL: setupSQL)
let scans = 10
let burst = 10_000

for round in 1...3 {
    for (name, run) in [
        ("C (multi-thread)", { try c.readersDuringWrites(scans: scans) }),
        ("Strata", { try strata.readersDuringWrites(scans: scans) }),
        ("GRDB", { try grdb.readersDuringWrites(scans: scans) }),
    ] as [(String, () throws -> (rows: Int, batches: Int))] {
        var result = (rows: 0, batches: 0)
        let time = try seconds { result = try run() }
        print(
            "round \(round) · 2 readers + writer · \(name): \(String(format: "%.3f", time)) s, "
                + "\(Int(Double(result.rows) / time)) rows/s read, \(Int(Double(result.batches) / time)) batches/s written"
        )
    }
    for (name, run) in [
        ("Strata", { _ = try await strata.asyncReadBurst(count: burst) }),
        ("GRDB", { _ = try await grdb.asyncReadBurst(count: burst) }),
    ] as [(String, () async throws -> Void)] {
        let time = try await seconds { try await run() }
        print(
            "round \(round) · \(burst) async reads · \(name): \(String(format: "%.3f", time)) s, \(Int(Double(burst) / time)) reads/s"
        )
    }
}
