// Where a commit is reported: SQLite's commit and rollback hooks, and what a
// connection does once a transaction has ended (the broker's observers, the
// completion callbacks, the instrument, the schema cache after a rollback).
//
// The other half of a write's notification path is the observation
// broker's: SQLite's update and pre-update hooks, which report each changed
// row, are installed by `Observation/TransactionObservationBroker.swift`
// ("Hooks"), and the broker hears of each statement from
// `Core/Statements/Database+StatementLifeCycle.swift`. Core cannot hold them:
// they build Observation's events.

import Foundation

extension Database {
    /// Installs SQLite's commit and rollback hooks, once per connection.
    func installTransactionHooks() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_commit_hook(
            sqliteConnection,
            { context in
                let db = Unmanaged<Database>.fromOpaque(context!).takeUnretainedValue()
                db.pendingTransactionCompletion = .commit
                if let broker = db.observationBroker, !broker.isEmpty, !broker.databaseWillCommit() {
                    return 1
                }
                return 0
            }, context)
        sqlite3_rollback_hook(
            sqliteConnection,
            { context in
                let db = Unmanaged<Database>.fromOpaque(context!).takeUnretainedValue()
                db.pendingTransactionCompletion = .rollback
                db.observationBroker?.databaseWillRollback()
            }, context)
    }

    /// Calls the completion callbacks of a transaction that ended without
    /// any change, which SQLite's commit and rollback hooks don't report.
    func completeEmptyTransaction(committed: Bool) {
        cachedTransactionDate = nil
        transactionChangedSchema = false
        instrument?.transactionDidEnd(self, committed: committed)
        let callbacks = transactionCompletionCallbacks
        transactionCompletionCallbacks = []
        for callback in callbacks {
            if committed {
                callback.onCommit(self)
            } else {
                callback.onRollback(self)
            }
        }
    }

    /// Calls the completion callbacks once a transaction has ended.
    func handleTransactionCompletion() {
        let pending = pendingTransactionCompletion
        if isInsideTransaction {
            // The commit failed (busy...) and the transaction is still open,
            // or a savepoint was rolled back: nothing ended.
            if pending == .commit { pendingTransactionCompletion = .none }
            if pending == .rollback { pendingTransactionCompletion = .none }
            return
        }
        pendingTransactionCompletion = .none
        cachedTransactionDate = nil
        let changedSchema = transactionChangedSchema
        transactionChangedSchema = false
        guard pending != .none else { return }
        instrument?.transactionDidEnd(self, committed: pending == .commit)
        if pending == .rollback && changedSchema {
            // The rollback undid the schema changes of the transaction.
            schemaCache.reset()
        }
        if let observationBroker, !observationBroker.isEmpty {
            // Observers fetch after a commit: never stopped by the
            // cancellation of the access that committed, nor by the
            // wrapping method whose transaction ended.
            if pending == .commit { observedCommitNumber += 1 }
            let depth = wrappedTransactionDepth
            wrappedTransactionDepth = 0
            defer { wrappedTransactionDepth = depth }
            withoutCancellation {
                observationBroker.transactionDidComplete(committed: pending == .commit)
            }
        }
        // Most transactions have none: no copy, no release of an empty array.
        guard !transactionCompletionCallbacks.isEmpty else { return }
        let callbacks = transactionCompletionCallbacks
        transactionCompletionCallbacks = []
        for callback in callbacks {
            if pending == .commit {
                callback.onCommit(self)
            } else {
                callback.onRollback(self)
            }
        }
    }
}

/// Commit and rollback callbacks of ``Database/afterNextTransaction(onCommit:onRollback:)``.
struct TransactionCompletionCallback {
    let onCommit: @Sendable (Database) -> Void
    let onRollback: @Sendable (Database) -> Void
}

/// What the commit and rollback hooks have seen since the last statement.
enum PendingTransactionCompletion {
    case none
    case commit
    case rollback
}
