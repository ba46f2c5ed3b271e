import Dispatch
import Foundation
import Strata
import StrataTestSupport
import Testing

/// A server pattern under random cancellation: a pool, reader threads, waves
/// of async reads and writes cancelled at random moments, and an observation.
/// Run it under the thread sanitizer with
/// `swift test --sanitize=thread --filter CancellationStressTests`.
@Suite("Cancellation stress")
struct CancellationStressTests {
    /// How long the waves run (two waves run even when they take longer).
    static let duration: Duration = .seconds(6)

    @Test("Random cancellation keeps the invariant, the writer and the observation", .timeLimit(.minutes(3)))
    func randomCancellation() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        try await dbPool.write { db in
            // Invariant: the amounts sum to zero, and come in pairs.
            try db.execute(sql: "CREATE TABLE ledger(id INTEGER PRIMARY KEY, amount INTEGER NOT NULL)")
        }

        let observed = ObservedValues<Int>()
        let cancellable = observeRowCount(of: "ledger", in: dbPool, recordingIn: observed)
        defer { cancellable.cancel() }

        let violations = Counter()
        let readerErrors = LockedBox<[String]>([])
        let stop = LockedBox(false)
        // Dedicated threads: on Linux, busy loops on global dispatch queues
        // would starve the tasks of Swift concurrency, which share them.
        let readers = DispatchGroup()
        for _ in 0..<8 {
            readers.enter()
            Thread.detachNewThread {
                defer { readers.leave() }
                while !(stop.withLock { $0 }) {
                    do {
                        let valid = try dbPool.read(Self.invariantHolds)
                        if !valid { violations.increment() }
                    } catch {
                        readerErrors.withLock { $0.append("\(error)") }
                    }
                }
            }
        }

        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.duration)
        var waves = 0
        var outcomes = Outcomes()
        // At least two waves, whatever the load: the second runs on the
        // connections that the cancellations of the first left behind. A
        // wave can outlast the whole duration when the rest of the suite
        // runs beside this test (13 s once in CI).
        while waves < 2 || clock.now < deadline {
            waves += 1
            outcomes.merge(await Self.wave(dbPool, violations: violations))
        }

        stop.withLock { $0 = true }
        await withCheckedContinuation { continuation in
            readers.notify(queue: .global()) { continuation.resume() }
        }

        #expect(violations.value == 0)
        #expect(readerErrors.withLock { $0 }.isEmpty)
        #expect(outcomes.unexpected.isEmpty, "\(outcomes.unexpected.prefix(5))")
        #expect(outcomes.cancelled > 0)
        #expect(outcomes.succeeded > 0)

        // Every write issued after the stress succeeds, and the observation sees it.
        for amount in 1...50 {
            try await Self.writePair(dbPool, amount: amount)
        }
        try await dbPool.write { db in
            try db.execute(sql: "INSERT INTO ledger(amount) VALUES (7), (-7)")
        }
        let finalCount = try await dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ledger")! }
        #expect(try await dbPool.read(Self.invariantHolds))
        #expect(await observed.wait { $0.last == finalCount })
        #expect(observed.errors.isEmpty)
    }

    /// What the tasks of the waves ended with.
    struct Outcomes {
        var succeeded = 0
        var cancelled = 0
        var unexpected: [String] = []

        mutating func merge(_ other: Outcomes) {
            succeeded += other.succeeded
            cancelled += other.cancelled
            unexpected += other.unexpected
        }
    }

    /// Runs 200 async reads and writes, and cancels about half of them at random moments.
    static func wave(_ dbPool: DatabasePool, violations: Counter) async -> Outcomes {
        var tasks: [Task<Void, any Error>] = []
        for _ in 0..<200 {
            let amount = Int.random(in: 1...1000)
            switch Int.random(in: 0..<4) {
            case 0:
                tasks.append(Task { try await writePair(dbPool, amount: amount) })
            case 1:
                tasks.append(
                    Task {
                        // A longer write: many pairs in one transaction.
                        try await dbPool.write { db in
                            for i in 0..<50 {
                                try db.execute(
                                    sql: "INSERT INTO ledger(amount) VALUES (?), (?)",
                                    arguments: [amount + i, -amount - i])
                            }
                        }
                    })
            case 2:
                tasks.append(
                    Task {
                        if try await !dbPool.read(invariantHolds) { violations.increment() }
                    })
            default:
                tasks.append(
                    Task {
                        _ = try await dbPool.read { db in
                            try Int.fetchOne(
                                db,
                                sql: """
                                    SELECT SUM(a.amount * b.amount)
                                    FROM (SELECT amount FROM ledger LIMIT 1000) a, (SELECT amount FROM ledger LIMIT 100) b
                                    """)
                        }
                    })
            }
        }
        for task in tasks {
            switch Int.random(in: 0..<6) {
            case 0: task.cancel()
            case 1:
                await Task.yield()
                task.cancel()
            case 2:
                try? await Task.sleep(for: .microseconds(Int.random(in: 0...500)))
                task.cancel()
            default: break
            }
        }
        var outcomes = Outcomes()
        for task in tasks {
            switch await task.result {
            case .success: outcomes.succeeded += 1
            case .failure(let error as CancellationError):
                _ = error
                outcomes.cancelled += 1
            case .failure(let error):
                outcomes.unexpected.append("\(error)")
            }
        }
        return outcomes
    }

    /// Inserts an amount and its opposite, in one transaction.
    static func writePair(_ dbPool: DatabasePool, amount: Int) async throws {
        try await dbPool.write { db in
            try db.execute(sql: "INSERT INTO ledger(amount) VALUES (?)", arguments: [amount])
            try db.execute(sql: "INSERT INTO ledger(amount) VALUES (?)", arguments: [-amount])
        }
    }

    /// Whether the ledger sums to zero with an even number of rows.
    @Sendable static func invariantHolds(_ db: Database) throws -> Bool {
        let row = try Row.fetchOne(db, sql: "SELECT COALESCE(SUM(amount), 0) AS total, COUNT(*) AS count FROM ledger")!
        let total: Int = row["total"]
        let count: Int = row["count"]
        return total == 0 && count % 2 == 0
    }
}
