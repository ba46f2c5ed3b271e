import Benchmark
import CWorkloads
import Foundation
import GRDBWorkloads
import StrataWorkloads
import WorkloadSupport

// Strata vs GRDB 7 vs raw sqlite3 C calls, on identical workloads.
//
// Each implementation owns its own private in-memory database, filled with
// the same fixture SQL (WorkloadSupport's `Fixture`) once per process, lazily
// on first use, never inside the measured region. Insert benchmarks empty
// their table before each iteration, outside of startMeasurement() /
// stopMeasurement(). The pool benchmarks use a WAL file per implementation.
//
// Raw C runs twice: "C (multi-thread)" opens its connection with
// SQLITE_OPEN_NOMUTEX, as Strata does, and "C (serialized)" in SQLite's
// default mode, which takes a mutex in every sqlite3_* call.
//
// Each benchmark runs in a process of its own (the plugin's way), so a
// filtered run only builds the databases it needs:
//     swift package --disable-sandbox benchmark --filter "Int.fetchAll.*"

// Global lets are initialized lazily, on first use.
let cReads = try! CReads(setupSQL: Fixture.readSetup, threading: .serialized)
let cMTReads = try! CReads(setupSQL: Fixture.readSetup, threading: .multiThread)
let strataReads = try! StrataReads(setupSQL: Fixture.readSetup)
let grdbReads = try! GRDBReads(setupSQL: Fixture.readSetup)
let cInserts = try! CInserts(setupSQL: Fixture.insertSetup, threading: .serialized)
let cMTInserts = try! CInserts(setupSQL: Fixture.insertSetup, threading: .multiThread)
let strataInserts = try! StrataInserts(setupSQL: Fixture.insertSetup)
let grdbInserts = try! GRDBInserts(setupSQL: Fixture.insertSetup)

let poolDirectory: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-benchmarks-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()
func poolPath(_ name: String) -> String { poolDirectory.appendingPathComponent(name).path }
let cPool = try! CPoolWorkloads(path: poolPath("c.sqlite"), setupSQL: Fixture.poolSetup, threading: .serialized)
let cMTPool = try! CPoolWorkloads(path: poolPath("c-mt.sqlite"), setupSQL: Fixture.poolSetup, threading: .multiThread)
let strataPool = try! StrataPoolWorkloads(path: poolPath("strata.sqlite"), setupSQL: Fixture.poolSetup)
let grdbPool = try! GRDBPoolWorkloads(path: poolPath("grdb.sqlite"), setupSQL: Fixture.poolSetup)

