import Foundation
import StrataSQLite

/// Records the row changes of a connection, across as many accesses and
/// transactions as you like, until you stop it: a session of SQLite's
/// session extension.
///
/// Start it in a write access, take its changes in later ones, and stop it
/// before the database closes:
///
/// ```swift
/// let recorder = try dbQueue.write { db in try ChangesetRecorder(db, tables: ["player"]) }
/// try dbQueue.write { db in try db.execute(sql: "INSERT INTO player ...") }
/// try dbQueue.write { db in try db.execute(sql: "UPDATE player ...") }
/// let changeset = try dbQueue.write { db in try recorder.takeChangeset(db) }
/// try dbQueue.write { db in recorder.stop(db) }
/// ```
///
/// The recorder sees what the changed rows hold when you take its changes,
/// compared to what they held when it first saw them change: changes that
/// were rolled back, or undone, leave nothing. It only records tables that
/// have a primary key (an explicit `PRIMARY KEY`, not the hidden rowid), and
/// ignores rows whose primary key holds NULL. Without a list of tables, it
/// records every table of the main schema but SQLite's and Strata's own
/// (`sqlite_*`, `grdb_*`, such as the migrations table).
///
/// Use it only in accesses of the connection that started it (a queue, or
/// the writer of a pool). While a recording runs, SQLite's pre-update hook
/// belongs to the session extension: the transaction observers of the
/// connection hear of their changes, commits and rollbacks as usual, but of
/// no pre-update event (``TransactionObserver/databaseWillChange(with:)``).
/// Stop the recorder in an access of its connection: one that is released
/// unstopped stops on its own, on the connection's queue, once the access
/// that runs then (if any) has ended.
public final class ChangesetRecorder: @unchecked Sendable {
    /// The connection: kept alive, so that the session is deleted before
    /// the connection is closed by its deinitializer.
    private let database: Database
    private let tables: [String]?
    /// The format of ``changeset(_:)`` and ``takeChangeset(_:)``.
    public let format: Changeset.Format
    private var session: UnsafeMutableRawPointer?
    /// The tables that the filter of an all-table recording accepted.
    private let seenTables = TableNameBox()

    /// Starts recording the changes of `tables` (all tables when nil) made
    /// from now on by this connection.
    ///
    /// Throws when the session extension is missing, when a table of
    /// `tables` has no primary key (the session extension would ignore it
    /// silently), or when the connection is read-only.
    public init(_ db: Database, tables: [String]? = nil, format: Changeset.Format = .changeset) throws {
        try SessionExtension.require(db)
        if db.configuration.readonly {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a read-only connection can't record changes")
        }
        self.database = db
        self.tables = tables
        self.format = format
        if let tables {
            for table in tables where try db.tableExists(table) {
                try Self.requirePrimaryKey(db, table: table)
            }
        }
        try start()
    }

    deinit {
        guard let session else { return }
        // Released outside of an access, maybe on another thread while the
        // connection runs an access: the session is deleted on the
        // connection's queue, after that access.
        let cleanup = UncheckedSession(session: session, database: database)
        database.performOnConnectionQueue { cleanup.end() }
    }

    /// Whether the recorder is recording (not paused, nor stopped).
    public private(set) var isRecording = false

    /// Whether the recorder was stopped.
    public var isStopped: Bool { session == nil }

    /// The changes recorded so far, since the recorder started or since the
    /// last ``takeChangeset(_:)``. Recording goes on.
    ///
    /// Throws when a table that changed has no primary key, or when `db` is
    /// not the connection that started the recorder.
    public func changeset(_ db: Database) throws -> Changeset {
        let session = try checkedSession(db)
        try checkSeenTables(db)
        var size: CInt = 0
        var buffer: UnsafeMutableRawPointer?
        let code =
            format == .changeset
            ? _strata_session_changeset(session, &size, &buffer) : _strata_session_patchset(session, &size, &buffer)
        let data = SessionExtension.takeBuffer(buffer, size: size)
        try SessionExtension.check(code, "cannot build the changeset: \(ResultCode(rawValue: code))")
        return Changeset(trusted: data)
    }

    /// The changes recorded so far, like ``changeset(_:)``; recording then
    /// starts afresh, so that the next changeset holds only later changes.
    public func takeChangeset(_ db: Database) throws -> Changeset {
        let changeset = try changeset(db)
        let wasRecording = isRecording
        end()
        try start()
        if !wasRecording { try pause(db) }
        return changeset
    }

    /// Whether no change was recorded. A change that was later undone may
    /// still count.
    public func isEmpty(_ db: Database) throws -> Bool {
        try _strata_session_isempty(checkedSession(db)) != 0
    }

