import Dispatch
import Foundation
import Observation
import Strata
import WorkloadSupport

// Live queries in @Observable models (issue 50): from a commit to the live
// value holding the value of that commit, with 1, 10 and 100 live queries on
// a pool, and the writer's rate with them against none (release build):
//     swift build -c release --product live-query-latency && .build/release/live-query-latency
// Arguments: the writes measured for the latency (default 300), the seconds
// of writes for the rate (default 3).
//
// Each live query tracks `SELECT MAX(version) FROM t` (every commit changes
// it), notified on the main actor as an @MainActor model's would be, with
// the default pacing (`ObservationPacing.display`). A commit's latency, for
// one live query, runs from the moment the write access is asked for (a
// tracking observation may fetch, and even deliver, before the access
// returns) to the moment the main queue reads the new version in the live
// value, right after Observation reported the change; the writer waits for
// every live query to have it before the next write. The figures include
// the write access itself (about 60 µs here).
// The rate: writes as fast as one task can, for the given seconds, with the
// live values but without the latency's trackers (nothing reads them). The
// same with no live query, with live values that fetch after every commit
// (`pacing: .everyCommit`), and with as many plain `ValueObservation`s
// notified on the main actor, measured in turn in each round (after one
// warm-up run: the first seconds of a process write slower); the table
// gives the medians. GRDB has no live query: the baselines are the pool
// without any, and with plain observations. The floor: the same fetches,
// as often as the display pacing allows them (every 1/60 s), in C on a
// connection of their own, with one block per fetch transaction on the
// main queue (`RawFetchFloor`): what the writer loses to them is what
// fetches that frequent cost it on this machine, whatever the library.

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let latencyWrites = arguments.count > 0 ? arguments[0] : 300
let rateSeconds = arguments.count > 1 ? Double(arguments[1]) : 2
let rounds = arguments.count > 2 ? arguments[2] : 3

/// Calls `onChange` on the main queue after each change of `live.value`,
/// once the main actor has set the new value.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class ValueTracker: Sendable {
    private let live: LiveValue<Int>
    private let onChange: @Sendable (Int) -> Void

    init(_ live: LiveValue<Int>, onChange: @escaping @Sendable (Int) -> Void) {
        self.live = live
        self.onChange = onChange
        track()
    }

    private func track() {
        withObservationTracking({ _ = live.value }) { [weak self] in
            guard let self else { return }
            track()
            DispatchQueue.main.async { self.onChange(self.live.value) }
        }
    }
}

/// What the trackers saw: per version, the live queries that have it.
final class Arrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int: Int] = [:]
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var latencies: [Double] = []
    private var commitTimes: [Int: ContinuousClock.Instant] = [:]
    let expected: Int

    init(expected: Int) { self.expected = expected }

    func writing(_ version: Int, at instant: ContinuousClock.Instant) {
        lock.withLock { commitTimes[version] = instant }
    }

    func arrived(_ version: Int) {
        let now = ContinuousClock.now
        let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            if let start = commitTimes[version] {
                let duration = now - start
                latencies.append(
                    Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3)
            }
            counts[version, default: 0] += 1
            guard counts[version] == expected else { return nil }
            return waiters.removeValue(forKey: version)
        }
        waiter?.resume()
    }

    func wait(for version: Int) async {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> Bool in
                if counts[version, default: 0] >= expected { return true }
                waiters[version] = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// The latencies in milliseconds, sorted.
    var sortedLatencies: [Double] { lock.withLock { latencies.sorted() } }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
func run(liveQueryCount: Int, kind: Kind = .live, measuresLatency: Bool = true) async throws -> (
    p50: Double, p99: Double, rate: Rate
) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-query-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
    try await dbPool.write { db in
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, version INTEGER NOT NULL)")
        try db.execute(sql: "INSERT INTO t(version) VALUES (0)")
    }
    let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT MAX(version) FROM t")! }
    if kind == .floor {
        let floor = RawFetchFloor(
            path: directory.appendingPathComponent("db.sqlite").path, count: liveQueryCount,
            interval: .nanoseconds(16_666_667))
        let writes = try await writeAsFastAsPossible(dbPool)
        floor.stop()
        return (.nan, .nan, writes)
    }
    if kind == .plain {
        let cancellables = (0..<liveQueryCount).map { _ in
            observation.start(in: dbPool, scheduling: .mainActor, onError: { _ in }, onChange: { _ in })
        }
        let writes = try await writeAsFastAsPossible(dbPool)
        withExtendedLifetime(cancellables) {}
        return (.nan, .nan, writes)
    }
    let arrivals = Arrivals(expected: liveQueryCount)
    var lives: [LiveValue<Int>] = []
    var trackers: [ValueTracker] = []
    for _ in 0..<liveQueryCount {
        let live = LiveValue(
            observation, in: dbPool, initialValue: -1, pacing: kind == .everyCommit ? .everyCommit : .display)
        lives.append(live)
        trackers.append(ValueTracker(live) { version in arrivals.arrived(version) })
    }
    if liveQueryCount > 0 { await arrivals.wait(for: 0) }

    // Latency: one write at a time, each awaited by every live query.
    var p50 = Double.nan
    var p99 = Double.nan
    if liveQueryCount > 0 && measuresLatency {
        let latencyArrivals = arrivals
        try await Task.detached {
            for version in 1...latencyWrites {
                latencyArrivals.writing(version, at: .now)
                try await dbPool.write { db in try db.execute(sql: "UPDATE t SET version = ?", arguments: [version]) }
                await latencyArrivals.wait(for: version)
            }
        }.value
        let sorted = arrivals.sortedLatencies
        p50 = percentile(sorted, 0.5)
        p99 = percentile(sorted, 0.99)
    }

    trackers = []
    let writes = try await writeAsFastAsPossible(dbPool)
    withExtendedLifetime(lives) {}
    return (p50, p99, writes)
}

