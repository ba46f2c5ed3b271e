import CWorkloads
import Foundation
import GRDBWorkloads
import StrataWorkloads
import WorkloadSupport

// Runs one workload once, in its own process, for profilers.
//
//     swift build -c release --product strata-profile
//     .build/release/strata-profile list
//     valgrind --tool=callgrind --toggle-collect='*profiledRegion*' .build/release/strata-profile by-index
//
// Workload names: `by-index` (Strata), `grdb-by-index` (GRDB 7),
// `c-mt-by-index` (raw C, multi-thread mode, as Strata opens its
// connections), `c-by-index` (raw C, SQLite's default serialized mode).
// The database is filled before the workload runs; `--toggle-collect` on
// `profiledRegion` makes callgrind count the workload only, without opening
// and filling the database. Callgrind toggles collection per thread, so for
// the pool workloads (whose readers and writer run on threads of their own)
// count whole processes instead, and subtract the `pool-setup` workload of
// the same implementation (`c-mt-pool` minus `c-mt-pool-setup`).

/// Runs the measured part of a workload. Never inlined nor optimized, so that
/// its symbol exists once, for `valgrind --toggle-collect='*profiledRegion*'`.
@inline(never) @_optimize(none)
func profiledRegion(_ body: () throws -> Int) rethrows -> Int {
    try body()
}

/// The tables a workload reads or writes.
enum Setup {
    case rows, dates, players, inserts, pool, entries, authors

    var sql: [String] {
        switch self {
        case .rows: Fixture.rowsSetup
        case .dates: Fixture.datesSetup
        case .players: Fixture.playerSetup
        case .inserts: Fixture.insertSetup
        case .pool: Fixture.poolSetup
        case .entries: OptionalHeavyFixture.setup()
        case .authors: Fixture.authorSetup
        }
    }
}

/// What the profiled pool workload does: a fixed amount of work (the
/// throughput version runs the writer until the readers are done).
let poolScans = 2
let poolBatches = 20

/// The write accesses (issue 46): `write-accesses` runs them on this thread
/// (callgrind counts it), `write-accesses-threads` from 4 threads,
/// `write-accesses-async` from 8 tasks (count those two as whole processes).
let writeAccessVariants: [(suffix: String, threads: Int?)] = [
    ("", 1), ("-threads", Fixture.writeAccessThreads), ("-async", nil),
]

/// A workload: its tables, and a function that opens and fills the database
/// (not profiled) and returns the measured part.
struct Workload {
    var setup: Setup
    var prepare: (_ setupSQL: [String], _ path: String) throws -> () throws -> Int
}

