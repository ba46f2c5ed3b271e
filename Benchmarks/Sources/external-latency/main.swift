import Dispatch
import Foundation
import Strata
import WorkloadSupport

// The latency and cost of Configuration.observesExternalChanges (issue 31),
// release build:
//     swift build -c release --product external-latency && .build/release/external-latency
//
// Latency: this program runs itself again as a writer process
// (`external-latency writer PATH COUNT`), which commits COUNT single-row
// transactions, 10 ms apart, each recording the wall-clock time just before
// its COMMIT. This process observes the last row with a ValueObservation on
// a pool (WAL) and on a queue (rollback journal); the latency of a commit is
// the time at which its row is notified (on the observation's queue) minus
// the time the writer recorded. Both processes read the same clock.
//
// Cost: the writes per second of the pool's own single-row transactions,
// with one value observation, with the setting on and off (no other
// writer), interleaved rounds; and the processor time that a process
// observing with the setting on spends in 5 idle seconds.

let arguments = CommandLine.arguments
let latencyCount = 300

func now() -> Double { Date().timeIntervalSince1970 }

func makeConfiguration(observes: Bool) -> Configuration {
    var configuration = Configuration()
    configuration.observesExternalChanges = observes
    configuration.busyMode = .timeout(10)
    return configuration
}

/// The writer process: COUNT commits, 10 ms apart.
func runWriter(path: String, count: Int) throws {
    let dbQueue = try DatabaseQueue(path: path, configuration: makeConfiguration(observes: false))
    for _ in 0..<count {
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO t (sentAt) VALUES (?)", arguments: [now()])
        }
        usleep(10_000)
    }
}

/// The processor time of this process, in seconds.
func processorTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
}

/// The last row: its id, and when its writer committed it.
struct Sample: Sendable, Equatable {
    var id: Int64
    var sentAt: Double
}

final class Latencies: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Double] = []
    private var lastID: Int64 = 0
    let done = DispatchSemaphore(value: 0)

    func record(id: Int64, sentAt: Double, count: Int) {
        let latency = now() - sentAt
        lock.lock()
        defer { lock.unlock() }
        guard id > lastID else { return }
        lastID = id
        values.append(latency)
        if id == count { done.signal() }
    }

    var sorted: [Double] { lock.withLock { values.sorted() } }
}

func milliseconds(_ value: Double) -> String { String(format: "%.2f ms", value * 1000) }

func measureLatency(pool: Bool) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("external-latency-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("db.sqlite").path
    let writer: any DatabaseWriter =
        pool
        ? try DatabasePool(path: path, configuration: makeConfiguration(observes: true))
        : try DatabaseQueue(path: path, configuration: makeConfiguration(observes: true))
    try writer.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, sentAt REAL NOT NULL)") }
    let latencies = Latencies()
    let observation = ValueObservation.tracking { db in
        try Row.fetchOne(db, sql: "SELECT id, sentAt FROM t ORDER BY id DESC LIMIT 1").map {
            Sample(id: $0["id"], sentAt: $0["sentAt"])
        }
    }
    let cancellable = observation.start(
        in: writer, scheduling: .async(onQueue: DispatchQueue(label: "latency")), onError: { fatalError("\($0)") },
        onChange: { sample in
            guard let sample else { return }
            latencies.record(id: sample.id, sentAt: sample.sentAt, count: latencyCount)
        })
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["writer", path, "\(latencyCount)"]
    try process.run()
    process.waitUntilExit()
    if latencies.done.wait(timeout: .now() + 10) == .timedOut { print("  (the last commit was not seen)") }
    cancellable.cancel()
    let sorted = latencies.sorted
    print(
        "| \(pool ? "DatabasePool, WAL" : "DatabaseQueue, rollback journal") | \(sorted.count) of \(latencyCount) "
            + "| \(milliseconds(percentile(sorted, 0.5))) | \(milliseconds(percentile(sorted, 0.9))) "
            + "| \(milliseconds(percentile(sorted, 0.99))) | \(milliseconds(sorted.last ?? 0)) |")
}

