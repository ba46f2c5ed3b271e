import Foundation
import Strata
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// The writer of the Litestream integration test (see ../../run.sh and
// ../../driver.py): a server-like process that writes with Strata through a
// DatabasePool opened with `Configuration.server()`, while the test runs
// `litestream replicate` on the same database, until the test kills both with
// SIGKILL.
//
// Each transaction inserts one row in `txn` and `--items` rows in `item`, all
// with the same `seq` (1, 2, 3...), so that a restored database shows a partial
// transaction (a `seq` whose items are not all there) or a missing one (a gap
// in `seq`). After each commit, it prints `ack SEQ NANOSECONDS` on stdout, the
// time read on CLOCK_MONOTONIC after the commit returned: the driver compares
// it with the time of the kill on the same clock.
//
// Meanwhile, a ValueObservation tracks `MAX(seq)`, and a background thread runs
// `walCheckpoint(.passive)` every `--checkpoint-ms`: `stat` lines tell how they
// progress while Litestream holds its long read transaction.
//
// stdout lines (one `write(2)` each, from the main thread only):
//   ready PID
//   ack SEQ NANOSECONDS
//   stat t=NANOSECONDS acked=SEQ observed=SEQ deliveries=N observationErrors=N
//        checkpoints=N complete=N checkpointErrors=N walFrames=N backfilled=N walSize=BYTES
//        maxCommitUs=N (the longest write so far, waits for the lock included)
//   error MESSAGE        (then exit 2)

struct Options {
    var path = ""
    var items = 10
    var pauseMicroseconds: UInt32 = 2000
    var checkpointMilliseconds = 250
    var statMilliseconds = 250
    var maxSeconds = 120.0
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst().makeIterator()
    func value(_ name: String) -> String {
        guard let value = arguments.next() else {
            FileHandle.standardError.write(Data("missing value for \(name)\n".utf8))
            exit(64)
        }
        return value
    }
    while let argument = arguments.next() {
        switch argument {
        case "--db": options.path = value(argument)
        case "--items": options.items = Int(value(argument)) ?? options.items
        case "--pause-us": options.pauseMicroseconds = UInt32(value(argument)) ?? options.pauseMicroseconds
        case "--checkpoint-ms": options.checkpointMilliseconds = Int(value(argument)) ?? options.checkpointMilliseconds
        case "--stat-ms": options.statMilliseconds = Int(value(argument)) ?? options.statMilliseconds
        case "--max-seconds": options.maxSeconds = Double(value(argument)) ?? options.maxSeconds
        default:
            FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
            exit(64)
        }
    }
    if options.path.isEmpty {
        FileHandle.standardError.write(
            Data(
                ("usage: litestream-writer --db PATH [--items N] [--pause-us N] [--checkpoint-ms N]"
                    + " [--stat-ms N] [--max-seconds N]\n").utf8))
        exit(64)
    }
    return options
}

/// CLOCK_MONOTONIC, the clock of Python's `time.monotonic_ns()` on Linux.
func monotonicNanoseconds() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int(ts.tv_sec) * 1_000_000_000 + Int(ts.tv_nsec)
}

/// Writes a whole line with `write(2)`: nothing stays in a buffer that a
/// SIGKILL would lose.
func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                exit(3)
            }
            offset += written
        }
    }
}

final class Counters: Sendable {
    let observed = Atomic<Int>(0)
    let deliveries = Atomic<Int>(0)
    let observationErrors = Atomic<Int>(0)
    let checkpoints = Atomic<Int>(0)
    let completeCheckpoints = Atomic<Int>(0)
    let checkpointErrors = Atomic<Int>(0)
    let walFrames = Atomic<Int>(0)
    let backfilled = Atomic<Int>(0)
    let walSize = Atomic<Int>(0)
    let lastError = Mutex<String?>(nil)
}

let options = parseOptions()
let counters = Counters()

