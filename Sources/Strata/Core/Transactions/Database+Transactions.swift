import Foundation

extension Database {
    /// The kinds of transactions. See <https://www.sqlite.org/lang_transaction.html>.
    public enum TransactionKind: String, Sendable {
        /// `BEGIN DEFERRED TRANSACTION`: locks are taken on first use.
        case deferred = "DEFERRED"
        /// `BEGIN IMMEDIATE TRANSACTION`: the write lock is taken at once.
        case immediate = "IMMEDIATE"
        /// `BEGIN EXCLUSIVE TRANSACTION`.
        case exclusive = "EXCLUSIVE"
    }

    /// How a transaction or savepoint closure ends.
    @frozen
    public enum TransactionCompletion: Sendable {
        /// Commits the changes.
        case commit
        /// Rolls back the changes, without error.
        case rollback
    }

    /// Begins a transaction (IMMEDIATE by default, unless the connection is
    /// read-only, when it is DEFERRED).
    public func beginTransaction(_ kind: TransactionKind? = nil) throws {
        let kind = kind ?? defaultTransactionKind
        let wasInsideTransaction = isInsideTransaction
        do {
            try executeTransactionStatement(kind.beginStatement)
        } catch {
            // An interrupted BEGIN may leave its transaction open.
            if !wasInsideTransaction && isInsideTransaction { rollbackAfterError() }
            throw error
        }
    }

    /// Commits the current transaction. After a failed commit, roll back.
    public func commit() throws {
        try executeTransactionStatement(.commit)
    }

    /// Rolls back the current transaction, if any. Task cancellation never
    /// stops a rollback.
    public func rollback() throws {
        // Don't fail when SQLite already rolled back (after some errors).
        guard isInsideTransaction else { return }
        try executeBookkeeping(sql: "ROLLBACK TRANSACTION")
    }

    /// DEFERRED on read-only connections and inside ``readOnly(_:)`` (an
    /// IMMEDIATE transaction fails under `query_only`), IMMEDIATE otherwise.
    var defaultTransactionKind: TransactionKind {
        isReadOnlyConnection || readOnlyDepth > 0 ? .deferred : .immediate
    }

    /// Runs `operations` in a transaction: it commits when they return
    /// `.commit`, and rolls back when they return `.rollback` or throw (the
    /// error is rethrown).
    ///
    /// ```swift
    /// try db.inTransaction {
    ///     try db.execute(sql: "INSERT ...")
    ///     return .commit
    /// }
    /// ```
    public func inTransaction(
        _ kind: TransactionKind? = nil,
        _ operations: () throws -> TransactionCompletion
    ) throws {
        _ = try runTransaction(kind, operations) { $0 }
    }

    /// Begins a transaction of `kind`, runs `body`, then commits or rolls
    /// back as `completion` says from the value of `body`, and returns that
    /// value. An error of `body` or of the commit rolls back and is
    /// rethrown. The transaction of ``inTransaction(_:_:)`` and of writes.
    func runTransaction<T>(
        _ kind: TransactionKind?, _ body: () throws -> T, completion: (T) -> TransactionCompletion
    ) throws -> T {
        try beginTransaction(kind)
        let result: T
        do {
            wrappedTransactionDepth += 1
            defer { wrappedTransactionDepth -= 1 }
            result = try body()
        } catch {
            rollbackAfterError()
            throw error
        }
        switch completion(result) {
        case .commit:
            do {
                try checkNotAborted(sql: "COMMIT TRANSACTION")
                // A cancelled access throws here, and rolls back.
                try commit()
            } catch {
                rollbackAfterError()
                throw error
            }
        case .rollback:
            try rollback()
        }
        return result
    }

