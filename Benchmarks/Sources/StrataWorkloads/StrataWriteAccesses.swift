import Foundation
import Strata
import WorkloadSupport

// The write-access workload (issue 46). GRDBWorkloads holds the same code
// compiled against GRDB 7.

/// The example server's author: a `Codable` record whose id the insert sets.
struct WriteAuthor: Codable, MutablePersistableRecord {
    static let databaseTableName = "author"
    var id: Int64?
    var name: String
    var country: String?

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// One-row write transactions on a pool on a file, as the `POST /authors`
/// route of Examples/StrataServer runs them: each inserts one `Codable`
/// record in `dbPool.write { }`.
public final class StrataWriteAccesses: @unchecked Sendable {
    let dbPool: DatabasePool

    /// Opens a pool on a new file at `path`, configured as the example
    /// server's (a busy timeout, `synchronous = NORMAL`, SQLite's automatic
    /// checkpoints), with an empty `author` table. `statementStatistics`:
    /// whether Strata's statement statistics are on (their cost).
    public init(path: String, statementStatistics: Bool = false) throws {
        var configuration = Configuration()
        if statementStatistics { configuration.statementStatistics = StatementStatisticsCollector() }
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in
            for sql in Fixture.authorSetup { try db.execute(sql: sql) }
        }
    }

    /// The writer's journal mode, `synchronous` and automatic checkpoint
    /// threshold, to check that C, Strata and GRDB write alike.
    public func settings() throws -> String {
        try Self.settings(of: dbPool)
    }

    /// The settings of a pool opened on a new file at `path` with the
    /// default configuration: what the library chooses by itself.
    public static func defaultSettings(path: String) throws -> String {
        try settings(of: DatabasePool(path: path))
    }

    static func settings(of dbPool: DatabasePool) throws -> String {
        try dbPool.writeWithoutTransaction { db in
            let journalMode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?"
            let synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
            let autocheckpoint = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? -1
            return "journal_mode=\(journalMode) synchronous=\(synchronous) wal_autocheckpoint=\(autocheckpoint)"
        }
    }

    /// Empties the table and the WAL, so that each run starts alike.
    public func reset() throws {
        try dbPool.write { db in try db.execute(sql: "DELETE FROM author") }
        try dbPool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Inserts one author in a write transaction; returns its id.
    @inline(__always)
    func write(_ index: Int) throws -> Int64 {
        let (name, country) = Fixture.author(index)
        return try dbPool.write { db in
            var author = WriteAuthor(id: nil, name: name, country: country)
            try author.insert(db)
            return author.id!
        }
    }

    /// `count` write accesses, each `dbPool.write { }` from synchronous
    /// code, shared by `threads` threads (one: the caller's). Returns `count`.
    public func syncWrites(count: Int, threads: Int) throws -> Int {
        try runOnThreads(threads, count: count) { index in _ = try self.write(index) }
        return count
    }

    /// `count` write accesses, each `try await dbPool.write { }`, shared
    /// by `tasks` concurrent tasks. Returns `count`.
    public func asyncWrites(count: Int, tasks: Int) async throws -> Int {
        let dbPool = self.dbPool
        try await runInTasks(tasks, count: count) { index in
            let (name, country) = Fixture.author(index)
            _ = try await dbPool.write { db in
                var author = WriteAuthor(id: nil, name: name, country: country)
                try author.insert(db)
                return author.id!
            }
        }
        return count
    }
}
