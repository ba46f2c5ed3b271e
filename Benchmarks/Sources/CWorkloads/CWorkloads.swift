import Foundation
import StrataSQLite

/// Raw sqlite3 C API baselines. Every function here mirrors one Strata/GRDB
/// workload, with the minimum work a hand-written C loop would do.
public enum CWorkloadError: Error, CustomStringConvertible {
    case sqlite(code: Int32, message: String)
    public var description: String {
        switch self {
        case let .sqlite(code, message): "SQLite error \(code): \(message)"
        }
    }
}

/// The threading mode a C connection is opened in.
///
/// Strata opens its connections with `SQLITE_OPEN_NOMUTEX` (multi-thread
/// mode: each connection is only used by one queue at a time, so SQLite takes
/// no mutex per call). `serialized` is SQLite's default on most builds, and
/// what a naive C program gets: a mutex around every `sqlite3_*` call.
public enum CThreading: String, Sendable, CaseIterable {
    /// `SQLITE_OPEN_NOMUTEX`, as Strata opens its connections.
    case multiThread = "multi-thread"
    /// `SQLITE_OPEN_FULLMUTEX`, SQLite's default threading mode.
    case serialized

    var openFlag: Int32 {
        switch self {
        case .multiThread: SQLITE_OPEN_NOMUTEX
        case .serialized: SQLITE_OPEN_FULLMUTEX
        }
    }
}

public final class CConnection: @unchecked Sendable {
    public let handle: OpaquePointer

    /// Opens a database: by default a private in-memory one.
    public init(path: String = ":memory:", threading: CThreading) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | threading.openFlag
        _ = CConnection.memoryStatisticsAreOff
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            if let handle { sqlite3_close_v2(handle) }
            throw CWorkloadError.sqlite(code: code, message: "cannot open \(path)")
        }
        self.handle = handle
    }

    deinit { sqlite3_close_v2(handle) }

    /// The careful C program turns SQLite's memory statistics off, as
    /// Strata does (SQLite recommends SQLITE_DEFAULT_MEMSTATUS=0): each
    /// allocation then takes no process-wide lock. Before the first
    /// connection opens; without effect once SQLite is initialized.
    static let memoryStatisticsAreOff: Bool = {
        _ = _strata_config_memstatus(0)
        return true
    }()

    public func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        try check(code)
    }

    /// The integer in the first column of the first row of `sql`, or nil
    /// for no row or NULL.
    public func scalar(_ sql: String) throws -> Int? {
        let stmt = try prepare(sql)
        defer { sqlite3_finalize(stmt) }
        let code = sqlite3_step(stmt)
        try check(code)
        guard code == SQLITE_ROW, sqlite3_column_type(stmt, 0) != SQLITE_NULL else { return nil }
        return Int(sqlite3_column_int64(stmt, 0))
    }

    @inline(__always)
    func check(_ code: Int32) throws {
        if code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW {
            throw CWorkloadError.sqlite(code: code, message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var stmt: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, 0, &stmt, nil))
        return stmt!
    }
}

// MARK: - Reads

public final class CReads: @unchecked Sendable {
    let connection: CConnection

    public init(setupSQL: [String], threading: CThreading) throws {
        connection = try CConnection(threading: threading)
        for sql in setupSQL { try connection.execute(sql) }
    }

    /// Workload 1: step through all rows, read 10 columns by index.
    public func iterateRowsByIndex() throws -> Int {
        let stmt = try connection.prepare("SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM t")
        defer { sqlite3_finalize(stmt) }
        var sum = 0
        while true {
            let code = sqlite3_step(stmt)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { try connection.check(code); break }
            for i in 0..<10 {
                sum &+= Int(sqlite3_column_int64(stmt, Int32(i)))
            }
        }
        return sum
    }

    /// Workload 2: same, but column names are resolved to indexes once per statement.
    public func iterateRowsByName() throws -> Int {
        let stmt = try connection.prepare("SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM t")
        defer { sqlite3_finalize(stmt) }
        let names = ["i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9"]
        let count = sqlite3_column_count(stmt)
        var indexes: [Int32] = []
        indexes.reserveCapacity(names.count)
        for name in names {
            var found: Int32 = -1
            for c in 0..<count where String(cString: sqlite3_column_name(stmt, c)) == name {
                found = c
                break
            }
            indexes.append(found)
        }
        var sum = 0
        while true {
            let code = sqlite3_step(stmt)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { try connection.check(code); break }
            for index in indexes {
                sum &+= Int(sqlite3_column_int64(stmt, index))
            }
        }
        return sum
    }

    /// Workload 3: fetch one Int column into an array.
    public func fetchAllInts() throws -> [Int] {
        let stmt = try connection.prepare("SELECT i0 FROM t")
        defer { sqlite3_finalize(stmt) }
        var result: [Int] = []
        while true {
            let code = sqlite3_step(stmt)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { try connection.check(code); break }
            result.append(Int(sqlite3_column_int64(stmt, 0)))
        }
        return result
    }

