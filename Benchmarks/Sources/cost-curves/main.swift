import Foundation
import WorkloadSupport

// cost-curves: how cost grows with the work (issue 51), for C, Strata and
// GRDB measured in turn in one run. Each curve writes a CSV file into the
// output directory; Scripts/plot-curves.py draws them, and
// Scripts/cost-curves.sh runs both.
//
//   cost-curves [rows] [bulk] [size] [readers] [observations] [wal] [--output DIR]
//
// Environment:
// - CURVE_ROUNDS (3): the rounds of each measurement.
// - rows: CURVE_MIN_ROWS (1000) and CURVE_MAX_ROWS (10000000), the smallest
//   and largest tables; CURVE_OPERATIONS (all: cursor-rows, fetchall-rows,
//   cursor-records, fetchall-records, insert; comma-separated).
// - bulk: CURVE_BULK_ROWS (1000000).
// - size: CURVE_SIZES_MB (10,100,1000,10000), the files' sizes;
//   CURVE_DATA_DIR (a directory in the temporary directory) keeps the files
//   from one run to the next (the 10 GB file takes about 1.5 minutes to
//   build, and needs 11 GB of disk).
// - readers: CURVE_READERS (1,2,4,8,16).
// - observations: CURVE_OBSERVATIONS (0,1,10,100,1000).
// - wal: CURVE_WAL_HOLD_SECONDS (30), how long the reader holds its snapshot.

let arguments = Array(CommandLine.arguments.dropFirst())
var curves: [String] = []
var output = URL(fileURLWithPath: "Curves")
var index = 0
while index < arguments.count {
    if arguments[index] == "--output", index + 1 < arguments.count {
        output = URL(fileURLWithPath: arguments[index + 1])
        index += 2
        continue
    }
    curves.append(arguments[index])
    index += 1
}
let knownCurves = ["rows", "bulk", "size", "readers", "observations", "wal"]
if curves.isEmpty { curves = knownCurves }
for curve in curves where !knownCurves.contains(curve) {
    log("unknown curve \(curve): \(knownCurves.joined(separator: ", "))")
    exit(2)
}

let environment = ProcessInfo.processInfo.environment
let rounds = environment["CURVE_ROUNDS"].flatMap(Int.init) ?? 3
let minimumRowCount = environment["CURVE_MIN_ROWS"].flatMap(Int.init) ?? 1_000
let maximumRowCount = environment["CURVE_MAX_ROWS"].flatMap(Int.init) ?? 10_000_000
var rowOperations = RowOperation.allCases
if let list = environment["CURVE_OPERATIONS"] {
    rowOperations = []
    for name in list.split(separator: ",") {
        guard let operation = RowOperation(rawValue: String(name)) else {
            log("unknown operation \(name): \(RowOperation.allCases.map(\.rawValue).joined(separator: ", "))")
            exit(2)
        }
        rowOperations.append(operation)
    }
}
let bulkRowCount = environment["CURVE_BULK_ROWS"].flatMap(Int.init) ?? 1_000_000
let sizesInMegabytes = (environment["CURVE_SIZES_MB"] ?? "10,100,1000,10000").split(separator: ",").compactMap {
    Int($0)
}
let dataDirectory = URL(
    fileURLWithPath: environment["CURVE_DATA_DIR"]
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("strata-cost-curves").path)
let readerCounts = (environment["CURVE_READERS"] ?? "1,2,4,8,16").split(separator: ",").compactMap { Int($0) }
let observationCounts = (environment["CURVE_OBSERVATIONS"] ?? "0,1,10,100,1000").split(separator: ",").compactMap {
    Int($0)
}
let walHoldSeconds = environment["CURVE_WAL_HOLD_SECONDS"].flatMap(Double.init) ?? 30

do {
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    let machine =
        "\(processorName()), \(ProcessInfo.processInfo.activeProcessorCount) cores, "
        + ISO8601DateFormatter().string(from: Date())
    try (machine + "\n").write(to: output.appendingPathComponent("machine.txt"), atomically: true, encoding: .utf8)
    log("cost-curves on \(machine)")
    if curves.contains("rows") {
        var rowCounts: [Int] = []
        var rowCount = minimumRowCount
        while rowCount <= maximumRowCount {
            rowCounts.append(rowCount)
            rowCount *= 10
        }
        let csv = try RowCurve(rowCounts: rowCounts, rounds: rounds, operations: rowOperations).run()
        try csv.write(to: output.appendingPathComponent("rows.csv"))
    }
    if curves.contains("bulk") {
        let csv = try BulkInsertCurve(rowCount: bulkRowCount, rounds: max(rounds, 5)).run()
        try csv.write(to: output.appendingPathComponent("bulk-insert.csv"))
    }
    if curves.contains("size") {
        let csv = try SizeCurve(megabytes: sizesInMegabytes, dataDirectory: dataDirectory, rounds: rounds).run()
        try csv.write(to: output.appendingPathComponent("database-size.csv"))
    }
    if curves.contains("readers") {
        let csv = try ReadersCurve(readerCounts: readerCounts, rounds: rounds).run()
        try csv.write(to: output.appendingPathComponent("readers.csv"))
    }
    if curves.contains("observations") {
        let csv = try ObservationsCurve(observationCounts: observationCounts, rounds: rounds).run()
        try csv.write(to: output.appendingPathComponent("observations.csv"))
    }
    if curves.contains("wal") {
        let csv = try WALCurve(holdSeconds: walHoldSeconds).run()
        try csv.write(to: output.appendingPathComponent("wal.csv"))
    }
} catch {
    log("cost-curves: \(error)")
    exit(1)
}
