import CWorkloads
import Foundation
import StrataWorkloads
import WorkloadSupport

// The workloads that CI counts with callgrind and compares with
// `Thresholds/callgrind.txt` (`Scripts/check-benchmarks.sh`, and
// RESULTS.md, "The benchmark check in CI").
//
// The same workloads as `strata-profile`, under the same names, on smaller
// tables (see `Size`) so that the runs under callgrind stay short, and
// without GRDB, so that CI does not build it. Only the single-thread
// workloads: callgrind toggles collection per thread, and the pool's
// threads are scheduled differently in each run.
//
//     swift build -c release --product bench-check
//     .build/release/bench-check list
//     SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --toggle-collect='*profiledRegion*' \
//         .build/release/bench-check by-index

/// Runs the measured part of a workload. Never inlined nor optimized, so that
/// its symbol exists once, for `valgrind --toggle-collect='*profiledRegion*'`.
@inline(never) @_optimize(none)
func profiledRegion(_ body: () throws -> Int) rethrows -> Int {
    try body()
}

/// The sizes of the check's tables: a tenth of `Fixture`'s (the query
/// interface request keeps its 1,000 players and 200 requests). Changing
/// one changes every count: update the thresholds in the same commit.
enum Size {
    static let readRows = 20_000
    static let dates = 10_000
    static let insertRows = 5_000
    /// The accesses of the `keyed-reads-*` workloads (a fiftieth of
    /// `strata-profile`'s 100,000: about 5 s each under callgrind).
    static let keyedReads = 2_000
    /// The rows of table `entry` (`OptionalHeavyFixture`), read
    /// `OptionalHeavyFixture.fetchCount` times.
    static let entries = 1_680
    /// The one-row write transactions of `write-accesses` (a tenth of
    /// `strata-profile`'s 20,000), on this thread, on a pool on a file.
    static let writeAccesses = 2_000
}

/// The folder of the workloads on files, made by their first file and
/// removed after the run. Nil for the other workloads, which touch no
/// `FileManager`: doing so before their measured part added 29 to 64
/// allocations to it.
nonisolated(unsafe) var temporaryDirectory: URL?

/// A new file for a workload, in `temporaryDirectory`.
func temporaryPath(_ name: String) throws -> String {
    let directory =
        temporaryDirectory
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("bench-check-\(UUID().uuidString)")
    temporaryDirectory = directory
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent(name).path
}

/// The tables a workload reads or writes, at the check's sizes.
enum Setup {
    case rows, dates, players, inserts, insertsWithPrimaryKey, entries

    var sql: [String] {
        switch self {
        case .rows: Fixture.rowsSetup(rowCount: Size.readRows)
        case .dates: Fixture.datesSetup(dateCount: Size.dates)
        case .players: Fixture.playerSetup
        case .inserts: Fixture.insertSetup
        case .insertsWithPrimaryKey: Fixture.insertSetupWithPrimaryKey
        case .entries: OptionalHeavyFixture.setup(rowCount: Size.entries)
        }
    }
}

/// A workload: a function that opens and fills an in-memory database (not
/// counted) and returns the measured part.
typealias Workload = () throws -> () throws -> Int

