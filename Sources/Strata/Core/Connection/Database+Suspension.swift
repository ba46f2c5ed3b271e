import Foundation
import StrataSQLite

extension Database {
    /// Post this notification to suspend the databases opened with
    /// ``Configuration/observesSuspensionNotifications``: they stop acquiring
    /// the locks that would get a suspended process killed. A write
    /// transaction in progress is interrupted, and statements that would lock
    /// the database throw `SQLITE_INTERRUPT` ("Database is suspended") until
    /// ``resumeNotification`` is posted.
    ///
    /// ```swift
    /// NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
    /// ```
    public static let suspendNotification = Notification.Name("GRDB.Database.Suspend")

    /// Post this notification to resume the databases suspended by
    /// ``suspendNotification``.
    public static let resumeNotification = Notification.Name("GRDB.Database.Resume")

    /// Throws "Database is suspended" when the connection is suspended and
    /// `statement` would acquire a lock.
    func checkSuspension(_ statement: Statement) throws {
        guard let suspension, suspension.isSuspended else { return }
        if statement.isTransactionStatement {
            // Ending transactions releases locks; starting a deferred one takes none.
            let sql = statement.sql.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
            if !(sql.hasPrefix("BEGIN IMMEDIATE") || sql.hasPrefix("BEGIN EXCLUSIVE")) { return }
        } else if statement.isReadonly && isReadOnlyConnectionOrWAL {
            return
        }
        throw DatabaseError(resultCode: .SQLITE_INTERRUPT, message: "Database is suspended", sql: statement.sql)
    }

    /// Whether reads take no file lock: read-only connections and WAL databases.
    private var isReadOnlyConnectionOrWAL: Bool {
        if isReadOnlyConnection { return true }
        guard let sqliteConnection, let file = sqlite3_db_filename(sqliteConnection, "main") else { return true }
        let path = String(cString: file)
        // In-memory and temporary databases have no file to lock.
        return path.isEmpty || FileManager.default.fileExists(atPath: path + "-wal")
    }
}

/// Listens to the suspension notifications for one connection.
final class SuspensionObserver: @unchecked Sendable {
    private let suspended = AtomicFlag(false)
    private let interruptState: InterruptState
    private var tokens: [any NSObjectProtocol] = []

    init(interruptState: InterruptState) {
        self.interruptState = interruptState
        let center = NotificationCenter.default
        tokens.append(
            center.addObserver(forName: Database.suspendNotification, object: nil, queue: nil) { [weak self] _ in
                self?.suspend()
            })
        tokens.append(
            center.addObserver(forName: Database.resumeNotification, object: nil, queue: nil) { [weak self] _ in
                self?.suspended.store(false)
            })
    }

    deinit {
        for token in tokens {
            NotificationCenter.default.removeObserver(token)
        }
    }

    var isSuspended: Bool { suspended.load() }

    private func suspend() {
        suspended.store(true)
        // A write transaction holds a lock: interrupt it, which rolls it back.
        interruptState.withLock {
            if let connection = interruptState.connection, sqlite3_txn_state(connection, nil) == SQLITE_TXN_WRITE {
                sqlite3_interrupt(connection)
            }
        }
    }
}