func strataWorkloads() -> [String: Workload] {
    func reads(_ setup: Setup, _ body: @escaping (StrataReads) throws -> Int) -> Workload {
        Workload(setup: setup) { sql, _ in
            let reads = try StrataReads(setupSQL: sql)
            return { try body(reads) }
        }
    }
    func inserts(_ body: @escaping (StrataInserts) throws -> Void) -> Workload {
        Workload(setup: .inserts) { sql, _ in
            let inserts = try StrataInserts(setupSQL: sql)
            return {
                try body(inserts)
                return Fixture.insertRowCount
            }
        }
    }
    var workloads = [
        "by-index": reads(.rows) { try $0.iterateRowsByIndex() },
        "by-name": reads(.rows) { try $0.iterateRowsByName() },
        "records-by-index": reads(.rows) { try $0.fetchRecordsByIndex() },
        "records-by-name": reads(.rows) { try $0.fetchRecordsByName() },
        "records-decodable": reads(.rows) { try $0.fetchDecodableRecords() },
        "client-records-by-index": reads(.rows) { try $0.fetchClientRecordsByIndex() },
        "client-records-by-name": reads(.rows) { try $0.fetchClientRecordsByName() },
        "client-records-decodable": reads(.rows) { try $0.fetchClientDecodableRecords() },
        "optional-heavy": reads(.entries) { try $0.fetchOptionalHeavyRecords() },
        "ints": reads(.rows) { try $0.fetchAllInts().count },
        "dates": reads(.dates) { try $0.fetchAllDates().count },
        "requests": reads(.players) { try $0.queryInterfaceRequests() },
        "insert": inserts { try $0.insertPositional(rowCount: Fixture.insertRowCount) },
        "insert-named": inserts { try $0.insertNamed(rowCount: Fixture.insertRowCount) },
        "insert-records": inserts { try $0.insertRecords(rowCount: Fixture.insertRowCount) },
        "insert-encodable": inserts { try $0.insertEncodableRecords(rowCount: Fixture.insertRowCount) },
        "pool": Workload(setup: .pool) { sql, path in
            let pool = try StrataPoolWorkloads(path: path, setupSQL: sql)
            return { try pool.readersDuringWrites(scans: poolScans, batches: poolBatches).rows }
        },
        "pool-setup": Workload(setup: .pool) { sql, path in
            let pool = try StrataPoolWorkloads(path: path, setupSQL: sql)
            return { withExtendedLifetime(pool) { 0 } }
        },
        "write-accesses-setup": Workload(setup: .authors) { _, path in
            let writes = try StrataWriteAccesses(path: path)
            return { withExtendedLifetime(writes) { 0 } }
        },
        "observed-writes-none": quietObservations(.idle, count: 0),
        "observed-writes-idle": quietObservations(.idle, count: 10),
        "observed-writes-parked": quietObservations(.parked, count: 10),
        "observed-writes-on-writer": Workload(setup: .inserts) { _, path in
            let writes = try StrataObservationWorkloads.writesWithFetchOnWriter(path: path)
            return { try writes(20_000) }
        },
    ]
    for (suffix, threads) in writeAccessVariants {
        workloads["write-accesses" + suffix] = Workload(setup: .authors) { _, path in
            let writes = try StrataWriteAccesses(path: path)
            let count = Fixture.writeAccessCount
            if let threads { return { try writes.syncWrites(count: count, threads: threads) } }
            return { try waitForAsync { try await writes.asyncWrites(count: count, tasks: Fixture.writeAccessTasks) } }
        }
    }
    #if Macros
        // `swift build -c release --product strata-profile --traits Macros`
        workloads["records-macro"] = reads(.rows) { try $0.fetchMacroRecords() }
        workloads["client-records-macro"] = reads(.rows) { try $0.fetchClientMacroRecords() }
        workloads["insert-macro"] = inserts { try $0.insertMacroRecords(rowCount: Fixture.insertRowCount) }
    #endif
    return workloads
}

/// One-row write transactions on a pool while `count` observations do not
/// fetch (see `StrataObservationWorkloads.QuietObservations`): the cost of
/// observations to the writer alone. The writes run on this thread.
func quietObservations(_ kind: StrataObservationWorkloads.QuietObservations, count: Int) -> Workload {
    Workload(setup: .inserts) { _, path in
        let writes = try StrataObservationWorkloads(path: path).quietObservations(kind, observationCount: count)
        return { try writes(20_000) }
    }
}