func strataWorkloads() -> [(String, Workload)] {
    func reads(
        _ setup: Setup, statistics: Bool = false, monitor: Bool = false,
        _ body: @escaping (StrataReads) throws -> Int
    ) -> Workload {
        {
            let reads = try StrataReads(
                setupSQL: setup.sql, statementStatistics: statistics, queryPlanMonitor: monitor)
            return { try body(reads) }
        }
    }
    func inserts(
        _ setup: Setup = .inserts, statistics: Bool = false, monitor: Bool = false, recording: Bool = false,
        _ body: @escaping (StrataInserts) throws -> Void
    ) -> Workload {
        {
            let inserts = try StrataInserts(
                setupSQL: setup.sql, statementStatistics: statistics, queryPlanMonitor: monitor,
                recordsChanges: recording)
            return {
                try body(inserts)
                return Size.insertRows
            }
        }
    }
    return [
        ("by-index", reads(.rows) { try $0.iterateRowsByIndex() }),
        ("by-name", reads(.rows) { try $0.iterateRowsByName() }),
        ("records-by-index", reads(.rows) { try $0.fetchRecordsByIndex() }),
        ("records-by-name", reads(.rows) { try $0.fetchRecordsByName() }),
        ("records-decodable", reads(.rows) { try $0.fetchDecodableRecords() }),
        // The same records declared in another module, as an app's (issue 46).
        ("client-records-by-index", reads(.rows) { try $0.fetchClientRecordsByIndex() }),
        ("client-records-by-name", reads(.rows) { try $0.fetchClientRecordsByName() }),
        ("client-records-decodable", reads(.rows) { try $0.fetchClientDecodableRecords() }),
        // Records of 14 mostly optional columns, read by index (issue 46).
        ("optional-heavy", reads(.entries) { try $0.fetchOptionalHeavyRecords() }),
        ("ints", reads(.rows) { try $0.fetchAllInts().count }),
        ("dates", reads(.dates) { try $0.fetchAllDates().count }),
        ("requests", reads(.players) { try $0.queryInterfaceRequests() }),
        ("insert", inserts { try $0.insertPositional(rowCount: Size.insertRows) }),
        ("insert-named", inserts { try $0.insertNamed(rowCount: Size.insertRows) }),
        ("insert-records", inserts { try $0.insertRecords(rowCount: Size.insertRows) }),
        ("insert-encodable", inserts { try $0.insertEncodableRecords(rowCount: Size.insertRows) }),
        // The same with the statement statistics on (issue 32): their cost.
        ("by-index-statistics", reads(.rows, statistics: true) { try $0.iterateRowsByIndex() }),
        ("records-by-index-statistics", reads(.rows, statistics: true) { try $0.fetchRecordsByIndex() }),
        ("requests-statistics", reads(.players, statistics: true) { try $0.queryInterfaceRequests() }),
        ("insert-statistics", inserts(statistics: true) { try $0.insertPositional(rowCount: Size.insertRows) }),
        (
            "insert-records-statistics",
            inserts(statistics: true) { try $0.insertRecords(rowCount: Size.insertRows) }
        ),
        // The same with the query plan monitor on (issue 32): each statement
        // is explained once, when first compiled.
        ("requests-monitor", reads(.players, monitor: true) { try $0.queryInterfaceRequests() }),
        ("insert-monitor", inserts(monitor: true) { try $0.insertPositional(rowCount: Size.insertRows) }),
        // Inserts into a table with a primary key, without and with a
        // changeset recording (issue 33): the cost of recording.
        ("insert-pk", inserts(.insertsWithPrimaryKey) { try $0.insertPositional(rowCount: Size.insertRows) }),
        (
            "insert-recording",
            inserts(.insertsWithPrimaryKey, recording: true) { try $0.insertPositional(rowCount: Size.insertRows) }
        ),
        // One-row write transactions of a `Codable` record on a pool
        // (issue 46): the fixed cost of a write access.
        (
            "write-accesses",
            {
                let writes = try StrataWriteAccesses(path: try temporaryPath("write-accesses.sqlite"))
                return { try writes.syncWrites(count: Size.writeAccesses, threads: 1) }
            }
        ),
    ]
}