    /// Stops recording until ``resume(_:)``: changes made meanwhile are not
    /// recorded, unless they touch a row that was already recorded.
    public func pause(_ db: Database) throws {
        _ = try _strata_session_enable(checkedSession(db), 0)
        isRecording = false
    }

    /// Records again after ``pause(_:)``.
    public func resume(_ db: Database) throws {
        _ = try _strata_session_enable(checkedSession(db), 1)
        isRecording = true
    }

    /// Stops recording for good and forgets the changes. Does nothing when
    /// the recorder is already stopped.
    public func stop(_ db: Database) {
        guard session != nil, db === database else { return }
        end()
    }

    // MARK: - Session

    private func start() throws {
        guard let connection = database.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed")
        }
        database.borrowPreUpdateHook()
        var session: UnsafeMutableRawPointer?
        var code = _strata_session_create(connection, "main", &session)
        if code == SQLITE_OK, let session {
            if let tables {
                for table in tables where code == SQLITE_OK {
                    code = _strata_session_attach(session, table)
                }
            } else {
                _strata_session_table_filter(
                    session,
                    { context, table in
                        guard let context, let table else { return 0 }
                        let name = String(cString: table)
                        if Database.isSQLiteInternalTable(name) || Database.isGRDBInternalTable(name) { return 0 }
                        Unmanaged<TableNameBox>.fromOpaque(context).takeUnretainedValue().names.insert(name)
                        return 1
                    }, Unmanaged.passUnretained(seenTables).toOpaque())
                code = _strata_session_attach(session, nil)
            }
        }
        if code != SQLITE_OK {
            if let session { _strata_session_delete(session) }
            database.returnPreUpdateHook()
            throw DatabaseError.lastError(of: connection, resultCode: code)
        }
        self.session = session
        isRecording = true
    }

    /// Deletes the session, unless the connection was closed meanwhile (the
    /// session then leaks: SQLite would read the closed connection).
    private func end() {
        guard let session else { return }
        self.session = nil
        isRecording = false
        guard !database.isClosed else { return }
        _strata_session_delete(session)
        database.returnPreUpdateHook()
    }

    private func checkedSession(_ db: Database) throws -> UnsafeMutableRawPointer {
        guard db === database else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "a changeset recorder is used by another connection than its own")
        }
        guard let session, !db.isClosed else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the changeset recorder is stopped")
        }
        return session
    }

    /// Throws when a table that the recording accepted has no primary key.
    private func checkSeenTables(_ db: Database) throws {
        for table in (tables ?? []) + seenTables.names.sorted() where try db.tableExists(table) {
            try Self.requirePrimaryKey(db, table: table)
        }
    }

    private static func requirePrimaryKey(_ db: Database, table: String) throws {
        if try !db.columns(in: table).contains(where: { $0.primaryKeyIndex > 0 }) {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "table \(table) has no primary key: the session extension can't record its changes")
        }
    }
}

/// The tables that a recording's filter accepted.
private final class TableNameBox {
    var names: Set<String> = []
}

extension Database {
    /// Runs `body` and returns the row changes it made to `tables` (to all
    /// tables when nil, but SQLite's and Strata's own), as a changeset or a
    /// patchset.
    ///
    /// ```swift
    /// let changeset = try dbQueue.write { db in
    ///     try db.recordChanges(to: ["player", "team"]) {
    ///         try player.insert(db)
    ///         try team.update(db)
    ///     }
    /// }
    /// ```
    ///
    /// It works inside transactions, savepoints and migrations; the changes
    /// of a savepoint that `body` rolls back are not in the changeset.
    /// Throws when the session extension is missing, or when a recorded
    /// table has no primary key. See ``ChangesetRecorder`` for recordings
    /// that span several accesses.
    public func recordChanges(
        to tables: [String]? = nil,
        as format: Changeset.Format = .changeset,
        _ body: () throws -> Void
    ) throws -> Changeset {
        let recorder = try ChangesetRecorder(self, tables: tables, format: format)
        defer { recorder.stop(self) }
        try body()
        return try recorder.changeset(self)
    }
}

/// The session of a recorder released unstopped, on its way to the
/// connection's queue, which alone may delete it.
private struct UncheckedSession: @unchecked Sendable {
    let session: UnsafeMutableRawPointer
    let database: Database

    /// Deletes the session, unless the connection was closed meanwhile
    /// (the session then leaks: SQLite would read the closed connection).
    func end() {
        guard !database.isClosed else { return }
        _strata_session_delete(session)
        database.returnPreUpdateHook()
    }
}
