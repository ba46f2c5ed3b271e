import Benchmark
import CWorkloads
import Foundation
import GRDBWorkloads
import StrataWorkloads

// Strata vs GRDB 7 vs raw sqlite3 C calls, on identical workloads.
//
// Each implementation owns its own private in-memory database, filled with
// the same fixture SQL once per process (lazily, on first use) — never inside
// the measured region. Insert benchmarks empty their table before each
// iteration, outside of startMeasurement()/stopMeasurement().

enum Fixture {
    static let readRowCount = 200_000
    static let dateCount = 100_000
    static let insertRowCount = 50_000

    static let readSetup: [String] = [
        "CREATE TABLE t (i0 INTEGER, i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER, i5 INTEGER, i6 INTEGER, i7 INTEGER, i8 INTEGER, i9 INTEGER)",
        """
        WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < \(readRowCount - 1))
        INSERT INTO t SELECT x, x+1, x+2, x+3, x+4, x+5, x+6, x+7, x+8, x+9 FROM c
        """,
        "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)",
        """
        WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 999)
        INSERT INTO player (name, score) SELECT 'player' || ((x * 7919) % 1000), (x * 37) % 1000 FROM c
        """,
        "CREATE TABLE dates (d TEXT)",
        // "YYYY-MM-DD HH:MM:SS.SSS", the format GRDB and Strata store dates in.
        """
        WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < \(dateCount - 1))
        INSERT INTO dates SELECT strftime('%Y-%m-%d %H:%M:%f', 1600000000 + x * 37.123, 'unixepoch') FROM c
        """,
    ]

    static let insertSetup: [String] = [
        "CREATE TABLE t (i0 INTEGER, i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER, i5 INTEGER, i6 INTEGER, i7 INTEGER, i8 INTEGER, i9 INTEGER)",
    ]
}

// Global lets are initialized lazily, on first use: a filtered run only
// builds the databases it needs.
let cReads = try! CReads(setupSQL: Fixture.readSetup)
let strataReads = try! StrataReads(setupSQL: Fixture.readSetup)
let grdbReads = try! GRDBReads(setupSQL: Fixture.readSetup)
let cInserts = try! CInserts(setupSQL: Fixture.insertSetup)
let strataInserts = try! StrataInserts(setupSQL: Fixture.insertSetup)
let grdbInserts = try! GRDBInserts(setupSQL: Fixture.insertSetup)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions],
        timeUnits: .milliseconds,
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

    readBenchmark("Row cursor, by index · C", { _ = cReads }) { try cReads.iterateRowsByIndex() }
    readBenchmark("Row cursor, by index · Strata", { _ = strataReads }) { try strataReads.iterateRowsByIndex() }
    readBenchmark("Row cursor, by index · GRDB", { _ = grdbReads }) { try grdbReads.iterateRowsByIndex() }

    readBenchmark("Row cursor, by name · C", { _ = cReads }) { try cReads.iterateRowsByName() }
    readBenchmark("Row cursor, by name · Strata", { _ = strataReads }) { try strataReads.iterateRowsByName() }
    readBenchmark("Row cursor, by name · GRDB", { _ = grdbReads }) { try grdbReads.iterateRowsByName() }

    readBenchmark("Int.fetchAll · C", { _ = cReads }) { try cReads.fetchAllInts() }
    readBenchmark("Int.fetchAll · Strata", { _ = strataReads }) { try strataReads.fetchAllInts() }
    readBenchmark("Int.fetchAll · GRDB", { _ = grdbReads }) { try grdbReads.fetchAllInts() }

    readBenchmark("Date.fetchAll · C", { _ = cReads }) { try cReads.fetchAllDates() }
    readBenchmark("Date.fetchAll · Strata", { _ = strataReads }) { try strataReads.fetchAllDates() }
    readBenchmark("Date.fetchAll · GRDB", { _ = grdbReads }) { try grdbReads.fetchAllDates() }

    // Issue 5: a request built from filter, order and limit, fetched 200 times
    // (SQL generation plus fetch); C prepares the same SQL each time.
    readBenchmark("Request filter+order+limit ×200 · C", { _ = cReads }) { try cReads.queryInterfaceRequests() }
    readBenchmark("Request filter+order+limit ×200 · Strata", { _ = strataReads }) {
        try strataReads.queryInterfaceRequests()
    }
    readBenchmark("Request filter+order+limit ×200 · GRDB", { _ = grdbReads }) {
        try grdbReads.queryInterfaceRequests()
    }

    // Issue 6: 200,000 rows decoded into structs. C fills a plain struct.
    readBenchmark("Records, init(row:) by name · C", { _ = cReads }) { try cReads.fetchRecords() }
    readBenchmark("Records, init(row:) by name · Strata", { _ = strataReads }) {
        try strataReads.fetchRecordsByName()
    }
    readBenchmark("Records, init(row:) by name · GRDB", { _ = grdbReads }) { try grdbReads.fetchRecordsByName() }
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

    insertBenchmark("Insert, positional args · C", reset: cInserts.reset, insert: cInserts.insertPositional)
    insertBenchmark("Insert, positional args · Strata", reset: strataInserts.reset, insert: strataInserts.insertPositional)
    insertBenchmark("Insert, positional args · GRDB", reset: grdbInserts.reset, insert: grdbInserts.insertPositional)

    insertBenchmark("Insert, named args · C", reset: cInserts.reset, insert: cInserts.insertNamed)
    insertBenchmark("Insert, named args · Strata", reset: strataInserts.reset, insert: strataInserts.insertNamed)
    insertBenchmark("Insert, named args · GRDB", reset: grdbInserts.reset, insert: grdbInserts.insertNamed)

    // Issue 6: 50,000 records inserted in one transaction. The C baseline is
    // the positional insert above.
    insertBenchmark("Insert records, encode(to:) · Strata", reset: strataInserts.reset, insert: strataInserts.insertRecords)
    insertBenchmark("Insert records, encode(to:) · GRDB", reset: grdbInserts.reset, insert: grdbInserts.insertRecords)
    insertBenchmark(
        "Insert records, Encodable · Strata", reset: strataInserts.reset, insert: strataInserts.insertEncodableRecords)
    insertBenchmark(
        "Insert records, Encodable · GRDB", reset: grdbInserts.reset, insert: grdbInserts.insertEncodableRecords)
}