/// The C baselines, in multi-thread mode as Strata opens its connections:
/// one per kind of work (the record workloads share theirs, as in
/// `strata-profile`). They tell a change of SQLite or of the toolchain from
/// a change of Strata.
func cWorkloads() -> [(String, Workload)] {
    func reads(_ setup: Setup, _ body: @escaping (CReads) throws -> Int) -> Workload {
        {
            let reads = try CReads(setupSQL: setup.sql, threading: .multiThread)
            return { try body(reads) }
        }
    }
    func inserts(
        _ setup: Setup = .inserts, recording: Bool = false, _ body: @escaping (CInserts) throws -> Void
    ) -> Workload {
        {
            let inserts = try CInserts(setupSQL: setup.sql, threading: .multiThread, recordsChanges: recording)
            return {
                try body(inserts)
                return Size.insertRows
            }
        }
    }
    return [
        ("c-mt-by-index", reads(.rows) { try $0.iterateRowsByIndex() }),
        ("c-mt-by-name", reads(.rows) { try $0.iterateRowsByName() }),
        ("c-mt-records", reads(.rows) { try $0.fetchRecords() }),
        ("c-mt-optional-heavy", reads(.entries) { try $0.fetchOptionalHeavyRecords() }),
        // The floors (RESULTS.md): C with the costs that GRDB's API imposes
        // on any implementation. Scripts/check-benchmarks.sh holds
        // `records-decodable` to 1.05 × its floor, counted in the same run.
        ("c-mt-records-decodable-floor", reads(.rows) { try $0.fetchRecordsWithDecodableCosts() }),
        (
            "c-mt-insert-encodable-floor",
            inserts { try $0.insertRecordsWithEncodableCosts(rowCount: Size.insertRows) }
        ),
        (
            "c-mt-insert-swift-floor",
            inserts { try $0.insertPositionalWithSwiftAPICosts(rowCount: Size.insertRows, argumentBytes: 432) }
        ),
        ("c-mt-ints", reads(.rows) { try $0.fetchAllInts().count }),
        ("c-mt-dates", reads(.dates) { try $0.fetchAllDates().count }),
        ("c-mt-requests", reads(.players) { try $0.queryInterfaceRequests() }),
        ("c-mt-insert", inserts { try $0.insertPositional(rowCount: Size.insertRows) }),
        ("c-mt-insert-named", inserts { try $0.insertNamed(rowCount: Size.insertRows) }),
        ("c-mt-insert-records", inserts { try $0.insertRecords(rowCount: Size.insertRows) }),
        ("c-mt-insert-pk", inserts(.insertsWithPrimaryKey) { try $0.insertPositional(rowCount: Size.insertRows) }),
        (
            "c-mt-insert-recording",
            inserts(.insertsWithPrimaryKey, recording: true) { try $0.insertPositional(rowCount: Size.insertRows) }
        ),
        (
            "c-mt-write-accesses",
            {
                let writes = try CWriteAccesses(path: try temporaryPath("c-mt-write-accesses.sqlite"))
                return { try writes.syncWrites(count: Size.writeAccesses, threads: 1) }
            }
        ),
    ]
}

/// Built with this package's trait `Integrations` only (Scripts/check-benchmarks.sh
/// builds it apart): a read access per fetch of a player by primary key,
/// with each of Strata's integrations off, alone, and all three on (issue
/// 34). Without the trait, the other workloads' counts stay those of a
/// build that links none of the integrations' packages.
func integrationWorkloads() -> [(String, Workload)] {
    #if Integrations
        StrataIntegrations.named.map { name, integrations in
            (
                "keyed-reads-\(name)",
                {
                    let reads = try StrataKeyedReads(integrations: integrations)
                    return { try reads.fetchByPrimaryKey(count: Size.keyedReads) }
                }
            )
        }
    #else
        []
    #endif
}

let workloads = strataWorkloads() + cWorkloads() + integrationWorkloads()

let name = CommandLine.arguments.dropFirst().first ?? "list"
if name == "list" {
    print(workloads.map(\.0).joined(separator: "\n"))
    exit(0)
}
guard let workload = workloads.first(where: { $0.0 == name })?.1 else {
    print("unknown workload \(name); `bench-check list` lists them")
    exit(1)
}
let run = try workload()
if CommandLine.arguments.dropFirst(2).first == "--time" {
    // Wall clock of the measured part, in nanoseconds on standard error:
    // RESULTS.md compares workloads with it (callgrind counts no time).
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try profiledRegion(run)
    FileHandle.standardError.write(Data("\(DispatchTime.now().uptimeNanoseconds - start)\n".utf8))
    print(result)
} else {
    print(try profiledRegion(run))
}
if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
