import Foundation
import StrataSQLite
import WorkloadSupport

/// The C baseline of the write-access workload (issue 46): one connection
/// in multi-thread mode on a WAL file with `synchronous = NORMAL`, as
/// Strata's and GRDB's pool writers; each write access runs `BEGIN
/// IMMEDIATE`, the insert that Strata and GRDB generate for the record
/// (prepared once) and `COMMIT`, under a mutex that serializes the threads
/// or tasks that share the connection.
public final class CWriteAccesses: @unchecked Sendable {
    let connection: CConnection
    private let begin: OpaquePointer
    private let insert: OpaquePointer
    private let commit: OpaquePointer
    private let rollback: OpaquePointer
    private let lock = NSLock()

    /// Opens a new file at `path`, in WAL mode, with an empty `author` table.
    /// Multi-thread mode is Strata's and GRDB's; `serialized` adds SQLite's
    /// mutex around each call.
    public init(path: String, threading: CThreading = .multiThread) throws {
        connection = try CConnection(path: path, threading: threading)
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        sqlite3_busy_timeout(connection.handle, 5_000)
        for sql in Fixture.authorSetup { try connection.execute(sql) }
        begin = try connection.prepare("BEGIN IMMEDIATE")
        insert = try connection.prepare(#"INSERT INTO "author" ("id", "name", "country") VALUES (?,?,?)"#)
        commit = try connection.prepare("COMMIT")
        rollback = try connection.prepare("ROLLBACK")
    }

    deinit {
        for stmt in [begin, insert, commit, rollback] { sqlite3_finalize(stmt) }
    }

    /// Empties the table and the WAL, so that each run starts alike.
    public func reset() throws {
        try connection.execute("DELETE FROM author")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Inserts one author in a transaction; returns its id.
    func write(_ index: Int) throws -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        try connection.stepOnce(begin)
        do {
            sqlite3_bind_null(insert, 1)
            sqlite3_bind_text(insert, 2, index & 1 == 0 ? arthur : barbara, -1, nil)
            sqlite3_bind_text(insert, 3, france, -1, nil)
            try connection.stepOnce(insert)
            let id = sqlite3_last_insert_rowid(connection.handle)
            try connection.stepOnce(commit)
            return id
        } catch {
            sqlite3_step(rollback)
            sqlite3_reset(rollback)
            throw error
        }
    }

    /// `count` write accesses shared by `threads` threads (one: the
    /// caller's). Returns `count`.
    public func syncWrites(count: Int, threads: Int) throws -> Int {
        try runOnThreads(threads, count: count) { index in _ = try self.write(index) }
        return count
    }

    /// `count` write accesses shared by `tasks` concurrent tasks, each
    /// access run in its task (the mutex blocks the task's thread while
    /// another holds it). Returns `count`.
    public func asyncWrites(count: Int, tasks: Int) async throws -> Int {
        try await runInTasks(tasks, count: count) { index in _ = try self.write(index) }
        return count
    }
}

/// The texts the insert binds: static, so SQLite needs no copy (`SQLITE_STATIC`).
private var arthur: UnsafePointer<CChar> {
    UnsafeRawPointer(("Arthur" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
}
private var barbara: UnsafePointer<CChar> {
    UnsafeRawPointer(("Barbara" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
}
private var france: UnsafePointer<CChar> {
    UnsafeRawPointer(("FR" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
}
