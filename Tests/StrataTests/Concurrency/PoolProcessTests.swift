import Foundation
import Strata
import StrataTestSupport
import Testing

/// Programmer errors of pools, and pools shared by several processes.
struct PoolProcessTests {
    @Test("Accesses that a pool forbids stop the process", arguments: FatalPoolAccess.allCases)
    func fatalAccess(_ access: FatalPoolAccess) async throws {
        try await TemporaryDirectory.withDatabasePath { path in
            await #expect(processExitsWith: .failure) { [access, path = path as String] in
                let dbPool = try DatabasePool(path: path)
                try access.run(in: dbPool)
            }
        }
    }

    /// Two processes write in one WAL database at the same time, with busy
    /// timeouts and immediate transactions (the DatabaseSharing setup).
    @Test(.timeLimit(.minutes(1)))
    func twoProcessesShareOneDatabase() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("shared.sqlite")
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try await dbPool.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, origin TEXT)")
        }
        let parentWrites = Task.detached {
            for _ in 0..<200 {
                try await dbPool.write { db in
                    try db.execute(sql: "INSERT INTO item (origin) VALUES ('parent')")
                }
            }
        }
        await #expect(processExitsWith: .success) { [path = path as String] in
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            let dbPool = try DatabasePool(path: path, configuration: configuration)
            for _ in 0..<200 {
                try dbPool.write { db in
                    try db.execute(sql: "INSERT INTO item (origin) VALUES ('child')")
                }
                // Reads see a consistent state, whatever the other process does.
                _ = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
            }
            let count = try dbPool.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item WHERE origin = 'child'")
            }
            if count != 200 { exit(1) }
        }
        try await parentWrites.value
        let counts = try await dbPool.read { db in
            try Row.fetchAll(db, sql: "SELECT origin, COUNT(*) AS n FROM item GROUP BY origin ORDER BY origin")
                .map { row -> String in
                    let origin: String = row["origin"]
                    let n: Int = row["n"]
                    return "\(origin):\(n)"
                }
        }
        #expect(counts == ["child:200", "parent:200"])
    }

    /// Without busy timeout, a write transaction that meets another process's
    /// lock fails with SQLITE_BUSY.
    @Test(.timeLimit(.minutes(1)))
    func otherProcessLockGivesBusy() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("shared.sqlite")
        let dbPool = try DatabasePool(path: path)
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)") }
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let locker = try DatabaseQueue(path: path, configuration: configuration)
        try await locker.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        await #expect(processExitsWith: .success) { [path = path as String] in
            let dbPool = try DatabasePool(path: path)
            do {
                try dbPool.write { db in try db.execute(sql: "INSERT INTO item DEFAULT VALUES") }
                exit(1)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                // Reads still work in WAL mode.
                let count = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
                exit(count == 0 ? 0 : 1)
            }
        }
        try await locker.writeWithoutTransaction { db in try db.rollback() }
    }
}

/// The programmer errors of a pool: each one stops the process.
enum FatalPoolAccess: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case readInsideRead, writeInsideRead, readInsideWrite
    case asyncConcurrentReadOutsideOfTheWriter, asyncConcurrentReadInsideATransaction

    var description: String { rawValue }

    /// Makes the error in `dbPool`.
    func run(in dbPool: DatabasePool) throws {
        switch self {
        case .readInsideRead:
            try dbPool.read { _ in
                try dbPool.read { _ in }
            }
        case .writeInsideRead:
            try dbPool.read { _ in
                try dbPool.write { _ in }
            }
        case .readInsideWrite:
            try dbPool.write { _ in
                try dbPool.read { _ in }
            }
        case .asyncConcurrentReadOutsideOfTheWriter:
            dbPool.asyncConcurrentRead { _ in }
        case .asyncConcurrentReadInsideATransaction:
            try dbPool.write { _ in
                dbPool.asyncConcurrentRead { _ in }
            }
        }
    }
}
