import CWorkloads
import Foundation
import GRDBWorkloads
import StrataWorkloads
import WorkloadSupport

// Wall clock of every workload for raw C (multi-thread and serialized),
// Strata and GRDB 7, in one process, interleaved: each round runs every
// workload once per implementation, and the table shows the median of the
// rounds. Release builds only:
//
//     swift build -c release --product compare && .build/release/compare [--rounds N] [filter]
//
// `filter` keeps the workloads whose name contains it.
//
// `compare --integrations [--rounds N]` measures instead Strata's
// integrations (issue 34): 100,000 fetches by primary key, each in a read
// access, with each integration off, alone and all three on, interleaved
// (see Integrations.swift). It needs a build with this package's trait
// `Integrations`: `swift build -c release --traits Integrations --product compare`.

// Keeps the padding of other code layouts (Sources/CWorkloads/CodeLayout.swift).
_ = CodeLayout.pad(CommandLine.arguments.count)

var rounds = 3
var filter: String?
var integrations = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--rounds", let value = arguments.popFirst().flatMap(Int.init) {
        rounds = value
    } else if argument == "--integrations" {
        integrations = true
    } else {
        filter = argument
    }
}
if integrations {
    #if Integrations
        try compareIntegrations(rounds: rounds)
        exit(0)
    #else
        log("--integrations needs a build with the trait: swift build -c release --traits Integrations")
        exit(2)
    #endif
}

enum Implementation: String, CaseIterable {
    case cMT = "C (multi-thread)"
    case cSerialized = "C (serialized)"
    case strata = "Strata"
    case grdb = "GRDB"
    /// Strata with its statement statistics on (issue 32): their cost.
    case strataStatistics = "Strata, statistics on"
}

/// One implementation of a workload: `reset` runs before each measured run,
/// untimed; `run` is timed and returns rows read (or written) and batches
/// written (pool only).
struct Variant {
    var reset: () throws -> Void = {}
    var run: () throws -> (rows: Int, batches: Int)
}

struct Workload {
    var name: String
    var variants: [Implementation: Variant]
}

func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
        .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
}

log("load average before setup: \(loadAverage())")

// MARK: - Databases

/// Every table of the read workloads, with the optional-heavy records' `entry`.
let readSetup = Fixture.readSetup + OptionalHeavyFixture.setup()
let cMTReads = try CReads(setupSQL: readSetup, threading: .multiThread)
let cReads = try CReads(setupSQL: readSetup, threading: .serialized)
let strataReads = try StrataReads(setupSQL: readSetup)
let strataStatisticsReads = try StrataReads(setupSQL: readSetup, statementStatistics: true)
let grdbReads = try GRDBReads(setupSQL: readSetup)
let cMTInserts = try CInserts(setupSQL: Fixture.insertSetup, threading: .multiThread)
let cInserts = try CInserts(setupSQL: Fixture.insertSetup, threading: .serialized)
/// The connection of the floors' C programs (see below).
let cMTFloorInserts = try CInserts(setupSQL: Fixture.insertSetup, threading: .multiThread)
let strataInserts = try StrataInserts(setupSQL: Fixture.insertSetup)
let strataStatisticsInserts = try StrataInserts(setupSQL: Fixture.insertSetup, statementStatistics: true)
let grdbInserts = try GRDBInserts(setupSQL: Fixture.insertSetup)

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-compare-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
func poolPath(_ name: String) -> String { directory.appendingPathComponent(name).path }
let cMTPool = try CPoolWorkloads(path: poolPath("c-mt.sqlite"), setupSQL: Fixture.poolSetup, threading: .multiThread)
let cPool = try CPoolWorkloads(path: poolPath("c.sqlite"), setupSQL: Fixture.poolSetup, threading: .serialized)
let strataPool = try StrataPoolWorkloads(path: poolPath("strata.sqlite"), setupSQL: Fixture.poolSetup)
let grdbPool = try GRDBPoolWorkloads(path: poolPath("grdb.sqlite"), setupSQL: Fixture.poolSetup)
let cMTWrites = try CWriteAccesses(path: poolPath("c-mt-writes.sqlite"), threading: .multiThread)
let cWrites = try CWriteAccesses(path: poolPath("c-writes.sqlite"), threading: .serialized)
let strataWrites = try StrataWriteAccesses(path: poolPath("strata-writes.sqlite"))
let strataStatisticsWrites = try StrataWriteAccesses(
    path: poolPath("strata-statistics-writes.sqlite"), statementStatistics: true)
