import Foundation
import StrataSQLite

// Task cancellation stops the user's statements, never the library's own
// bookkeeping: ending a transaction, restoring a pragma, and what observers
// do after a commit. Those run "protected": cancellation neither refuses
// them nor interrupts them, and a failure among them is logged, never
// swallowed silently.

extension Database {
    /// Runs `body` so that the cancellation of the current access neither
    /// refuses nor interrupts its statements. An interruption that a
    /// cancellation already delivered to SQLite is cleared first, by resetting
    /// the statements still running.
    func withoutCancellation<T>(_ body: () throws -> T) rethrows -> T {
        if interruptState.beginProtection() {
            resetRunningStatements()
        }
        defer { interruptState.endProtection() }
        return try body()
    }

    /// Runs one statement of the library's bookkeeping: protected from
    /// cancellation, allowed in aborted transactions and while suspended, and
    /// run once more after resetting the running statements when SQLite
    /// reports an interruption (a statement left running keeps the
    /// connection interrupted).
    func executeBookkeeping(sql: String) throws {
        try executeBookkeeping { try executeCached(sql: sql) }
    }

    /// `executeBookkeeping(sql:)` for a statement that begins or commits a
    /// transaction (see `executeTransactionStatement(_:)`).
    func executeBookkeeping(_ kind: TransactionStatementKind) throws {
        try executeBookkeeping { try executeTransactionStatement(kind) }
    }

    /// Runs `execute` as bookkeeping (see `executeBookkeeping(sql:)`).
    private func executeBookkeeping(running execute: () throws -> Void) throws {
        try withoutCancellation {
            let wasRunningBookkeeping = isRunningBookkeeping
            isRunningBookkeeping = true
            defer { isRunningBookkeeping = wasRunningBookkeeping }
            var attempts = 0
            while true {
                do {
                    try execute()
                    return
                } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && attempts < 3 {
                    attempts += 1
                    resetRunningStatements()
                }
            }
        }
    }

    /// Rolls back the current transaction after an error. A rollback that
    /// fails is reported to ``Database/logError``, and tried again at the end
    /// of the access.
    func rollbackAfterError() {
        do {
            try rollback()
            isRollbackPending = false
        } catch {
            isRollbackPending = isInsideTransaction
            reportBookkeepingFailure(error, "ROLLBACK TRANSACTION")
        }
    }

    /// Runs a bookkeeping statement after `result` was produced: a failure
    /// is thrown when `result` is a success, and logged otherwise, so that
    /// the user's error wins.
    func executeBookkeeping<T>(sql: String, after result: Result<T, any Error>) throws -> T {
        do {
            try executeBookkeeping(sql: sql)
        } catch {
            reportBookkeepingFailure(error, sql)
            if case .success = result { throw error }
        }
        return try result.get()
    }

    /// Reports a failed bookkeeping statement to ``Database/logError``.
    func reportBookkeepingFailure(_ error: any Error, _ sql: String) {
        let code = (error as? DatabaseError)?.extendedResultCode ?? .SQLITE_ERROR
        let message = "\(description): could not run \(sql): \(error)"
        Database.logError?(code, message)
        instrument?.bookkeepingDidFail(self, message: message)
    }

    /// Resets the statements of the connection that are still running
    /// (cursors not read to the end, SQLite's own statements), so that SQLite
    /// forgets an interruption. Wraps `sqlite3_next_stmt` and `sqlite3_reset`.
    func resetRunningStatements() {
        guard let sqliteConnection else { return }
        var statement = sqlite3_next_stmt(sqliteConnection, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 {
                sqlite3_reset(current)
            }
            statement = sqlite3_next_stmt(sqliteConnection, current)
        }
    }

    /// Forgets the cancellation of an access that ended: clears the
    /// interruption it may have left in SQLite, so that the next access
    /// starts clean.
    func clearCancellation() {
        if interruptState.resetCancellation() {
            resetRunningStatements()
        }
    }

    /// Retries, at the end of an access, the rollback that failed during it.
    func retryPendingBookkeeping() {
        if isRollbackPending {
            isRollbackPending = false
            if isInsideTransaction { rollbackAfterError() }
        }
    }

    /// Makes running statements check for cancellation every few thousand
    /// virtual machine instructions: a task cancelled just before a statement
    /// starts stepping would otherwise miss `sqlite3_interrupt`. Protected
    /// statements are never stopped. Wraps `sqlite3_progress_handler`.
    func installCancellationCheck() {
        let context = Unmanaged.passUnretained(interruptState).toOpaque()
        sqlite3_progress_handler(
            sqliteConnection, 4096,
            { context in
                let state = Unmanaged<InterruptState>.fromOpaque(context!).takeUnretainedValue()
                return state.stopsStatements ? 1 : 0
            }, context)
    }

    /// Throws `CancellationError` when the current access was cancelled and
    /// `statement` is one of the user's. Rollbacks always run.
    @inline(__always)
    func checkCancellation(_ statement: Statement) throws {
        if interruptState.stopsStatements && !statement.isRollback {
            throw CancellationError()
        }
    }
}

/// The connection state that other threads touch: interruption and
/// cancellation of the current access.
final class InterruptState: @unchecked Sendable {
    private let lock = Lock()
    /// The connection, while open; guarded by the lock.
    var connection: SQLiteConnection?
    /// Whether the current access was cancelled. Read at each statement,
    /// without taking the lock.
    private let _isCancelled = AtomicFlag(false)
    /// The depth of protected scopes. Only the connection's queue changes it,
    /// under the lock; that queue reads it without the lock.
    private var protectionDepth = 0
    /// Whether a cancellation called `sqlite3_interrupt` during the current
    /// access; guarded by the lock.
    private var interruptDelivered = false

    init() {}

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock(body)
    }

    /// Whether statements must stop: the access was cancelled, and no
    /// protected scope runs.
    var stopsStatements: Bool {
        protectionDepth == 0 && _isCancelled.load()
    }

    /// Interrupts the running statement, if any. Wraps `sqlite3_interrupt`.
    func interrupt() {
        withLock {
            if let connection { sqlite3_interrupt(connection) }
        }
    }

    /// Marks the current access cancelled, and interrupts its running
    /// statement unless a protected scope runs.
    func cancel() {
        withLock {
            _isCancelled.store(true)
            if protectionDepth == 0, let connection {
                interruptDelivered = true
                sqlite3_interrupt(connection)
            }
        }
    }

    /// Enters a protected scope; returns whether a cancellation interrupted
    /// the connection before, so that the caller clears the interruption.
    func beginProtection() -> Bool {
        withLock {
            protectionDepth += 1
            guard protectionDepth == 1, interruptDelivered else { return false }
            interruptDelivered = false
            return true
        }
    }

    /// Leaves a protected scope.
    func endProtection() {
        withLock { protectionDepth -= 1 }
    }

    /// Clears the cancellation at the end of an access; returns whether it
    /// interrupted the connection.
    func resetCancellation() -> Bool {
        withLock {
            _isCancelled.store(false)
            defer { interruptDelivered = false }
            return interruptDelivered
        }
    }
}