    /// Runs `operations` in a savepoint, which nests inside transactions and
    /// other savepoints, and opens a transaction when none is open.
    ///
    /// The savepoint is released on `.commit`, and rolled back on `.rollback`
    /// or on error (the error is rethrown).
    public func inSavepoint(_ operations: () throws -> TransactionCompletion) throws {
        if !isInsideTransaction {
            // A savepoint outside a transaction is a transaction: prefer the
            // default kind of writes.
            try inTransaction(nil, operations)
            return
        }
        let name = "grdb"
        try executeCached(sql: "SAVEPOINT \(name)")
        let completion: TransactionCompletion
        do {
            wrappedTransactionDepth += 1
            defer { wrappedTransactionDepth -= 1 }
            completion = try operations()
        } catch {
            rollbackSavepointAfterError(name)
            throw error
        }
        switch completion {
        case .commit:
            do {
                try checkNotAborted(sql: "RELEASE SAVEPOINT \(name)")
                try executeCached(sql: "RELEASE SAVEPOINT \(name)")
            } catch {
                rollbackSavepointAfterError(name)
                throw error
            }
        case .rollback:
            try rollbackSavepoint(name)
        }
    }

    /// Throws `SQLITE_ABORT` "Transaction was aborted" when the transaction
    /// that a wrapping method opened has ended behind its back.
    func checkNotAborted(sql: String) throws {
        if !isInsideTransaction {
            throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted", sql: sql)
        }
    }

    /// Rolls back to a savepoint and releases it, protected from cancellation.
    private func rollbackSavepoint(_ name: String) throws {
        try executeBookkeeping(sql: "ROLLBACK TRANSACTION TO SAVEPOINT \(name)")
        try executeBookkeeping(sql: "RELEASE SAVEPOINT \(name)")
    }

    /// Rolls back to a savepoint after an error, if the transaction is still
    /// open. A failure is logged, and rolls the whole transaction back.
    private func rollbackSavepointAfterError(_ name: String) {
        guard isInsideTransaction else { return }
        do {
            try rollbackSavepoint(name)
        } catch {
            reportBookkeepingFailure(error, "ROLLBACK TRANSACTION TO SAVEPOINT \(name)")
            rollbackAfterError()
        }
    }

    /// Registers closures called once, when the next transaction commits or
    /// rolls back.
    public func afterNextTransaction(
        onCommit: @escaping @Sendable (Database) -> Void,
        onRollback: @escaping @Sendable (Database) -> Void = { _ in }
    ) {
        transactionCompletionCallbacks.append(TransactionCompletionCallback(onCommit: onCommit, onRollback: onRollback))
    }

    /// The date of the current transaction, from the configured
    /// ``Configuration/transactionClock``: constant during a transaction, and
    /// new for each statement outside transactions.
    public var transactionDate: Date {
        get throws {
            if isInsideTransaction, let cachedTransactionDate {
                return cachedTransactionDate
            }
            let date = try configuration.transactionClock.now(self)
            if isInsideTransaction {
                cachedTransactionDate = date
            }
            return date
        }
    }

    /// Throws a fatal error when a transaction is left open at the end of an
    /// access, unless ``Configuration/allowsUnsafeTransactions`` is true.
    func checkNoTransactionLeftOpen() {
        if isInsideTransaction && !configuration.allowsUnsafeTransactions {
            rollbackAfterError()
            fatalError(
                "A transaction has been left opened at the end of a database access. "
                    + "Use inTransaction or inSavepoint, or set Configuration.allowsUnsafeTransactions.")
        }
    }
}

extension Database {
    /// Begins a read-only transaction and acquires its snapshot, the last
    /// committed state, with a first read.
    func beginIsolatedReadTransaction() throws {
        try checkNotClosed()
        try beginTransaction(.deferred)
        do {
            try execute(sql: "SELECT rootpage FROM sqlite_master LIMIT 1")
        } catch {
            rollbackAfterError()
            throw error
        }
    }

    /// Ends the transaction of ``beginIsolatedReadTransaction()``, if it is
    /// still open. A failure is reported, as bookkeeping.
    func endIsolatedReadTransaction() {
        guard isInsideTransaction else { return }
        do {
            try commitReadTransaction()
        } catch {
            reportBookkeepingFailure(error, "COMMIT TRANSACTION")
        }
    }
}