let grdbWrites = try GRDBWriteAccesses(path: poolPath("grdb-writes.sqlite"))
log("write accesses, Strata: \(try strataWrites.settings()); GRDB: \(try grdbWrites.settings())")
log(
    "default pools, Strata: \(try StrataWriteAccesses.defaultSettings(path: poolPath("strata-default.sqlite"))); "
        + "GRDB: \(try GRDBWriteAccesses.defaultSettings(path: poolPath("grdb-default.sqlite")))")

// MARK: - Workloads

func read(_ body: @escaping () throws -> Int) -> Variant {
    Variant { (try body(), 0) }
}

func reads(
    _ name: String, c: @escaping (CReads) throws -> Int, strata: @escaping (StrataReads) throws -> Int,
    grdb: @escaping () throws -> Int
) -> Workload {
    Workload(
        name: name,
        variants: [
            .cMT: read { try c(cMTReads) }, .cSerialized: read { try c(cReads) },
            .strata: read { try strata(strataReads) }, .grdb: read(grdb),
            .strataStatistics: read { try strata(strataStatisticsReads) },
        ])
}

func inserts(
    _ name: String, c: @escaping (CInserts, Int) throws -> Void,
    strata: @escaping (StrataInserts, Int) throws -> Void, grdb: @escaping (Int) throws -> Void
) -> Workload {
    let count = Fixture.insertRowCount
    func insert(_ reset: @escaping () throws -> Void, _ body: @escaping (Int) throws -> Void) -> Variant {
        Variant(reset: reset) {
            try body(count)
            return (count, 0)
        }
    }
    return Workload(
        name: name,
        variants: [
            .cMT: insert(cMTInserts.reset) { try c(cMTInserts, $0) },
            .cSerialized: insert(cInserts.reset) { try c(cInserts, $0) },
            .strata: insert(strataInserts.reset) { try strata(strataInserts, $0) },
            .grdb: insert(grdbInserts.reset, grdb),
            .strataStatistics: insert(strataStatisticsInserts.reset) { try strata(strataStatisticsInserts, $0) },
        ])
}

/// The write accesses (issue 46): `count` one-row transactions from
/// `threads` threads, or from `Fixture.writeAccessTasks` tasks when nil.
func writeAccesses(threads: Int?) -> Workload {
    let count = Fixture.writeAccessCount
    let name: String
    if let threads {
        name =
            "Write accesses: \(count) one-row transactions, `Codable` record, `dbPool.write` from "
            + (threads == 1 ? "1 thread" : "\(threads) threads")
    } else {
        name =
            "Write accesses: \(count) one-row transactions, `Codable` record, `await dbPool.write` from "
            + "\(Fixture.writeAccessTasks) tasks"
    }
    func variant(
        _ reset: @escaping () throws -> Void, sync: @escaping @Sendable (Int, Int) throws -> Int,
        async: @escaping @Sendable (Int, Int) async throws -> Int
    ) -> Variant {
        Variant(reset: reset) {
            if let threads { return (try sync(count, threads), 0) }
            return (try waitForAsync { try await async(count, Fixture.writeAccessTasks) }, 0)
        }
    }
    return Workload(
        name: name,
        variants: [
            .cMT: variant(cMTWrites.reset, sync: cMTWrites.syncWrites, async: cMTWrites.asyncWrites),
            .cSerialized: variant(cWrites.reset, sync: cWrites.syncWrites, async: cWrites.asyncWrites),
            .strata: variant(strataWrites.reset, sync: strataWrites.syncWrites, async: strataWrites.asyncWrites),
            .grdb: variant(grdbWrites.reset, sync: grdbWrites.syncWrites, async: grdbWrites.asyncWrites),
            .strataStatistics: variant(
                strataStatisticsWrites.reset, sync: strataStatisticsWrites.syncWrites,
                async: strataStatisticsWrites.asyncWrites),
        ])
}

let poolName = "Pool: 2 readers scan 200,000 rows ×\(Fixture.poolScans) while a writer inserts batches of 100"

