import Foundation
import StrataSQLite
import WorkloadSupport

/// The C baseline of the size curve: point queries on a `SizeFixture` file,
/// each one step of a prepared statement in autocommit mode (its own read
/// transaction), the payload copied out as the libraries' `Data` is.
public final class CPointQueries: @unchecked Sendable {
    let connection: CConnection
    let byID: OpaquePointer
    let byKey: OpaquePointer

    /// Opens the file at `path` with `PRAGMA mmap_size = mmapSize` (0: no
    /// memory map) and prepares the two queries.
    public init(path: String, mmapSize: Int, threading: CThreading) throws {
        connection = try CConnection(path: path, threading: threading)
        try connection.execute("PRAGMA mmap_size = \(mmapSize)")
        byID = try connection.prepare(SizeFixture.primaryKeySQL)
        byKey = try connection.prepare(SizeFixture.secondaryKeySQL)
    }

    deinit {
        sqlite3_finalize(byID)
        sqlite3_finalize(byKey)
    }

    /// The row with this primary key; returns its id plus its payload's size.
    public func fetch(id: Int) throws -> Int { try fetch(byID, id) }

    /// The row with this secondary key; returns its id plus its payload's size.
    public func fetch(key: Int) throws -> Int { try fetch(byKey, key) }

    private func fetch(_ stmt: OpaquePointer, _ argument: Int) throws -> Int {
        sqlite3_bind_int64(stmt, 1, Int64(argument))
        defer { sqlite3_reset(stmt) }
        let code = sqlite3_step(stmt)
        guard code == SQLITE_ROW else {
            try connection.check(code)
            return 0
        }
        let id = Int(sqlite3_column_int64(stmt, 0))
        let count = Int(sqlite3_column_bytes(stmt, 3))
        guard let bytes = sqlite3_column_blob(stmt, 3) else { return id }
        return id + Data(bytes: bytes, count: count).count
    }
}