func grdbWorkloads() -> [String: Workload] {
    func reads(_ setup: Setup, _ body: @escaping (GRDBReads) throws -> Int) -> Workload {
        Workload(setup: setup) { sql, _ in
            let reads = try GRDBReads(setupSQL: sql)
            return { try body(reads) }
        }
    }
    func inserts(_ body: @escaping (GRDBInserts) throws -> Void) -> Workload {
        Workload(setup: .inserts) { sql, _ in
            let inserts = try GRDBInserts(setupSQL: sql)
            return {
                try body(inserts)
                return Fixture.insertRowCount
            }
        }
    }
    var workloads = [
        "by-index": reads(.rows) { try $0.iterateRowsByIndex() },
        "by-name": reads(.rows) { try $0.iterateRowsByName() },
        "records-by-index": reads(.rows) { try $0.fetchRecordsByIndex() },
        "records-by-name": reads(.rows) { try $0.fetchRecordsByName() },
        "records-decodable": reads(.rows) { try $0.fetchDecodableRecords() },
        "client-records-by-index": reads(.rows) { try $0.fetchClientRecordsByIndex() },
        "client-records-by-name": reads(.rows) { try $0.fetchClientRecordsByName() },
        "client-records-decodable": reads(.rows) { try $0.fetchClientDecodableRecords() },
        "optional-heavy": reads(.entries) { try $0.fetchOptionalHeavyRecords() },
        "ints": reads(.rows) { try $0.fetchAllInts().count },
        "dates": reads(.dates) { try $0.fetchAllDates().count },
        "requests": reads(.players) { try $0.queryInterfaceRequests() },
        "insert": inserts { try $0.insertPositional(rowCount: Fixture.insertRowCount) },
        "insert-named": inserts { try $0.insertNamed(rowCount: Fixture.insertRowCount) },
        "insert-records": inserts { try $0.insertRecords(rowCount: Fixture.insertRowCount) },
        "insert-encodable": inserts { try $0.insertEncodableRecords(rowCount: Fixture.insertRowCount) },
        "write-accesses-setup": Workload(setup: .authors) { _, path in
            let writes = try GRDBWriteAccesses(path: path)
            return { withExtendedLifetime(writes) { 0 } }
        },
        "pool": Workload(setup: .pool) { sql, path in
            let pool = try GRDBPoolWorkloads(path: path, setupSQL: sql)
            return { try pool.readersDuringWrites(scans: poolScans, batches: poolBatches).rows }
        },
        "pool-setup": Workload(setup: .pool) { sql, path in
            let pool = try GRDBPoolWorkloads(path: path, setupSQL: sql)
            return { withExtendedLifetime(pool) { 0 } }
        },
        "observed-writes-on-writer": Workload(setup: .inserts) { _, path in
            let writes = try GRDBObservationWorkloads.writesWithFetchOnWriter(path: path)
            return { try writes(20_000) }
        },
    ]
    for (suffix, threads) in writeAccessVariants {
        workloads["write-accesses" + suffix] = Workload(setup: .authors) { _, path in
            let writes = try GRDBWriteAccesses(path: path)
            let count = Fixture.writeAccessCount
            if let threads { return { try writes.syncWrites(count: count, threads: threads) } }
            return { try waitForAsync { try await writes.asyncWrites(count: count, tasks: Fixture.writeAccessTasks) } }
        }
    }
    return workloads
}