let dbPool: DatabasePool
var seq: Int
do {
    dbPool = try DatabasePool(path: options.path, configuration: .server())
    try dbPool.write { db in
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS txn (
                    seq INTEGER PRIMARY KEY,
                    ts INTEGER NOT NULL,
                    items INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS item (
                    seq INTEGER NOT NULL,
                    i INTEGER NOT NULL,
                    k INTEGER NOT NULL,
                    payload BLOB NOT NULL,
                    PRIMARY KEY (seq, i));
                """)
    }
    seq = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT MAX(seq) FROM txn") ?? 0 }
} catch {
    emit("error \(error)")
    exit(2)
}
emit("ready \(getpid())")

// The observation: notified on its own queue after each commit.
let observation = ValueObservation.tracking { db in
    try Int.fetchOne(db, sql: "SELECT MAX(seq) FROM txn") ?? 0
}
let observationCancellable = observation.start(
    in: dbPool,
    scheduling: .async(onQueue: DispatchQueue(label: "observation")),
    onError: { error in
        counters.observationErrors.add(1, ordering: .relaxed)
        counters.lastError.withLock { $0 = "observation: \(error)" }
    },
    onChange: { value in
        counters.deliveries.add(1, ordering: .relaxed)
        counters.observed.store(value, ordering: .relaxed)
    })

// The checkpoints: passive, the mode that never waits for Litestream's read
// transaction nor blocks the writes.
let checkpointThread = Thread {
    while true {
        usleep(UInt32(options.checkpointMilliseconds) * 1000)
        do {
            let result = try dbPool.walCheckpoint(.passive)
            counters.checkpoints.add(1, ordering: .relaxed)
            if result.isComplete { counters.completeCheckpoints.add(1, ordering: .relaxed) }
            counters.walFrames.store(result.walFrameCount, ordering: .relaxed)
            counters.backfilled.store(result.checkpointedFrameCount, ordering: .relaxed)
            counters.walSize.store(Int(result.walSize), ordering: .relaxed)
        } catch {
            counters.checkpointErrors.add(1, ordering: .relaxed)
            counters.lastError.withLock { $0 = "checkpoint: \(error)" }
        }
    }
}
checkpointThread.start()

var maxCommitMicroseconds = 0

@MainActor func statLine() -> String {
    let c = counters
    return "stat t=\(monotonicNanoseconds()) acked=\(seq)"
        + " observed=\(c.observed.load(ordering: .relaxed))"
        + " deliveries=\(c.deliveries.load(ordering: .relaxed))"
        + " observationErrors=\(c.observationErrors.load(ordering: .relaxed))"
        + " checkpoints=\(c.checkpoints.load(ordering: .relaxed))"
        + " complete=\(c.completeCheckpoints.load(ordering: .relaxed))"
        + " checkpointErrors=\(c.checkpointErrors.load(ordering: .relaxed))"
        + " walFrames=\(c.walFrames.load(ordering: .relaxed))"
        + " backfilled=\(c.backfilled.load(ordering: .relaxed))"
        + " walSize=\(c.walSize.load(ordering: .relaxed))"
        + " maxCommitUs=\(maxCommitMicroseconds)"
}

// The writes, until the test kills the process (or --max-seconds, so that a
// writer whose driver died stops by itself).
let payload = Data(repeating: 0x5A, count: 64)
let start = monotonicNanoseconds()
var nextStat = start
let deadline = start + Int(options.maxSeconds * 1e9)
while true {
    let next = seq + 1
    let before = monotonicNanoseconds()
    do {
        try dbPool.write { db in
            try db.execute(
                sql: "INSERT INTO txn (seq, ts, items) VALUES (?, ?, ?)",
                arguments: [next, monotonicNanoseconds(), options.items])
            let statement = try db.cachedStatement(sql: "INSERT INTO item (seq, i, k, payload) VALUES (?, ?, ?, ?)")
            for i in 0..<options.items {
                try statement.execute(arguments: [next, i, next * 1000 + i, payload])
            }
        }
    } catch {
        emit("error write \(next): \(error)")
        exit(2)
    }
    seq = next
    let now = monotonicNanoseconds()
    maxCommitMicroseconds = max(maxCommitMicroseconds, (now - before) / 1000)
    emit("ack \(seq) \(now)")
    if let message = counters.lastError.withLock({ $0 }) {
        emit(statLine())
        emit("error \(message)")
        exit(2)
    }
    if now >= nextStat {
        emit(statLine())
        nextStat = now + options.statMilliseconds * 1_000_000
    }
    if now >= deadline {
        emit(statLine())
        emit("done")
        withExtendedLifetime(observationCancellable) {}
        exit(0)
    }
    if options.pauseMicroseconds > 0 { usleep(options.pauseMicroseconds) }
}
