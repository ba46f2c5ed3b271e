// One suite, one file: the storage health report and its monitor share
// one fixture (a pool whose monitor records its warnings, and a WAL grown
// on purpose), and each warning is tested beside the report field it reads.

import Dispatch
import Foundation
import Strata
import StrataTestSupport
import Testing

/// The storage health report and monitor (issue 32, part 3): the report's
/// fields, the warnings about the WAL size and long reads, each once per
/// episode, and the recipe that keeps a busy pool's WAL bounded.
@Suite("Storage health")
struct StorageHealthTests {
    /// A pool whose monitor records its warnings, with a table `t` of blobs.
    private func monitoredPool(
        _ directory: TemporaryDirectory, walSizeLimit: Int64? = nil, readTransactionThreshold: TimeInterval? = nil,
        automaticCheckpoints: Bool = true
    ) throws -> (DatabasePool, Waitable<[StorageHealthWarning]>) {
        let warnings = Waitable<[StorageHealthWarning]>([])
        var configuration = Configuration()
        configuration.automaticCheckpoints = automaticCheckpoints
        configuration.storageHealthMonitor = StorageHealthMonitor(
            walSizeLimit: walSizeLimit, readTransactionThreshold: readTransactionThreshold
        ) { warning in warnings.update { $0.append(warning) } }
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB)") }
        return (dbPool, warnings)
    }

    /// Inserts `count` rows of about one page each, in one transaction.
    private func insertPages(_ dbPool: DatabasePool, count: Int) throws {
        try dbPool.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
                    INSERT INTO t (data) SELECT randomblob(3000) FROM n
                    """, arguments: [count])
        }
    }

    /// A snapshot made under `label`: a read transaction that stays open
    /// until it is closed.
    private func longRead(_ dbPool: DatabasePool, label: String?) throws -> DatabaseSnapshot {
        try StorageHealthMonitor.$accessLabel.withValue(label) { try dbPool.makeSnapshot() }
    }

    // MARK: - The report (item 1)

    @Test("the report gives the page size, the page count and the size of the database")
    func pages() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, _) = try monitoredPool(directory)
        try insertPages(dbPool, count: 20)
        let health = try dbPool.storageHealth()
        let (pageSize, pageCount) = try dbPool.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA page_size")!, try Int.fetchOne(db, sql: "PRAGMA page_count")!)
        }
        #expect(health.pageSize == pageSize)
        #expect(health.pageSize == 4096)
        #expect(health.pageCount == pageCount)
        #expect(health.pageCount > 20)
        #expect(health.databaseSize == Int64(pageCount * pageSize))
        #expect(health.isMonitored)
        #expect(health.journalMode == "wal")
    }

    @Test("the report counts the free pages that a deletion leaves")
    func freePages() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, _) = try monitoredPool(directory)
        try insertPages(dbPool, count: 20)
        #expect(try dbPool.storageHealth().freePageCount == 0)
        try dbPool.write { db in try db.execute(sql: "DELETE FROM t") }
        #expect(try dbPool.storageHealth().freePageCount >= 20)
    }

    @Test("the report gives the journal size limit of the connections")
    func journalSizeLimit() throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.storageHealthMonitor = StorageHealthMonitor()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_size_limit = 1048576") }
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
        #expect(try dbPool.storageHealth().journalSizeLimit == 1_048_576)
        let plain = try DatabasePool(path: directory.path("plain.sqlite"))
        #expect(try plain.storageHealth().journalSizeLimit == -1)
    }

    @Test("the report gives the frames of the WAL in use and their bytes, not only the size of the file")
    func walFrames() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, _) = try monitoredPool(directory)
        try insertPages(dbPool, count: 50)
        let grown = try dbPool.storageHealth()
        let frames = try #require(grown.walFrameCount)
        #expect(frames > 50)
        #expect(grown.walSize == 32 + Int64(frames) * (4096 + 24))
        #expect(grown.walFileSize == grown.walSize)

        // A complete checkpoint lets the next commit write the WAL from its
        // start: the file keeps its size, the frames in use are few.
        let result = try dbPool.walCheckpoint(.restart)
        #expect(result.isComplete)
        #expect(try dbPool.storageHealth().walFrameCount == 0)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t (data) VALUES (x'00')") }
        let reused = try dbPool.storageHealth()
        #expect(try #require(reused.walFrameCount) < 5)
        #expect(reused.walFileSize == grown.walFileSize)
    }

    @Test("without a monitor, the report gives the file's figures, and no WAL frames nor readers")
    func unmonitored() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePlayerPool(directory)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        let snapshot = try dbPool.makeSnapshot()
        let health = try dbPool.storageHealth()
        #expect(!health.isMonitored)
        #expect(health.walFrameCount == nil)
        #expect(health.walFileSize > 0)
        #expect(health.readTransactions.isEmpty)
        #expect(health.lastCheckpoint == nil)
        #expect(health.pageCount > 0)
        try snapshot.close()
    }

    @Test("the report gives the last checkpoint of Strata's methods: its mode, its frames, and whether it was blocked")
    func lastCheckpoint() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, _) = try monitoredPool(directory)
        try insertPages(dbPool, count: 10)
        _ = try dbPool.walCheckpoint(.passive)
        let complete = try #require(try dbPool.storageHealth().lastCheckpoint)
        #expect(complete.mode == .passive)
        #expect(!complete.isAutomatic)
        #expect(!complete.isBlocked)
        #expect(complete.walFrameCount > 10)
        #expect(complete.checkpointedFrameCount == complete.walFrameCount)

        // A reader that started before the last commits: the checkpoint
        // cannot copy them.
        let snapshot = try longRead(dbPool, label: nil)
        try insertPages(dbPool, count: 10)
        _ = try dbPool.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        let blocked = try #require(try dbPool.storageHealth().lastCheckpoint)
        #expect(blocked.mode == .passive)
        #expect(blocked.isBlocked)
        #expect(blocked.checkpointedFrameCount < blocked.walFrameCount)
        try snapshot.close()
    }

    @Test("the report sees SQLite's automatic checkpoints, which still run under the monitor")
    func automaticCheckpoint() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, _) = try monitoredPool(directory)
        #expect(try dbPool.storageHealth().lastCheckpoint == nil)
        try insertPages(dbPool, count: 1100)
        let checkpoint = try #require(try dbPool.storageHealth().lastCheckpoint)
        #expect(checkpoint.isAutomatic)
        #expect(checkpoint.walFrameCount >= 1000)
        #expect(!checkpoint.isBlocked)
        // The next commit restarts the WAL: it stays bounded.
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t (data) VALUES (x'00')") }
        #expect(try #require(try dbPool.storageHealth().walFrameCount) < 5)
    }

    @Test("the report gives the oldest read transaction, its age and its holder's label")
    func oldestReadTransaction() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, _) = try monitoredPool(directory)
        #expect(try dbPool.storageHealth().readTransactions.isEmpty)
        let older = try longRead(dbPool, label: "nightly export")
        let newer = try longRead(dbPool, label: nil)
        let first = try dbPool.storageHealth()
        #expect(first.readTransactions.count == 2)
        let oldest = try #require(first.oldestReadTransaction)
        #expect(oldest.label == "nightly export")
        #expect(oldest.connection.contains("snapshot") || oldest.connection.contains("GRDB.DatabasePool"))
        #expect(oldest.holder.hasPrefix("nightly export ("))
        #expect(first.readTransactions[1].label == nil)
        #expect(first.readTransactions[1].holder == first.readTransactions[1].connection)
        #expect(oldest.age >= first.readTransactions[1].age)
        let second = try #require(try dbPool.storageHealth().oldestReadTransaction)
        #expect(second.age >= oldest.age)

        try older.close()
        #expect(try dbPool.storageHealth().oldestReadTransaction?.label == nil)
        try newer.close()
        #expect(try dbPool.storageHealth().readTransactions.isEmpty)
    }

    @Test("a read access of the pool is listed while it runs, under its label, and not after")
    func readAccessIsListed() async throws {
        let directory = try TemporaryDirectory()
        let (dbPool, _) = try monitoredPool(directory)
        let started = Waitable(false)
        let release = DispatchSemaphore(value: 0)
        let ended = Waitable(false)
        DispatchQueue.global().async {
            StorageHealthMonitor.$accessLabel.withValue("report builder") {
                _ = try? dbPool.read { db in
                    _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
                    started.update { $0 = true }
                    _ = release.wait(timeout: .now() + 30)
                }
            }
            ended.update { $0 = true }
        }
        try await started.wait("the read runs") { $0 }
        let health = try dbPool.storageHealth()
        #expect(health.readTransactions.map(\.label) == ["report builder"])
        #expect(try #require(health.oldestReadTransaction).connection.contains(".reader."))
        release.signal()
        try await ended.wait("the read ends") { $0 }
        #expect(try dbPool.storageHealth().readTransactions.isEmpty)
    }

    @Test("a queue's report gives its pages, and its WAL in the WAL mode, with no read transactions")
    func queue() throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.storageHealthMonitor = StorageHealthMonitor()
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"), configuration: configuration)
        try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (data BLOB)")
            try db.execute(sql: "INSERT INTO t VALUES (randomblob(10000))")
        }
        let health = try dbQueue.storageHealth()
        #expect(health.journalMode == "wal")
        #expect(try #require(health.walFrameCount) > 3)
        #expect(health.readTransactions.isEmpty)
        #expect(health.pageCount > 3)

        let inMemory = try DatabaseQueue(configuration: configuration)
        let memoryHealth = try inMemory.storageHealth()
        #expect(memoryHealth.journalMode == "memory")
        #expect(memoryHealth.walFrameCount == 0)
        #expect(memoryHealth.walFileSize == 0)
    }

    @Test("the report works while a writer and readers are busy")
    func reportUnderLoad() async throws {
        let directory = try TemporaryDirectory()
        let (dbPool, _) = try monitoredPool(directory, readTransactionThreshold: 3600)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<200 {
                    try await dbPool.write { db in try db.execute(sql: "INSERT INTO t (data) VALUES (randomblob(500))")
                    }
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<100 {
                        _ = try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
                    }
                }
            }
            group.addTask {
                for _ in 0..<50 {
                    let health = try dbPool.storageHealth()
                    #expect(health.pageCount > 0)
                    #expect(health.walFrameCount != nil)
                    #expect(health.readTransactions.count <= 3)
                }
            }
            try await group.waitForAll()
        }
        let final = try dbPool.storageHealth()
        #expect(final.readTransactions.isEmpty)
        let count = try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        #expect(count == 200)
    }

    @Test("the monitor replaces SQLite's automatic checkpoint only when it is set")
    func hookOnlyWhenOn() throws {
        let directory = try TemporaryDirectory()
        let plain = try DatabasePool(path: directory.path("plain.sqlite"))
        #expect(try plain.write { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") } == 1000)
        let (monitored, _) = try monitoredPool(directory)
        // SQLite reads 0 when its own hook is not in place.
        #expect(try monitored.write { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") } == 0)
    }

    @Test("without automatic checkpoints, the monitor runs none")
    func noAutomaticCheckpoint() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, _) = try monitoredPool(directory, automaticCheckpoints: false)
        try insertPages(dbPool, count: 1100)
        let health = try dbPool.storageHealth()
        #expect(health.lastCheckpoint == nil)
        #expect(try #require(health.walFrameCount) > 1100)
    }

    // MARK: - Warnings (item 2)

    @Test("the WAL size warning fires once while the WAL stays above the limit")
    func walSizeWarningOnce() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, warnings) = try monitoredPool(directory, walSizeLimit: 100_000, automaticCheckpoints: false)
        try insertPages(dbPool, count: 10)
        #expect(warnings.value.isEmpty)
        for _ in 0..<5 { try insertPages(dbPool, count: 10) }
        let walSize = try #require(try dbPool.storageHealth().walSize)
        #expect(walSize > 100_000)
        #expect(warnings.value.count == 1)
        guard case .walSizeLimitExceeded(let size, let limit) = try #require(warnings.value.first) else {
            Issue.record("unexpected warning \(warnings.value)")
            return
        }
        #expect(limit == 100_000)
        #expect(size > 100_000)
        #expect(warnings.value[0].description.contains("above the limit of 100000 bytes"))
    }

    @Test("the WAL size warning fires again once the WAL went back under the limit and passed it again")
    func walSizeWarningAgain() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, warnings) = try monitoredPool(directory, walSizeLimit: 100_000, automaticCheckpoints: false)
        for _ in 0..<5 { try insertPages(dbPool, count: 10) }
        #expect(warnings.value.count == 1)
        #expect(try dbPool.walCheckpoint(.truncate).isComplete)
        try insertPages(dbPool, count: 1)
        #expect(warnings.value.count == 1)
        for _ in 0..<5 { try insertPages(dbPool, count: 10) }
        #expect(warnings.value.count == 2)
    }

    @Test("a read kept open while the WAL grows is reported once, with its holder")
    func longReadWarningOnce() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, warnings) = try monitoredPool(directory, readTransactionThreshold: 0)
        let snapshot = try longRead(dbPool, label: "nightly export")
        for _ in 0..<5 { try insertPages(dbPool, count: 2) }
        #expect(warnings.value.count == 1)
        guard case .longReadTransaction(let transaction, let walSize) = try #require(warnings.value.first) else {
            Issue.record("unexpected warning \(warnings.value)")
            return
        }
        #expect(transaction.label == "nightly export")
        #expect(walSize > 0)
        #expect(warnings.value[0].description.contains("by nightly export ("))
        try snapshot.close()
    }

    @Test("a read shorter than the threshold, or a WAL that does not grow, is not reported")
    func shortReadIsNotReported() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, warnings) = try monitoredPool(directory, readTransactionThreshold: 3600)
        let snapshot = try longRead(dbPool, label: "short")
        for _ in 0..<3 { try insertPages(dbPool, count: 2) }
        #expect(warnings.value.isEmpty)
        try snapshot.close()

        let otherDirectory = try TemporaryDirectory()
        let (other, otherWarnings) = try monitoredPool(otherDirectory, readTransactionThreshold: 0)
        let idle = try longRead(other, label: "idle")
        #expect(try other.storageHealth().readTransactions.count == 1)
        #expect(otherWarnings.value.isEmpty)
        try idle.close()
    }

    @Test("the long read warning fires again for the next long read, once the first has ended")
    func longReadWarningAgain() throws {
        let directory = try TemporaryDirectory()
        let (dbPool, warnings) = try monitoredPool(directory, readTransactionThreshold: 0)
        let first = try longRead(dbPool, label: "first")
        try insertPages(dbPool, count: 2)
        try insertPages(dbPool, count: 2)
        try first.close()
        try insertPages(dbPool, count: 2)
        #expect(warnings.value.count == 1)
        let second = try longRead(dbPool, label: "second")
        try insertPages(dbPool, count: 2)
        try insertPages(dbPool, count: 2)
        let labels = warnings.value.compactMap { warning -> String? in
            guard case .longReadTransaction(let transaction, _) = warning else { return nil }
            return transaction.label
        }
        #expect(labels == ["first", "second"])
        try second.close()
    }

    // MARK: - The recipe (item 3)

    @Test("the monitor, an access label, the report and a truncating checkpoint, end to end")
    func articleSample() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let printed = LockedBox<[String]>([])
        @Sendable func print(_ value: Any) { printed.append("\(value)") }

        // The same steps as the Diagnostics article:
        var config = Configuration()
        config.storageHealthMonitor = StorageHealthMonitor(
            walSizeLimit: 64 * 1024 * 1024,  // warn when the WAL passes 64 MB
            readTransactionThreshold: 30  // warn when a read stays open 30 s while the WAL grows
        ) { warning in
            print(warning)  // also logged as a warning with the Logging trait
        }
        let dbPool = try DatabasePool(path: path, configuration: config)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }

        // Name the accesses you want to recognize in warnings and reports:
        let players = try StorageHealthMonitor.$accessLabel.withValue("nightly export") {
            try dbPool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM player") }
        }

        let health = try dbPool.storageHealth()
        print(health)  // pages, WAL frames in use, last checkpoint, oldest read transaction

        // At a quiet moment, once long reads have ended: the WAL goes back to 0 bytes.
        let result = try dbPool.walCheckpoint(.truncate)
        if !result.isComplete {
            // A reader is still open: try again later.
        }
        // End of the steps.

        #expect(players.isEmpty)
        #expect(result.isComplete)
        #expect(try dbPool.storageHealth().walSize == 0)
        #expect(printed.value.count == 1)
        #expect(printed.value[0].hasPrefix("pages: 2 of 4096 bytes"))
    }

    @Test("a truncating checkpoint at a quiet moment brings a busy pool's WAL back to 0 bytes")
    func truncatingCheckpointRecipe() async throws {
        let directory = try TemporaryDirectory()
        let (dbPool, warnings) = try monitoredPool(
            directory, walSizeLimit: 1_000_000, readTransactionThreshold: 0)
        let reader = try longRead(dbPool, label: "long report")

        // A writer that writes until told to stop, while the reader keeps
        // the WAL from being checkpointed: the automatic checkpoints cannot
        // restart it, and it grows. It runs on a thread of its own, not on
        // the tasks' pool, which the other tests of a full run can keep busy.
        let stop = LockedBox(false)
        let writes = LockedBox(0)
        let writerError = LockedBox<(any Error)?>(nil)
        let writerDone = Waitable(false)
        DispatchQueue.global().async {
            do {
                while !stop.value && writes.value < 10_000 {
                    try dbPool.write { db in try db.execute(sql: "INSERT INTO t (data) VALUES (randomblob(3000))") }
                    writes.value += 1
                }
            } catch {
                writerError.value = error
            }
            writerDone.update { $0 = true }
        }
        try await warnings.wait("both warnings", timeout: .seconds(30)) { $0.count >= 2 }
        stop.value = true
        try await writerDone.wait("the writer stopped", timeout: .seconds(30)) { $0 }
        #expect(writerError.value == nil)
        #expect(writes.value > 0)

        let busy = try dbPool.storageHealth()
        #expect(try #require(busy.walSize) > 1_000_000)
        #expect(busy.oldestReadTransaction?.label == "long report")
        #expect(warnings.value.contains { if case .walSizeLimitExceeded = $0 { true } else { false } })
        #expect(warnings.value.contains { $0.description.contains("long report") })

        // The recipe: end the long read, then, at a quiet moment, truncate.
        try reader.close()
        let result = try dbPool.walCheckpoint(.truncate)
        #expect(result.isComplete)
        #expect(result.walSize == 0)

        let health = try dbPool.storageHealth()
        #expect(health.walFrameCount == 0)
        #expect(health.walSize == 0)
        #expect(health.walFileSize == 0)
        #expect(health.lastCheckpoint?.mode == .truncate)
        #expect(health.lastCheckpoint?.isBlocked == false)
        #expect(health.readTransactions.isEmpty)
    }
}