let allWorkloads: [Workload] = [
    reads(
        "Row cursor, 200,000 rows × 10 ints, by index", c: { try $0.iterateRowsByIndex() },
        strata: { try $0.iterateRowsByIndex() }, grdb: grdbReads.iterateRowsByIndex),
    reads(
        "Row cursor, 200,000 rows × 10 ints, by name", c: { try $0.iterateRowsByName() },
        strata: { try $0.iterateRowsByName() }, grdb: grdbReads.iterateRowsByName),
    reads(
        "200,000 records, hand-written `init(row:)` by index (C: plain struct)", c: { try $0.fetchRecords() },
        strata: { try $0.fetchRecordsByIndex() }, grdb: grdbReads.fetchRecordsByIndex),
    reads(
        "200,000 records, hand-written `init(row:)` by name (C: plain struct)", c: { try $0.fetchRecords() },
        strata: { try $0.fetchRecordsByName() }, grdb: grdbReads.fetchRecordsByName),
    reads(
        "200,000 `Decodable` records (C: plain struct)", c: { try $0.fetchRecords() },
        strata: { try $0.fetchDecodableRecords() }, grdb: grdbReads.fetchDecodableRecords),
    // The same records declared in another module, as an app declares
    // them (issue 46).
    reads(
        "200,000 records of another module, `init(row:)` by index (C: plain struct)", c: { try $0.fetchRecords() },
        strata: { try $0.fetchClientRecordsByIndex() }, grdb: grdbReads.fetchClientRecordsByIndex),
    reads(
        "200,000 records of another module, `init(row:)` by name (C: plain struct)", c: { try $0.fetchRecords() },
        strata: { try $0.fetchClientRecordsByName() }, grdb: grdbReads.fetchClientRecordsByName),
    reads(
        "200,000 `Decodable` records of another module (C: plain struct)", c: { try $0.fetchRecords() },
        strata: { try $0.fetchClientDecodableRecords() }, grdb: grdbReads.fetchClientDecodableRecords),
    reads(
        "16,800 records of 14 mostly optional columns by index, fetched \(OptionalHeavyFixture.fetchCount) times",
        c: { try $0.fetchOptionalHeavyRecords() },
        strata: { try $0.fetchOptionalHeavyRecords() }, grdb: grdbReads.fetchOptionalHeavyRecords),
    reads(
        "Row cursor through a scope adapter, 200,000 rows, 2 scopes × 5 ints (C: by index)",
        c: { try $0.iterateRowsByIndex() },
        strata: { try $0.iterateScopedRows() }, grdb: grdbReads.iterateScopedRows),
    reads(
        "`Int.fetchAll`, 200,000 rows", c: { try $0.fetchAllInts().count },
        strata: { try $0.fetchAllInts().count }, grdb: { try grdbReads.fetchAllInts().count }),
    inserts(
        "Insert 50,000 rows, positional arguments, cached statement", c: { try $0.insertPositional(rowCount: $1) },
        strata: { try $0.insertPositional(rowCount: $1) }, grdb: grdbInserts.insertPositional),
    inserts(
        "Insert 50,000 rows, named arguments, cached statement", c: { try $0.insertNamed(rowCount: $1) },
        strata: { try $0.insertNamed(rowCount: $1) }, grdb: grdbInserts.insertNamed),
    inserts(
        "Insert 50,000 records, hand-written `encode(to:)` (C: struct fields bound)",
        c: { try $0.insertRecords(rowCount: $1) },
        strata: { try $0.insertRecords(rowCount: $1) }, grdb: grdbInserts.insertRecords),
    inserts(
        "Insert 50,000 `Encodable` records (C: struct fields bound)", c: { try $0.insertRecords(rowCount: $1) },
        strata: { try $0.insertEncodableRecords(rowCount: $1) }, grdb: grdbInserts.insertEncodableRecords),
    reads(
        "Request filter + order + limit over 1,000 rows, built and fetched 200 times",
        c: { try $0.queryInterfaceRequests() },
        strata: { try $0.queryInterfaceRequests() }, grdb: grdbReads.queryInterfaceRequests),
    reads(
        "`Date.fetchAll`, 100,000 dates stored as text", c: { try $0.fetchAllDates().count },
        strata: { try $0.fetchAllDates().count }, grdb: { try grdbReads.fetchAllDates().count }),
    Workload(
        name: poolName,
        variants: [
            .cMT: Variant { try cMTPool.readersDuringWrites(scans: Fixture.poolScans) },
            .cSerialized: Variant { try cPool.readersDuringWrites(scans: Fixture.poolScans) },
            .strata: Variant { try strataPool.readersDuringWrites(scans: Fixture.poolScans) },
            .grdb: Variant { try grdbPool.readersDuringWrites(scans: Fixture.poolScans) },
        ]),
    writeAccesses(threads: nil),
    writeAccesses(threads: Fixture.writeAccessThreads),
    writeAccesses(threads: 1),
]
// `swift build -c release --product compare --traits Macros` adds the
// records of @DatabaseRecord (issue 30), each after its Codable row. GRDB has
// no such macro: no GRDB column.
var orderedWorkloads = allWorkloads
#if Macros
    if let index = orderedWorkloads.firstIndex(where: { $0.name.hasPrefix("200,000 `Decodable` records") }) {
        orderedWorkloads.insert(
            Workload(
                name: "200,000 `@DatabaseRecord` records (C: plain struct)",
                variants: [
                    .cMT: read { try cMTReads.fetchRecords() }, .cSerialized: read { try cReads.fetchRecords() },
                    .strata: read { try strataReads.fetchMacroRecords() },
                    .strataStatistics: read { try strataStatisticsReads.fetchMacroRecords() },
                ]),
            at: index + 1)
    }
    if let index = orderedWorkloads.firstIndex(where: { $0.name.hasPrefix("200,000 `Decodable` records of another") }) {
        orderedWorkloads.insert(
            Workload(
                name: "200,000 `@DatabaseRecord` records of another module (C: plain struct)",
                variants: [
                    .cMT: read { try cMTReads.fetchRecords() }, .cSerialized: read { try cReads.fetchRecords() },
                    .strata: read { try strataReads.fetchClientMacroRecords() },
                    .strataStatistics: read { try strataStatisticsReads.fetchClientMacroRecords() },
                ]),
            at: index + 1)
    }
    if let index = orderedWorkloads.firstIndex(where: { $0.name.hasPrefix("Insert 50,000 `Encodable` records") }) {
        var insertWorkload = inserts(
            "Insert 50,000 `@DatabaseRecord` records (C: struct fields bound)",
            c: { try $0.insertRecords(rowCount: $1) }, strata: { try $0.insertMacroRecords(rowCount: $1) },
            grdb: { _ in })
        insertWorkload.variants[.grdb] = nil
        orderedWorkloads.insert(insertWorkload, at: index + 1)
    }
