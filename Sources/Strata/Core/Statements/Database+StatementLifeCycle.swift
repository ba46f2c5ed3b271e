// What a connection does around each statement it runs: checks before it is
// stepped (cancellation, suspension, closed connection, aborted transaction),
// and after it ran, stopped or failed (schema cache, transaction observers,
// integrations, transaction completion). `Statement` calls these hooks.

import Dispatch
import Foundation

extension Database {
    /// Called before a statement is stepped.
    ///
    /// Most statements (an insert in a transaction, without observers nor
    /// integrations) only need the tests of this inlined function; the full
    /// work, `statementWillExecuteWithHooks(_:)`, runs when one of them
    /// fails. Such an execution then runs a few dozen bytes of code here,
    /// where two calls ran hundreds, spread over a dozen lines of the
    /// processor's instruction cache, which SQLite's own code of an insert
    /// nearly fills (issue 34).
    @inline(__always)
    func statementWillExecute(_ statement: Statement) throws {
        if _fastPath(
            !statementsNeedHooks && !statement.hasExecutionEffects && !interruptState.stopsStatements
                && (wrappedTransactionDepth == 0 || isRunningBookkeeping
                    || sqlite3_get_autocommit(sqliteConnection) == 0)
        ) {
            return
        }
        try statementWillExecuteWithHooks(statement)
    }

    /// `statementWillExecute(_:)`, all of it.
    @inline(never)
    private func statementWillExecuteWithHooks(_ statement: Statement) throws {
        try checkCancellation(statement)
        if sqliteConnection == nil {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed", sql: statement.sql)
        }
        if wrappedTransactionDepth > 0 && !isRunningBookkeeping && !isInsideTransaction {
            // An interruption, an ON CONFLICT ROLLBACK or a ROLLBACK ended the
            // transaction of a wrapping method.
            throw DatabaseError(
                resultCode: .SQLITE_ABORT, message: "Transaction was aborted", sql: statement.sql,
                arguments: statement.arguments,
                publicStatementArguments: configuration.publicStatementArguments)
        }
        // Tested here: the call costs more than the test, and most
        // connections have no suspension observer.
        if suspension != nil && !isRunningBookkeeping { try checkSuspension(statement) }
        // Only read after transaction statements (`statementDidExecute`):
        // others spare the call to SQLite.
        if statement.isTransactionStatement {
            wasInsideTransactionBeforeStatement = isInsideTransaction
        }
        if recordedRegion != nil {
            recordedRegion!.formUnion(statement.databaseRegion)
        }
        if let observationBroker, !observationBroker.isEmpty {
            observationBroker.statementWillExecute(statement)
        }
        // `instrument != nil`, not `if let`: binding the instrument retains
        // and releases it, which the executions that are not timed skip.
        if instrument != nil {
            let isTimed: Bool
            if statement.isCached {
                // The statements of the cache, alive anyway, are given to
                // the instrument at the end of the access. Others are not
                // kept alive longer than their user keeps them: the
                // instrument hears of each of their executions, timed.
                if instrumentTracksStatementRuns && !statement.isRunInAccess {
                    statement.isRunInAccess = true
                    statementsRunInAccess.append(statement)
                }
                // The statement statistics alone time the first 16
                // executions of a statement, then one in 8; the query plan
                // monitor alone times none.
                let count = statement.executionCount
                isTimed =
                    instrumentStatementTiming == .every
                    || (instrumentStatementTiming == .sampled && (count <= 16 || count & 7 == 0))
            } else {
                isTimed = instrumentStatementTiming != .none
            }
            if isTimed {
                statement.instrumentedStart = DispatchTime.now().uptimeNanoseconds
                instrument!.statementWillExecute(statement, self)
            }
        }
    }

    /// Called after a statement ran to completion. Inlined, with the tests
    /// that most statements pass (see `statementWillExecute(_:)`).
    @inline(__always)
    func statementDidExecute(_ statement: Statement) {
        if _fastPath(
            !statementsNeedHooks && !statement.hasExecutionEffects && pendingTransactionCompletion == .none)
        {
            return
        }
        statementDidExecuteWithHooks(statement)
    }

    /// `statementDidExecute(_:)`, all of it.
    @inline(never)
    private func statementDidExecuteWithHooks(_ statement: Statement) {
        if statement.invalidatesDatabaseSchemaCache {
            clearSchemaCache()
            if isInsideTransaction { transactionChangedSchema = true }
        } else if statement.isRollback && transactionChangedSchema {
            // Rolling back (to a savepoint) may undo schema changes.
            schemaCache.reset()
        }
        if let observationBroker, !observationBroker.isEmpty {
            observationBroker.statementDidExecute(statement)
        }
        if statement.instrumentedStart != 0, let instrument {
            instrument.statementDidExecute(statement, self)
            statement.instrumentedStart = 0
        }
        if pendingTransactionCompletion != .none || statement.isTransactionStatement {
            schemaVersionIsChecked = false
            if pendingTransactionCompletion == .none && statement.isTransactionStatement
                && wasInsideTransactionBeforeStatement && !isInsideTransaction
            {
                // An empty transaction ended: SQLite's hooks stay silent.
                completeEmptyTransaction(committed: !statement.isRollback)
            } else {
                handleTransactionCompletion()
            }
        }
    }

    /// Called when a statement is reset before it ran to completion: the
    /// integrations see its end, as for a statement that completed.
    func statementDidStop(_ statement: Statement) {
        instrument?.statementDidExecute(statement, self)
        statement.instrumentedStart = 0
    }

    /// Called after a statement failed. Returns the error to throw: the
    /// error of a transaction observer that prevented a commit, or `error`.
    func statementDidFail(_ statement: Statement, error: DatabaseError) -> any Error {
        var thrownError: any Error = error
        statement.failureCount &+= 1
        if statement.instrumentedStart != 0, let instrument {
            instrument.statementDidFail(statement, self, error: error)
            statement.instrumentedStart = 0
        }
        if let observationBroker {
            observationBroker.statementDidFail()
            if let commitError = observationBroker.commitError {
                observationBroker.commitError = nil
                thrownError = commitError
            }
        }
        schemaVersionIsChecked = false
        handleTransactionCompletion()
        return thrownError
    }

    /// Called at the end of each database access.
    func accessDidEnd() {
        schemaVersionIsChecked = false
        schemaCache.accessDidEnd()
        retryPendingBookkeeping()
        if !statementsRunInAccess.isEmpty {
            let statements = statementsRunInAccess
            statementsRunInAccess = []
            for statement in statements { statement.isRunInAccess = false }
            instrument?.statementsDidRun(statements, self)
        }
    }
}
