import CWorkloads
import Foundation
import GRDBWorkloads
import StrataWorkloads
import WorkloadSupport

/// Curve 2: one transaction of `rowCount` inserts (table `t`, 10 integer
/// columns, in memory) through each library's cheapest public API, against
/// a C prepared statement, measured in turn.
struct BulkInsertCurve {
    var rowCount: Int
    var rounds: Int

    /// The ways to insert that are measured.
    enum Way: String, CaseIterable {
        case c = "C prepared statement"
        case strataArguments = "Strata cached statement, execute(arguments:)"
        case strataUnchecked = "Strata cached statement, setUncheckedArguments + execute()"
        case grdbArguments = "GRDB cached statement, execute(arguments:)"
        case grdbUnchecked = "GRDB cached statement, setUncheckedArguments + execute()"

        var library: Library {
            switch self {
            case .c: .c
            case .strataArguments, .strataUnchecked: .strata
            case .grdbArguments, .grdbUnchecked: .grdb
            }
        }
    }

    func run() throws -> CSVFile {
        let c = try CInserts(setupSQL: Fixture.insertSetup, threading: .multiThread)
        let strata = try StrataInserts(setupSQL: Fixture.insertSetup)
        let grdb = try GRDBInserts(setupSQL: Fixture.insertSetup)
        func reset(_ way: Way) throws {
            switch way.library {
            case .c: try c.reset()
            case .strata: try strata.reset()
            case .grdb: try grdb.reset()
            }
        }
        func insert(_ way: Way) throws {
            switch way {
            case .c: try c.insertPositional(rowCount: rowCount)
            case .strataArguments: try strata.insertPositional(rowCount: rowCount)
            case .strataUnchecked: try strata.insertUnchecked(rowCount: rowCount)
            case .grdbArguments: try grdb.insertPositional(rowCount: rowCount)
            case .grdbUnchecked: try grdb.insertUnchecked(rowCount: rowCount)
            }
        }
        var rates: [Way: [Double]] = [:]
        for way in Way.allCases {
            try reset(way)
            try insert(way)  // warm-up
        }
        for round in 0..<rounds {
            for way in rotated(Way.allCases, by: round) {
                try reset(way)
                let nanoseconds = try measureNanoseconds { try insert(way) }
                rates[way, default: []].append(Double(rowCount) / (nanoseconds / 1e9))
            }
        }
        let cRate = median(rates[.c]!)
        var csv = CSVFile(header: ["api", "library", "rows", "rows_per_second", "ratio_to_c"])
        for way in Way.allCases {
            let rate = median(rates[way]!)
            csv.append([
                "\"\(way.rawValue)\"", way.library.rawValue, "\(rowCount)", String(format: "%.0f", rate),
                String(format: "%.3f", rate / cRate),
            ])
            log(
                "bulk insert \(way.rawValue): \(String(format: "%.0f", rate)) rows/s, \(String(format: "%.2f", rate / cRate)) of C"
            )
        }
        return csv
    }
}