#endif
// The wall-clock floors of the inserts (issue 34 part 3), in the Strata
// column, against plain C, printed in a table of their own: raw C with the
// costs that GRDB's API imposes on any implementation
// (`CInserts.insertPositionalWithAPICosts`); the same with the arguments in
// a Swift array, kept until the next row and released by the Swift runtime,
// as any Swift implementation must
// (`CInserts.insertPositionalWithSwiftAPICosts`); and the record insert with
// the values given by the synthesized `encode(to:)` (`CEncodableFloor.swift`);
// then the `Decodable` fetch's floor.
let floorPrefix = "Floor: "
let floors: [(name: String, c: (Int) throws -> Void, floor: (Int) throws -> Void)] = [
    (
        "rows, positional arguments (C + a 432-byte block per row + `sqlite3_clear_bindings`)",
        { try cMTInserts.insertPositional(rowCount: $0) },
        { try cMTFloorInserts.insertPositionalWithAPICosts(rowCount: $0, argumentBytes: 432) }
    ),
    (
        "rows, named arguments (C + a 592-byte block per row + `sqlite3_clear_bindings`)",
        { try cMTInserts.insertPositional(rowCount: $0) },
        { try cMTFloorInserts.insertPositionalWithAPICosts(rowCount: $0, argumentBytes: 592) }
    ),
    (
        "rows, positional arguments (C + a 432-byte Swift array kept until the next row + `sqlite3_clear_bindings`)",
        { try cMTInserts.insertPositional(rowCount: $0) },
        { try cMTFloorInserts.insertPositionalWithSwiftAPICosts(rowCount: $0, argumentBytes: 432) }
    ),
    (
        "`Encodable` records (C + the synthesized `encode(to:)` to an encoder that binds each value)",
        { try cMTInserts.insertRecords(rowCount: $0) },
        { try cMTFloorInserts.insertRecordsWithEncodableCosts(rowCount: $0) }
    ),
]
for floor in floors {
    let rowCount = Fixture.insertRowCount
    orderedWorkloads.append(
        Workload(
            name: "\(floorPrefix)insert 50,000 \(floor.name)",
            variants: [
                .cMT: Variant(reset: cMTInserts.reset) {
                    try floor.c(rowCount)
                    return (rowCount, 0)
                },
                .strata: Variant(reset: cMTFloorInserts.reset) {
                    try floor.floor(rowCount)
                    return (rowCount, 0)
                },
            ]))
}
// The floor of `Decodable` records: the C fetch, each record made by its
// synthesized `init(from:)` from a decoder that reads the columns in order
// (`CDecodableFloor.swift`).
orderedWorkloads.append(
    Workload(
        name: "\(floorPrefix)200,000 `Decodable` records (C + the synthesized `init(from:)` from a decoder "
            + "that reads each column in order)",
        variants: [
            .cMT: read { try cMTReads.fetchRecords() },
            .strata: read { try cMTReads.fetchRecordsWithDecodableCosts() },
        ]))