let benchmarks: @Sendable () -> Void = {
    // mallocCountTotal: the allocations of one iteration (the MallocInterposer
    // trait of the benchmark package counts them), SQLite's included, shown
    // as exact counts rather than thousands.
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions],
        timeUnits: .milliseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 1,
        maxDuration: .seconds(2),
        maxIterations: 20
    )

    // MARK: Reads

    func readBenchmark<T>(_ name: String, _ setup: @escaping () -> Void, _ work: @escaping () throws -> T) {
        Benchmark(name) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try work())
            }
        } setup: {
            setup()
        }
    }

    /// The C (multi-thread), C (serialized), Strata and GRDB variants of a read.
    func readBenchmarks<T1, T2, T3>(
        _ name: String,
        c: @escaping (CReads) throws -> T1,
        strata: @escaping () throws -> T2,
        grdb: @escaping () throws -> T3
    ) {
        readBenchmark("\(name) · C (multi-thread)", { _ = cMTReads }) { try c(cMTReads) }
        readBenchmark("\(name) · C (serialized)", { _ = cReads }) { try c(cReads) }
        readBenchmark("\(name) · Strata", { _ = strataReads }, strata)
        readBenchmark("\(name) · GRDB", { _ = grdbReads }, grdb)
    }

    readBenchmarks(
        "Row cursor, by index", c: { try $0.iterateRowsByIndex() },
        strata: { try strataReads.iterateRowsByIndex() }, grdb: { try grdbReads.iterateRowsByIndex() })
    readBenchmarks(
        "Row cursor, by name", c: { try $0.iterateRowsByName() },
        strata: { try strataReads.iterateRowsByName() }, grdb: { try grdbReads.iterateRowsByName() })
    readBenchmarks(
        "Int.fetchAll", c: { try $0.fetchAllInts() },
        strata: { try strataReads.fetchAllInts() }, grdb: { try grdbReads.fetchAllInts() })
    readBenchmarks(
        "Date.fetchAll", c: { try $0.fetchAllDates() },
        strata: { try strataReads.fetchAllDates() }, grdb: { try grdbReads.fetchAllDates() })

    // Issue 5: a request built from filter, order and limit, fetched 200 times
    // (SQL generation plus fetch); C prepares the same SQL each time.
    readBenchmarks(
        "Request filter+order+limit ×200", c: { try $0.queryInterfaceRequests() },
        strata: { try strataReads.queryInterfaceRequests() }, grdb: { try grdbReads.queryInterfaceRequests() })

    // Issue 6: 200,000 rows decoded into structs. C fills a plain struct: the
    // baseline of every record fetch (the C rows are the same code).
    readBenchmarks(
        "Records, init(row:) by name", c: { try $0.fetchRecords() },
        strata: { try strataReads.fetchRecordsByName() }, grdb: { try grdbReads.fetchRecordsByName() })
    readBenchmark("Records, init(row:) by index · Strata", { _ = strataReads }) {
        try strataReads.fetchRecordsByIndex()
    }
    readBenchmark("Records, init(row:) by index · GRDB", { _ = grdbReads }) { try grdbReads.fetchRecordsByIndex() }
    readBenchmark("Records, Decodable · Strata", { _ = strataReads }) { try strataReads.fetchDecodableRecords() }
    readBenchmark("Records, Decodable · GRDB", { _ = grdbReads }) { try grdbReads.fetchDecodableRecords() }

    // MARK: Inserts

    func insertBenchmark(
        _ name: String,
        reset: @escaping () throws -> Void,
        insert: @escaping (Int) throws -> Void
    ) {
        Benchmark(name) { benchmark in
            // Each iteration starts from an empty table; emptying it is not measured.
            try reset()
            benchmark.startMeasurement()
            try insert(Fixture.insertRowCount)
            benchmark.stopMeasurement()
        }
    }

    /// The C (multi-thread) and C (serialized) variants of an insert.
    func cInsertBenchmarks(_ name: String, _ insert: @escaping (CInserts, Int) throws -> Void) {
        insertBenchmark("\(name) · C (multi-thread)", reset: { try cMTInserts.reset() }) { try insert(cMTInserts, $0) }
        insertBenchmark("\(name) · C (serialized)", reset: { try cInserts.reset() }) { try insert(cInserts, $0) }
    }

    cInsertBenchmarks("Insert, positional args") { try $0.insertPositional(rowCount: $1) }
    insertBenchmark(
        "Insert, positional args · Strata", reset: strataInserts.reset, insert: strataInserts.insertPositional)
    insertBenchmark("Insert, positional args · GRDB", reset: grdbInserts.reset, insert: grdbInserts.insertPositional)

    cInsertBenchmarks("Insert, named args") { try $0.insertNamed(rowCount: $1) }
    insertBenchmark("Insert, named args · Strata", reset: strataInserts.reset, insert: strataInserts.insertNamed)
    insertBenchmark("Insert, named args · GRDB", reset: grdbInserts.reset, insert: grdbInserts.insertNamed)

    // Issue 6: 50,000 records inserted in one transaction. The C baseline
    // binds a struct's fields with the SQL Strata and GRDB generate for a
    // record, for both the encode(to:) and the Encodable rows.
    cInsertBenchmarks("Insert records") { try $0.insertRecords(rowCount: $1) }
    insertBenchmark(
        "Insert records, encode(to:) · Strata", reset: strataInserts.reset, insert: strataInserts.insertRecords)
    insertBenchmark("Insert records, encode(to:) · GRDB", reset: grdbInserts.reset, insert: grdbInserts.insertRecords)
    insertBenchmark(
        "Insert records, Encodable · Strata", reset: strataInserts.reset, insert: strataInserts.insertEncodableRecords)
    insertBenchmark(
        "Insert records, Encodable · GRDB", reset: grdbInserts.reset, insert: grdbInserts.insertEncodableRecords)

    // MARK: Pool

    // Two reader threads scan the 200,000 rows of `t` Fixture.poolScans times
    // each, while a writer thread inserts batches of 100 rows until they are
    // done. C: three connections on one WAL file, one per thread.
    let rowsRead = BenchmarkMetric.custom("rows read/s", polarity: .prefersLarger, useScalingFactor: false)
    let batchesWritten = BenchmarkMetric.custom("batches written/s", polarity: .prefersLarger, useScalingFactor: false)
    func poolBenchmark(
        _ name: String, _ open: @escaping () -> Void, _ work: @escaping () throws -> (rows: Int, batches: Int)
    ) {
        Benchmark(
            "Pool, 2 readers + 1 writer · \(name)",
            configuration: .init(
                metrics: [.wallClock, .cpuTotal, .mallocCountTotal, rowsRead, batchesWritten],
                maxIterations: 10)
        ) { benchmark in
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try work()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            benchmark.measurement(rowsRead, Int(Double(result.rows) / seconds))
            benchmark.measurement(batchesWritten, Int(Double(result.batches) / seconds))
        } setup: {
            open()
        } teardown: {
            try? FileManager.default.removeItem(at: poolDirectory)
        }
    }
    poolBenchmark("C (multi-thread)", { _ = cMTPool }) { try cMTPool.readersDuringWrites(scans: Fixture.poolScans) }
    poolBenchmark("C (serialized)", { _ = cPool }) { try cPool.readersDuringWrites(scans: Fixture.poolScans) }
    poolBenchmark("Strata", { _ = strataPool }) { try strataPool.readersDuringWrites(scans: Fixture.poolScans) }
    poolBenchmark("GRDB", { _ = grdbPool }) { try grdbPool.readersDuringWrites(scans: Fixture.poolScans) }
}