    /// Issue 5 workload: the SQL of a filter+order+limit request, prepared and
    /// fetched 200 times, each row read into Swift values.
    public func queryInterfaceRequests() throws -> Int {
        var count = 0
        for _ in 0..<200 {
            let stmt = try connection.prepare(#"SELECT * FROM "player" WHERE "score" > ? ORDER BY "name" LIMIT 10"#)
            defer { sqlite3_finalize(stmt) }
            sqlite3_bind_int64(stmt, 1, 500)
            while sqlite3_step(stmt) == SQLITE_ROW {
                let id = sqlite3_column_int64(stmt, 0)
                let name = sqlite3_column_text(stmt, 1).map { String(cString: $0) } ?? ""
                let score = sqlite3_column_int64(stmt, 2)
                if id >= 0 && !name.isEmpty && score > 500 { count += 1 }
            }
        }
        return count
    }

    /// Workload 4: fetch "YYYY-MM-DD HH:MM:SS.SSS" text and parse it into Date.
    public func fetchAllDates() throws -> [Date] {
        let stmt = try connection.prepare("SELECT d FROM dates")
        defer { sqlite3_finalize(stmt) }
        var result: [Date] = []
        while true {
            let code = sqlite3_step(stmt)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { try connection.check(code); break }
            guard let text = sqlite3_column_text(stmt, 0) else { continue }
            let length = Int(sqlite3_column_bytes(stmt, 0))
            if let date = parseDate(UnsafeBufferPointer(start: text, count: length)) {
                result.append(date)
            }
        }
        return result
    }
}

/// Fixed-format UTC parser for "YYYY-MM-DD HH:MM:SS.SSS" (milliseconds optional).
@inline(__always)
func parseDate(_ s: UnsafeBufferPointer<UInt8>) -> Date? {
    guard s.count >= 19 else { return nil }
    @inline(__always) func digits(_ start: Int, _ count: Int) -> Int {
        var v = 0
        for i in start..<(start + count) { v = v * 10 + Int(s[i] &- 48) }
        return v
    }
    let year = digits(0, 4), month = digits(5, 2), day = digits(8, 2)
    let hour = digits(11, 2), minute = digits(14, 2), second = digits(17, 2)
    var millis = 0
    if s.count >= 23 && s[19] == UInt8(ascii: ".") { millis = digits(20, 3) }
    // Days from civil (Howard Hinnant's algorithm).
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    let days = era * 146097 + doe - 719468
    let seconds = Double(days * 86400 + hour * 3600 + minute * 60 + second) + Double(millis) / 1000
    return Date(timeIntervalSince1970: seconds)
}

// MARK: - Inserts

public final class CInserts: @unchecked Sendable {
    let connection: CConnection
    let recordsChanges: Bool

    /// - parameter recordsChanges: Whether `insertPositional` records a
    ///   changeset of table `t` with a session of the session extension
    ///   (the baseline of Strata's `-recording` workloads, issue 33).
    public init(setupSQL: [String], threading: CThreading, recordsChanges: Bool = false) throws {
        self.recordsChanges = recordsChanges
        connection = try CConnection(threading: threading)
        for sql in setupSQL { try connection.execute(sql) }
    }

    /// Empties the table (called outside of the measured region).
    public func reset() throws {
        try connection.execute("DELETE FROM t")
    }

    /// Workload 5: prepare once, bind_int64 x10, step, reset. With
    /// `recordsChanges`, a session records table `t`, and its changeset is
    /// built before the commit.
    public func insertPositional(rowCount: Int) throws {
        let stmt = try connection.prepare("INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?)")
        defer { sqlite3_finalize(stmt) }
        var session: UnsafeMutableRawPointer?
        if recordsChanges {
            try connection.check(_strata_session_create(connection.handle, "main", &session))
            try connection.check(_strata_session_attach(session, "t"))
        }
        defer { if let session { _strata_session_delete(session) } }
        try connection.execute("BEGIN")
        for row in 0..<rowCount {
            for column in 0..<10 {
                sqlite3_bind_int64(stmt, Int32(column + 1), Int64(row + column))
            }
            let code = sqlite3_step(stmt)
            guard code == SQLITE_DONE else { try connection.check(code); return }
            sqlite3_reset(stmt)
        }
        if let session {
            var size: Int32 = 0
            var buffer: UnsafeMutableRawPointer?
            try connection.check(_strata_session_changeset(session, &size, &buffer))
            precondition(size > 0)
            sqlite3_free(buffer)
        }
        try connection.execute("COMMIT")
    }

