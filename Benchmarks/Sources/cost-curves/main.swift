import Foundation
import WorkloadSupport

// cost-curves: how cost grows with the work (issue 51), for C, Strata and
// GRDB measured in turn in one run. Each curve writes a CSV file into the
// output directory; Scripts/plot-curves.py draws them, and
// Scripts/cost-curves.sh runs both.
//
//   cost-curves [rows] [bulk] [--output DIR]
//
// Environment: CURVE_ROUNDS (3), CURVE_MIN_ROWS (1000) and CURVE_MAX_ROWS
// (10000000), the smallest and largest tables of the rows curve,
// CURVE_OPERATIONS (all: cursor-rows, fetchall-rows, cursor-records,
// fetchall-records, insert; comma-separated), CURVE_BULK_ROWS (1000000).

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
let knownCurves = ["rows", "bulk"]
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
} catch {
    log("cost-curves: \(error)")
    exit(1)
}
