import Foundation
import StrataSQLite

// What every entry point of the Sessions layer shares: the checks that the
// session extension is there, and the buffers SQLite returns.

/// The checks and buffers of the session extension, looked up at run time.
enum SessionExtension {
    /// Throws unless the session extension is available to this connection:
    /// the linked SQLite was compiled with it (as the connection believes:
    /// tests may lower it) and its functions are found.
    static func require(_ db: Database) throws {
        try db.requireSQLiteFeature(.sessionExtension)
        try requireSymbols()
    }

    /// Throws unless the linked SQLite has the session extension, for the
    /// entry points that have no connection at hand (``Changeset/init(data:)``).
    static func requireLinked() throws {
        if case .unavailable(let reason) = SQLiteFeature.sessionExtension.availability(in: SQLiteLibrary.facts) {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "\(SQLiteFeature.sessionExtension) is not available: it \(reason)")
        }
        try requireSymbols()
    }

    private static func requireSymbols() throws {
        if _strata_session_available() == 0 {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "\(SQLiteFeature.sessionExtension) is not available: the linked SQLite does not export "
                    + "sqlite3session_create and sqlite3changeset_apply")
        }
    }

    /// Why changesets can't be rebased on this connection, or nil when they
    /// can: rebasing needs SQLite 3.25.0 and `sqlite3rebaser_*`.
    static func rebaseUnavailability(_ db: Database) -> String? {
        let facts = db.sqliteFeatureCache.facts
        if facts.versionNumber < 3_025_000 {
            return "changeset rebasing is not available: it requires SQLite 3.25.0 or newer; the linked SQLite is "
                + facts.version
        }
        if _strata_rebaser_available() == 0 {
            return "changeset rebasing is not available: the linked SQLite does not export sqlite3rebaser_create"
        }
        return nil
    }

    /// The bytes of a buffer that SQLite allocated, which it frees.
    static func takeBuffer(_ buffer: UnsafeMutableRawPointer?, size: CInt) -> Data {
        guard let buffer else { return Data() }
        defer { sqlite3_free(buffer) }
        return Data(bytes: buffer, count: Int(size))
    }

    /// Throws a ``DatabaseError`` for a result code of the session extension.
    static func check(_ code: CInt, _ message: @autoclosure () -> String) throws {
        if code != SQLITE_OK {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message())
        }
    }

    /// Runs `body` with a copy of `data` that SQLite may read (and, for the
    /// functions whose signature says so, not write) for the call.
    static func withBuffer<T>(
        _ data: Data, _ body: (CInt, UnsafeMutableRawPointer?) throws -> T
    ) throws -> T {
        guard data.count <= Int(CInt.max) else {
            throw DatabaseError(resultCode: .SQLITE_TOOBIG, message: "changeset too large: \(data.count) bytes")
        }
        var copy = data
        return try copy.withUnsafeMutableBytes { bytes in
            try body(CInt(bytes.count), bytes.count == 0 ? nil : bytes.baseAddress)
        }
    }
}