    /// Workload 6: named parameters, resolved to indexes once.
    public func insertNamed(rowCount: Int) throws {
        let stmt = try connection.prepare("INSERT INTO t VALUES (:a,:b,:c,:d,:e,:f,:g,:h,:i,:j)")
        defer { sqlite3_finalize(stmt) }
        let names = [":a", ":b", ":c", ":d", ":e", ":f", ":g", ":h", ":i", ":j"]
        let indexes = names.map { sqlite3_bind_parameter_index(stmt, $0) }
        try connection.execute("BEGIN")
        for row in 0..<rowCount {
            for (column, index) in indexes.enumerated() {
                sqlite3_bind_int64(stmt, index, Int64(row + column))
            }
            let code = sqlite3_step(stmt)
            guard code == SQLITE_DONE else { try connection.check(code); return }
            sqlite3_reset(stmt)
        }
        try connection.execute("COMMIT")
    }

    /// Workload 5 with the costs that a library with GRDB's API cannot
    /// avoid, whatever its code: the wall-clock floor of Strata's insert
    /// (issue 34 part 3). Per row, the caller's arguments are a heap block
    /// of `argumentBytes` (an array literal: 432 bytes for 10 positional
    /// values, 592 for 10 named ones), written, read and freed, and the
    /// values are unbound after the step (`sqlite3_clear_bindings`, GRDB's
    /// behaviour for statements of at most 20 parameters).
    public func insertPositionalWithAPICosts(rowCount: Int, argumentBytes: Int) throws {
        let stmt = try connection.prepare("INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?)")
        defer { sqlite3_finalize(stmt) }
        let stride = argumentBytes / 10 / MemoryLayout<Int64>.stride * MemoryLayout<Int64>.stride
        try connection.execute("BEGIN")
        for row in 0..<rowCount {
            guard let arguments = malloc(argumentBytes) else { throw CWorkloadError.sqlite(code: 0, message: "malloc") }
            for column in 0..<10 {
                arguments.storeBytes(of: Int64(row + column), toByteOffset: column * stride, as: Int64.self)
            }
            for column in 0..<10 {
                let value = arguments.load(fromByteOffset: column * stride, as: Int64.self)
                sqlite3_bind_int64(stmt, Int32(column + 1), value)
            }
            let code = sqlite3_step(stmt)
            guard code == SQLITE_DONE else {
                free(arguments)
                try connection.check(code)
                return
            }
            sqlite3_clear_bindings(stmt)
            sqlite3_reset(stmt)
            free(arguments)
        }
        try connection.execute("COMMIT")
    }

    /// `insertPositionalWithAPICosts`, with the caller's arguments in a
    /// Swift array (of the literal's size, with trivial elements), kept until
    /// the next row as a statement keeps its arguments, then released: what
    /// the Swift runtime costs any Swift implementation of GRDB's API per
    /// row (allocation, atomic release, deallocation), without any binding
    /// or bookkeeping of its own.
    public func insertPositionalWithSwiftAPICosts(rowCount: Int, argumentBytes: Int) throws {
        let keeper = SwiftArgumentsKeeper()
        let stmt = try connection.prepare("INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?)")
        defer { sqlite3_finalize(stmt) }
        precondition(argumentBytes == 32 + 10 * MemoryLayout<ArgumentSlot>.stride)
        try connection.execute("BEGIN")
        for row in 0..<rowCount {
            let v = Int64(row)
            let arguments: [ArgumentSlot] = [
                ArgumentSlot(v), ArgumentSlot(v + 1), ArgumentSlot(v + 2), ArgumentSlot(v + 3), ArgumentSlot(v + 4),
                ArgumentSlot(v + 5), ArgumentSlot(v + 6), ArgumentSlot(v + 7), ArgumentSlot(v + 8), ArgumentSlot(v + 9),
            ]
            keeper.bind(arguments, to: stmt)
            let code = sqlite3_step(stmt)
            guard code == SQLITE_DONE else {
                try connection.check(code)
                return
            }
            sqlite3_clear_bindings(stmt)
        }
        keeper.kept = []
        try connection.execute("COMMIT")
    }

    public func count() throws -> Int {
        let stmt = try connection.prepare("SELECT COUNT(*) FROM t")
        defer { sqlite3_finalize(stmt) }
        _ = sqlite3_step(stmt)
        return Int(sqlite3_column_int64(stmt, 0))
    }
}

/// Keeps the arguments of the last row, as a statement keeps its arguments
/// (`insertPositionalWithSwiftAPICosts`).
final class SwiftArgumentsKeeper: @unchecked Sendable {
    var kept: [ArgumentSlot] = []

    /// Resets the statement, binds the arguments, and keeps them, releasing
    /// the previous ones.
    @inline(never)
    func bind(_ arguments: consuming [ArgumentSlot], to stmt: OpaquePointer) {
        sqlite3_reset(stmt)
        arguments.withUnsafeBufferPointer { buffer in
            for column in 0..<10 {
                sqlite3_bind_int64(stmt, Int32(column + 1), buffer[column].value)
            }
        }
        kept = arguments
    }
}

/// A value of the caller's arguments, of the size of an element of an
/// array literal of `(any DatabaseValueConvertible)?` (40 bytes), with
/// nothing to destroy.
struct ArgumentSlot {
    var value: Int64
    var padding: (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
    init(_ value: Int64) { self.value = value }
}