/// The C baselines. Record fetches read into a plain struct, record inserts
/// bind a struct's fields with the SQL Strata and GRDB generate.
func cWorkloads(_ threading: CThreading) -> [String: Workload] {
    func reads(_ setup: Setup, _ body: @escaping (CReads) throws -> Int) -> Workload {
        Workload(setup: setup) { sql, _ in
            let reads = try CReads(setupSQL: sql, threading: threading)
            return { try body(reads) }
        }
    }
    func inserts(_ body: @escaping (CInserts) throws -> Void) -> Workload {
        Workload(setup: .inserts) { sql, _ in
            let inserts = try CInserts(setupSQL: sql, threading: threading)
            return {
                try body(inserts)
                return Fixture.insertRowCount
            }
        }
    }
    let records = reads(.rows) { try $0.fetchRecords() }
    let insertRecords = inserts { try $0.insertRecords(rowCount: Fixture.insertRowCount) }
    var workloads = [
        "by-index": reads(.rows) { try $0.iterateRowsByIndex() },
        "by-name": reads(.rows) { try $0.iterateRowsByName() },
        "records": records,
        "records-by-index": records,
        "records-by-name": records,
        "records-decodable": records,
        "client-records-by-index": records,
        "client-records-by-name": records,
        "client-records-decodable": records,
        "client-records-macro": records,
        "optional-heavy": reads(.entries) { try $0.fetchOptionalHeavyRecords() },
        "ints": reads(.rows) { try $0.fetchAllInts().count },
        "dates": reads(.dates) { try $0.fetchAllDates().count },
        "requests": reads(.players) { try $0.queryInterfaceRequests() },
        "insert": inserts { try $0.insertPositional(rowCount: Fixture.insertRowCount) },
        "insert-named": inserts { try $0.insertNamed(rowCount: Fixture.insertRowCount) },
        "insert-swift-floor": inserts {
            try $0.insertPositionalWithSwiftAPICosts(rowCount: Fixture.insertRowCount, argumentBytes: 432)
        },
        "records-decodable-floor": reads(.rows) { try $0.fetchRecordsWithDecodableCosts() },
        "insert-encodable-floor": inserts { try $0.insertRecordsWithEncodableCosts(rowCount: Fixture.insertRowCount) },
        "insert-floor": inserts {
            try $0.insertPositionalWithAPICosts(rowCount: Fixture.insertRowCount, argumentBytes: 432)
        },
        "insert-records": insertRecords,
        "insert-encodable": insertRecords,
        "records-macro": records,
        "insert-macro": insertRecords,
        "pool": Workload(setup: .pool) { sql, path in
            let pool = try CPoolWorkloads(path: path, setupSQL: sql, threading: threading)
            return { try pool.readersDuringWrites(scans: poolScans, batches: poolBatches).rows }
        },
        "pool-setup": Workload(setup: .pool) { sql, path in
            let pool = try CPoolWorkloads(path: path, setupSQL: sql, threading: threading)
            return { withExtendedLifetime(pool) { 0 } }
        },
        // Only opens and fills table `t` (C, serialized): the cost to subtract
        // from a whole-process count of a read workload.
        "setup": reads(.rows) { _ in 0 },
        "write-accesses-setup": Workload(setup: .authors) { _, path in
            let writes = try CWriteAccesses(path: path, threading: threading)
            return { withExtendedLifetime(writes) { 0 } }
        },
    ]
    for (suffix, threads) in writeAccessVariants {
        workloads["write-accesses" + suffix] = Workload(setup: .authors) { _, path in
            let writes = try CWriteAccesses(path: path, threading: threading)
            let count = Fixture.writeAccessCount
            if let threads { return { try writes.syncWrites(count: count, threads: threads) } }
            return { try waitForAsync { try await writes.asyncWrites(count: count, tasks: Fixture.writeAccessTasks) } }
        }
    }
    return workloads
}

var workloads: [String: Workload] = [:]
for (name, workload) in strataWorkloads() { workloads[name] = workload }
#if Integrations
    // 100,000 read accesses, each a fetch by primary key, with each of
    // Strata's integrations off, alone, and all three on (issue 34):
    // `keyed-reads-off`, `-logging`, `-metrics`, `-tracing`, `-all`. Built
    // with `--traits Integrations` only.
    for (suffix, integrations) in StrataIntegrations.named {
        workloads["keyed-reads-" + suffix] = Workload(setup: .players) { _, _ in
            let reads = try StrataKeyedReads(integrations: integrations)
            return { try reads.fetchByPrimaryKey(count: Fixture.keyedReadCount) }
        }
    }
#endif
for (name, workload) in grdbWorkloads() { workloads["grdb-" + name] = workload }
for (name, workload) in cWorkloads(.multiThread) { workloads["c-mt-" + name] = workload }
for (name, workload) in cWorkloads(.serialized) { workloads["c-" + name] = workload }
workloads["setup"] = workloads["c-setup"]

let name = CommandLine.arguments.dropFirst().first ?? "insert"
if name == "list" {
    print(workloads.keys.sorted().joined(separator: "\n"))
    exit(0)
}
guard let workload = workloads[name] else {
    print("unknown workload \(name); `strata-profile list` lists them")
    exit(1)
}
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-profile-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let run = try workload.prepare(workload.setup.sql, directory.appendingPathComponent("db.sqlite").path)
// `STRATA_PROFILE_REPEAT=N` runs the workload N times in the process, for
// sampling profilers (`perf record`), whose samples would otherwise go to
// the process's start.
let repeatCount = ProcessInfo.processInfo.environment["STRATA_PROFILE_REPEAT"].flatMap { Int($0) } ?? 1
var result = 0
for _ in 0..<max(repeatCount, 1) {
    result = try profiledRegion(run)
}
print(result)