/// What observes the pool.
enum Kind {
    /// Live values, with the default pacing.
    case live
    /// Live values that fetch after each commit.
    case everyCommit
    /// Value observations with an empty `onChange`.
    case plain
    /// The same fetches in C, at the display pacing's rate (`RawFetchFloor`).
    case floor
}

/// The writes of a rate run.
struct Rate {
    var writesPerSecond: Double
    /// The processor time of the whole process (every thread, user and
    /// system) per write, in microseconds: what observing adds to a write
    /// whatever the machine lets run at the same time.
    var cpuPerWrite: Double
}

func processCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
}

/// Writes per second: as many writes as one task can make.
func writeAsFastAsPossible(_ dbPool: DatabasePool) async throws -> Rate {
    let cpuStart = processCPUTime()
    let writes = try await Task.detached {
        let clock = ContinuousClock()
        let end = clock.now + .milliseconds(Int(rateSeconds * 1000))
        var count = 0
        var version = 1_000_000
        while clock.now < end {
            version += 1
            try await dbPool.write { [version] db in
                try db.execute(sql: "UPDATE t SET version = ?", arguments: [version])
            }
            count += 1
        }
        return count
    }.value
    return Rate(
        writesPerSecond: Double(writes) / rateSeconds, cpuPerWrite: (processCPUTime() - cpuStart) / Double(writes))
}

if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
    let cpu = processorName()
    print("Live queries on a pool, \(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu)")
    print(
        "latency: \(latencyWrites) writes, each awaited by every live query; rate: \(rateSeconds) s of writes"
            + " per run, medians of \(rounds) rounds")
    print("")
    print(
        "| live queries | commit to value, p50 | p99 | writes/s, none | live (/ none) | live, every commit"
            + " | plain observations | floor: C fetches | µs of processor per write: none / live / floor |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    // Warm-up: the first seconds of a process write slower.
    _ = try await run(liveQueryCount: 0)
    // PROFILE_LIVE_QUERIES=100 only writes with that many live queries (for
    // a profile: `perf record` this run).
    if let count = ProcessInfo.processInfo.environment["PROFILE_LIVE_QUERIES"].flatMap({ Int($0) }) {
        let result = try await run(liveQueryCount: count, measuresLatency: false)
        print(
            "| \(count) | | | | \(Int(result.rate.writesPerSecond)) | | | | | |"
                + " \(String(format: "%.1f", result.rate.cpuPerWrite)) µs of processor per write")
        exit(0)
    }
    // LIVE_QUERIES=1,100 measures only these counts (for a profile).
    let counts =
        ProcessInfo.processInfo.environment["LIVE_QUERIES"].map {
            $0.split(separator: ",").compactMap { Int($0) }
        } ?? [1, 10, 100]
    for count in counts {
        var latency = (p50: Double.nan, p99: Double.nan)
        var none: [Rate] = []
        var live: [Rate] = []
        var everyCommit: [Rate] = []
        var plain: [Rate] = []
        var floor: [Rate] = []
        for round in 0..<rounds {
            none.append(try await run(liveQueryCount: 0).rate)
            let result = try await run(liveQueryCount: count, measuresLatency: round == 0)
            if round == 0 { latency = (result.p50, result.p99) }
            live.append(result.rate)
            everyCommit.append(
                try await run(liveQueryCount: count, kind: .everyCommit, measuresLatency: false).rate)
            plain.append(try await run(liveQueryCount: count, kind: .plain).rate)
            floor.append(try await run(liveQueryCount: count, kind: .floor).rate)
        }
        let noneRate = median(none.map(\.writesPerSecond))
        func rate(_ rates: [Rate]) -> String {
            let perSecond = median(rates.map(\.writesPerSecond))
            return "\(Int(perSecond)) (\(String(format: "%.2f", perSecond / noneRate)))"
        }
        func cpu(_ rates: [Rate]) -> String { String(format: "%.1f", median(rates.map(\.cpuPerWrite))) }
        print(
            "| \(count) | \(String(format: "%.2f", latency.p50)) ms | \(String(format: "%.2f", latency.p99)) ms"
                + " | \(Int(noneRate)) | \(rate(live)) | \(rate(everyCommit)) | \(rate(plain)) | \(rate(floor))"
                + " | \(cpu(none)) / \(cpu(live)) / \(cpu(floor)) |")
    }
}