let workloads = orderedWorkloads.filter { workload in filter.map { workload.name.contains($0) } ?? true }

// MARK: - Rounds

struct Sample {
    var seconds: Double
    var rows: Int
    var batches: Int
}

var samples: [String: [Implementation: [Sample]]] = [:]
var sink = 0

/// Round 0 warms up (caches, statement caches, allocator) and is not counted.
for round in 0...rounds {
    for workload in workloads {
        // Rotate the order of implementations from round to round.
        let implementations = Implementation.allCases
        let shift = round % implementations.count
        for implementation in implementations[shift...] + implementations[..<shift] {
            guard let variant = workload.variants[implementation] else { continue }
            try variant.reset()
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try variant.run()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            sink &+= result.rows
            if round > 0 {
                samples[workload.name, default: [:]][implementation, default: []].append(
                    Sample(seconds: seconds, rows: result.rows, batches: result.batches))
            }
        }
    }
    log(
        round == 0
            ? "warm-up round done (load average \(loadAverage()))"
            : "round \(round) of \(rounds) done (load average \(loadAverage()))")
}

// MARK: - Table

func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
func ratio(_ value: Double) -> String { String(format: "%.2f", value) }

/// Prints the table of one statistic of the rounds' wall clock times.
@MainActor func printTable(_ title: String, _ statistic: ([Double]) -> Double) {
    print(title + "\n")
    print(
        "| workload | C (multi-thread) | C (serialized) | Strata | GRDB 7 | Strata, statistics on "
            + "| Strata / C (mt) | Strata / GRDB | statistics on / off |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for workload in workloads where !workload.name.hasPrefix(floorPrefix) {
        let times = Implementation.allCases.map { statistic(samples[workload.name]?[$0]?.map(\.seconds) ?? []) }
        let (cMT, strata, grdb, statistics) = (times[0], times[2], times[3], times[4])
        print(
            "| \(workload.name) | \(times.map(ms).joined(separator: " | ")) | \(ratio(strata / cMT)) "
                + "| \(ratio(strata / grdb)) | \(ratio(statistics / strata)) |")
    }
}

printTable(
    "Median wall clock of \(rounds) interleaved rounds (after one warm-up round), release build, "
        + "load average at the end: \(loadAverage()).", median)
// On a busy machine, other processes only ever add time: the fastest round
// is the least disturbed one.
printTable("\nFastest of the \(rounds) rounds:") { $0.min() ?? .nan }

if workloads.contains(where: { $0.name.hasPrefix(floorPrefix) }) {
    print("\nWall-clock floors: the C program with the costs of GRDB's API, against plain C (medians):\n")
    print("| floor | plain C (multi-thread) | C with the API's costs | floor / C |")
    print("|---|---:|---:|---:|")
    for workload in workloads where workload.name.hasPrefix(floorPrefix) {
        let plain = median(samples[workload.name]?[.cMT]?.map(\.seconds) ?? [])
        let floor = median(samples[workload.name]?[.strata]?.map(\.seconds) ?? [])
        print(
            "| \(workload.name.dropFirst(floorPrefix.count)) | \(ms(plain)) | \(ms(floor)) | \(ratio(floor / plain)) |")
    }
}

if workloads.contains(where: { $0.name == poolName }) {
    print("\nPool throughput (medians of \(rounds) rounds):\n")
    print("| implementation | rows read/s | batches written/s | Strata / this, rows | Strata / this, batches |")
    print("|---|---:|---:|---:|---:|")
    @MainActor func rates(_ implementation: Implementation) -> (rows: Double, batches: Double) {
        let runs = samples[poolName]?[implementation] ?? []
        return (
            median(runs.map { Double($0.rows) / $0.seconds }),
            median(runs.map { Double($0.batches) / $0.seconds })
        )
    }
    let strata = rates(.strata)
    for implementation in Implementation.allCases where samples[poolName]?[implementation] != nil {
        let rate = rates(implementation)
        print(
            "| \(implementation.rawValue) | \(Int(rate.rows)) | \(Int(rate.batches)) | "
                + "\(ratio(strata.rows / rate.rows)) | \(ratio(strata.batches / rate.batches)) |")
    }
}
log("checksum \(sink)")
