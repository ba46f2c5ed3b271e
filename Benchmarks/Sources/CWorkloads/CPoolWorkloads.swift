import StrataSQLite
import WorkloadSupport

/// The C baseline of the pool workload: connections on one WAL file, one
/// per thread (a writer and, by default, two readers), as a `DatabasePool`
/// has.
public final class CPoolWorkloads: @unchecked Sendable {
    let writer: CConnection
    let readers: [CConnection]

    /// Opens the writer on a new file at `path`, switches it to WAL, runs
    /// `setupSQL` (see `Fixture.poolSetup`: tables `t` and `batch`), then
    /// opens `readerCount` readers.
    public init(path: String, setupSQL: [String], threading: CThreading, readerCount: Int = 2) throws {
        writer = try CConnection(path: path, threading: threading)
        try writer.execute("PRAGMA journal_mode = WAL")
        try writer.execute("PRAGMA synchronous = NORMAL")
        sqlite3_busy_timeout(writer.handle, 10_000)
        for sql in setupSQL { try writer.execute(sql) }
        readers = try (0..<readerCount).map { _ in
            let reader = try CConnection(path: path, threading: threading)
            sqlite3_busy_timeout(reader.handle, 10_000)
            return reader
        }
    }

    /// One thread per reader connection scans table `t` `scans` times while
    /// a writer inserts batches of 100 rows until they are done (or exactly
    /// `batches` batches, when given). Returns the rows read and the
    /// batches written.
    ///
    /// Each reader steps one prepared `SELECT` (its own read transaction).
    /// The writer prepares, binds, steps and finalizes an `INSERT` 100 times
    /// between `BEGIN IMMEDIATE` and `COMMIT`, as Strata and GRDB's
    /// `execute(sql:arguments:)` do (they don't cache the statement).
    public func readersDuringWrites(scans: Int, batches: Int? = nil) throws -> (rows: Int, batches: Int) {
        let readers = self.readers
        let selects = try readers.map { try $0.prepare("SELECT i0, i1 FROM t") }
        let writer = self.writer
        let begin = try writer.prepare("BEGIN IMMEDIATE")
        let commit = try writer.prepare("COMMIT")
        defer {
            for stmt in selects + [begin, commit] { sqlite3_finalize(stmt) }
        }
        let statements = UncheckedStatements(selects: selects, begin: begin, commit: commit)
        return try WorkloadSupport.readersDuringWrites(readers: readers.count, scans: scans, batches: batches) {
            reader in
            let stmt = statements.selects[reader]
            defer { sqlite3_reset(stmt) }
            var count = 0
            while true {
                let code = sqlite3_step(stmt)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else { try readers[reader].check(code); break }
                count += sqlite3_column_int64(stmt, 0) >= 0 ? 1 : 0
            }
            return count
        } writeBatch: {
            try writer.stepOnce(statements.begin)
            for i in 0..<100 {
                let insert = try writer.prepare("INSERT INTO batch VALUES (?, ?)")
                defer { sqlite3_finalize(insert) }
                sqlite3_bind_int64(insert, 1, Int64(i))
                sqlite3_bind_text(insert, 2, xText, 1, nil)
                try writer.stepOnce(insert)
            }
            try writer.stepOnce(statements.commit)
        }
    }
}

/// The text the writer binds: static, so SQLite needs no copy (`SQLITE_STATIC`).
private var xText: UnsafePointer<CChar> {
    UnsafeRawPointer(("x" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
}

/// The prepared statements of the pool workload. Each is only used by one
/// thread at a time.
private struct UncheckedStatements: @unchecked Sendable {
    var selects: [OpaquePointer]
    var begin: OpaquePointer
    var commit: OpaquePointer
}

extension CConnection {
    /// Steps a statement that returns no row, then resets it.
    func stepOnce(_ stmt: OpaquePointer) throws {
        let code = sqlite3_step(stmt)
        sqlite3_reset(stmt)
        if code != SQLITE_DONE { try check(code) }
    }
}