/// Writes per second, and processor time per write in microseconds (all
/// threads of the process: the watcher's and the checks' included).
func measureThroughput(observes: Bool, writes: Int) throws -> (rate: Double, cpu: Double) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("external-cost-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("db.sqlite").path
    let dbPool = try DatabasePool(path: path, configuration: makeConfiguration(observes: observes))
    try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, value INTEGER)") }
    let cancellable = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT MAX(id) FROM t") }
        .start(
            in: dbPool, scheduling: .async(onQueue: DispatchQueue(label: "cost")), onError: { _ in }, onChange: { _ in }
        )
    let start = now()
    let startCPU = processorTime()
    for index in 0..<writes {
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: [index]) }
    }
    let elapsed = now() - start
    let cpu = processorTime() - startCPU
    cancellable.cancel()
    return (Double(writes) / elapsed, cpu / Double(writes) * 1_000_000)
}

func measureIdleProcessorTime() throws -> Double {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("external-idle-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("db.sqlite").path
    let dbPool = try DatabasePool(path: path, configuration: makeConfiguration(observes: true))
    try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, value INTEGER)") }
    let cancellable = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT MAX(id) FROM t") }
        .start(
            in: dbPool, scheduling: .async(onQueue: DispatchQueue(label: "idle")), onError: { _ in }, onChange: { _ in }
        )
    // Past the rechecks that follow the last file event (about 6.3 s).
    sleep(7)
    let start = processorTime()
    sleep(5)
    let spent = processorTime() - start
    cancellable.cancel()
    return spent
}

if arguments.count == 4, arguments[1] == "writer" {
    try runWriter(path: arguments[2], count: Int(arguments[3])!)
    exit(0)
}

// `external-latency writes on|off COUNT`: only the own writes, once, for
// profilers (`perf stat`, `perf record`).
if arguments.count == 4, arguments[1] == "writes" {
    let result = try measureThroughput(observes: arguments[2] == "on", writes: Int(arguments[3])!)
    print(String(format: "%.0f writes/s, %.2f µs of processor time per write", result.rate, result.cpu))
    exit(0)
}

print("Latency of \(latencyCount) commits of another process, 10 ms apart:\n")
print("| observer | seen | median | p90 | p99 | max |")
print("|---|---:|---:|---:|---:|---:|")
try measureLatency(pool: true)
try measureLatency(pool: false)

let writes = 20_000
let rounds = 9
print(
    "\nOwn single-row write transactions per second on a pool with one value observation "
        + "(\(writes) writes, \(rounds) rounds, the order alternates):\n")
print("| round | setting off | setting on | on / off | processor µs per write, off | on |")
print("|---:|---:|---:|---:|---:|---:|")
var ratios: [Double] = []
var cpuRatios: [Double] = []
for round in 1...rounds {
    var off = (rate: 0.0, cpu: 0.0)
    var on = off
    if round.isMultiple(of: 2) {
        on = try measureThroughput(observes: true, writes: writes)
        off = try measureThroughput(observes: false, writes: writes)
    } else {
        off = try measureThroughput(observes: false, writes: writes)
        on = try measureThroughput(observes: true, writes: writes)
    }
    ratios.append(on.rate / off.rate)
    cpuRatios.append(on.cpu / off.cpu)
    print(
        String(
            format: "| %d | %.0f | %.0f | %.3f | %.2f | %.2f |", round, off.rate, on.rate, on.rate / off.rate, off.cpu,
            on.cpu))
}
print(
    String(
        format: "\nMedian on / off: writes per second %.3f, processor time per write %.3f",
        percentile(ratios.sorted(), 0.5),
        percentile(cpuRatios.sorted(), 0.5)))

let idle = try measureIdleProcessorTime()
print(String(format: "\nProcessor time of an idle observing process, over 5 s: %.1f ms", idle * 1000))
