import CWorkloads
import Foundation
import GRDBWorkloads
import StrataWorkloads
import WorkloadSupport

/// The libraries of a curve, measured in turn.
enum Library: String, CaseIterable {
    case c = "C"
    case strata = "Strata"
    case grdb = "GRDB"
}

/// What the rows curve measures, on table `t` (10 integer columns).
enum RowOperation: String, CaseIterable {
    /// `Row.fetchCursor`, ten columns read by index (C: step and read).
    case cursorRows = "cursor-rows"
    /// `Row.fetchAll` (C: an array of structs, what any fetchAll builds).
    case fetchAllRows = "fetchall-rows"
    /// Records of the client module from a cursor (C: step and read).
    case cursorRecords = "cursor-records"
    /// `Record.fetchAll` of the client module's records (C: an array of structs).
    case fetchAllRecords = "fetchall-records"
    /// A cached statement with positional arguments, in one transaction
    /// (C: a prepared statement, `bind_int64` ×10, step, reset).
    case insert = "insert"

    /// Whether the operation keeps every row in memory.
    var keepsRows: Bool { self == .fetchAllRows || self == .fetchAllRecords }
}

/// The databases of one library at one size: a table of `rowCount` rows to
/// read, and an empty one to insert into.
struct RowSubjects {
    let rowCount: Int
    let cReads: CReads
    let cInserts: CInserts
    let strataReads: StrataReads
    let strataInserts: StrataInserts
    let grdbReads: GRDBReads
    let grdbInserts: GRDBInserts

    init(rowCount: Int) throws {
        self.rowCount = rowCount
        let setup = Fixture.rowsSetup(rowCount: rowCount)
        cReads = try CReads(setupSQL: setup, threading: .multiThread)
        cInserts = try CInserts(setupSQL: Fixture.insertSetup, threading: .multiThread)
        strataReads = try StrataReads(setupSQL: setup)
        strataInserts = try StrataInserts(setupSQL: Fixture.insertSetup)
        grdbReads = try GRDBReads(setupSQL: setup)
        grdbInserts = try GRDBInserts(setupSQL: Fixture.insertSetup)
    }

    /// Work to do before `run` that is not measured (emptying the table an
    /// insert fills).
    func prepare(_ operation: RowOperation, _ library: Library) throws {
        guard operation == .insert else { return }
        switch library {
        case .c: try cInserts.reset()
        case .strata: try strataInserts.reset()
        case .grdb: try grdbInserts.reset()
        }
    }

    /// Runs `operation` once over every row; returns a checksum.
    @discardableResult
    func run(_ operation: RowOperation, _ library: Library) throws -> Int {
        switch (operation, library) {
        case (.cursorRows, .c), (.cursorRecords, .c): return try cReads.iterateRowsByIndex()
        case (.fetchAllRows, .c), (.fetchAllRecords, .c): return try cReads.fetchRecords()
        case (.insert, .c): try cInserts.insertPositional(rowCount: rowCount)
        case (.cursorRows, .strata): return try strataReads.iterateRowsByIndex()
        case (.fetchAllRows, .strata): return try strataReads.fetchAllRows()
        case (.cursorRecords, .strata): return try strataReads.iterateClientRecords()
        case (.fetchAllRecords, .strata): return try strataReads.fetchClientRecordsByIndex()
        case (.insert, .strata): try strataInserts.insertPositional(rowCount: rowCount)
        case (.cursorRows, .grdb): return try grdbReads.iterateRowsByIndex()
        case (.fetchAllRows, .grdb): return try grdbReads.fetchAllRows()
        case (.cursorRecords, .grdb): return try grdbReads.iterateClientRecords()
        case (.fetchAllRecords, .grdb): return try grdbReads.fetchClientRecordsByIndex()
        case (.insert, .grdb): try grdbInserts.insertPositional(rowCount: rowCount)
        }
        return rowCount
    }
}

/// Curve 1: the cost per row of fetching and inserting, from 10^3 to
/// `maximumRowCount` rows, for C, Strata and GRDB measured in turn.
struct RowCurve {
    var rowCounts: [Int]
    var rounds: Int
    var operations: [RowOperation] = RowOperation.allCases

    /// Each measurement handles at least this many rows (small tables run
    /// several times), so that it lasts long enough to time.
    static let rowsPerMeasurement = 1_000_000

    func run() throws -> CSVFile {
        var csv = CSVFile(header: ["operation", "library", "rows", "ns_per_row", "peak_bytes_per_row"])
        for rowCount in rowCounts {
            let setupStart = monotonicNanoseconds()
            let subjects = try RowSubjects(rowCount: rowCount)
            log("rows \(rowCount): databases ready in \(seconds(since: setupStart)) s")
            let repetitions = max(1, Self.rowsPerMeasurement / rowCount)
            var times: [String: [Double]] = [:]
            var peaks: [String: Int] = [:]
            // A warm-up run of each, and the memory each keeps at its peak.
            for operation in operations {
                for library in Library.allCases {
                    try subjects.prepare(operation, library)
                    try subjects.run(operation, library)
                    guard operation != .insert else { continue }
                    ResidentMemory.returnFreedMemory()
                    if let growth = try ResidentMemory.peakGrowth({ try subjects.run(operation, library) }) {
                        peaks["\(operation.rawValue)/\(library.rawValue)"] = growth
                    }
                }
            }
            for round in 0..<rounds {
                for operation in operations {
                    // The libraries in a different order each round, so
                    // that the machine's drifts fall on all of them.
                    let libraries = rotated(Library.allCases, by: round)
                    for library in libraries {
                        var nanoseconds = 0.0
                        for _ in 0..<repetitions {
                            try subjects.prepare(operation, library)
                            nanoseconds += try measureNanoseconds { try subjects.run(operation, library) }
                        }
                        times["\(operation.rawValue)/\(library.rawValue)", default: []].append(
                            nanoseconds / Double(repetitions * rowCount))
                    }
                }
            }
            for operation in operations {
                for library in Library.allCases {
                    let key = "\(operation.rawValue)/\(library.rawValue)"
                    let nanosecondsPerRow = median(times[key]!)
                    let peak = peaks[key].map { String(format: "%.1f", Double($0) / Double(rowCount)) } ?? ""
                    csv.append([
                        operation.rawValue, library.rawValue, "\(rowCount)", String(format: "%.2f", nanosecondsPerRow),
                        peak,
                    ])
                    log(
                        "rows \(rowCount) \(key): \(String(format: "%.1f", nanosecondsPerRow)) ns/row"
                            + (peak.isEmpty ? "" : ", peak \(peak) B/row"))
                }
            }
        }
        return csv
    }
}

/// `values`, rotated left by `count` places.
func rotated<T>(_ values: [T], by count: Int) -> [T] {
    let shift = count % values.count
    return Array(values[shift...] + values[..<shift])
}

/// The seconds since `start` (monotonic nanoseconds), with one decimal.
func seconds(since start: UInt64) -> String {
    String(format: "%.1f", Double(monotonicNanoseconds() - start) / 1e9)
}

/// A line of progress on the standard error.
func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
