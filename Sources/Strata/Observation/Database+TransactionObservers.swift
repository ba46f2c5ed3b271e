import Foundation

extension Database {
    /// How long a transaction observer is notified.
    public enum TransactionObservationExtent: Sendable {
        /// Until the observer is deallocated: the database holds it weakly.
        case observerLifetime
        /// Until the current or next transaction ends: the database holds it
        /// strongly until its `databaseDidCommit` or `databaseDidRollback`.
        case nextTransaction
        /// Until the connection is closed: the database holds it strongly.
        case databaseLifetime
    }

    /// Starts notifying a transaction observer of this connection's changes
    /// and transactions.
    ///
    /// ```swift
    /// try dbQueue.inDatabase { db in
    ///     db.add(transactionObserver: observer, extent: .nextTransaction)
    /// }
    /// ```
    public func add(
        transactionObserver: some TransactionObserver,
        extent: TransactionObservationExtent = .observerLifetime
    ) {
        brokerCreatingIfNeeded.add(transactionObserver, extent: extent)
    }

    /// Stops notifying a transaction observer. No transaction that starts
    /// later is notified to it.
    public func remove(transactionObserver: some TransactionObserver) {
        observationBroker?.remove(transactionObserver)
    }

    /// Tells transaction observers that the region was changed in a way that
    /// SQLite does not report: their ``TransactionObserver/databaseDidChange()``
    /// is called, if they observe some of the region.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.notifyChanges(in: Table("player"))
    ///     // A schema change:
    ///     try db.notifyChanges(in: Table("sqlite_master"))
    /// }
    /// ```
    public func notifyChanges(in region: some DatabaseRegionConvertible) throws {
        guard let observationBroker, !observationBroker.isEmpty else { return }
        let region = try region.databaseRegion(self)
        guard !region.isEmpty else { return }
        try observationBroker.notifyChanges(in: region)
    }
}

extension DatabaseWriter {
    /// Starts notifying a transaction observer of the changes and
    /// transactions of the writer connection.
    ///
    /// ```swift
    /// let observer = PlayerObserver()
    /// dbQueue.add(transactionObserver: observer)
    /// ```
    public func add(
        transactionObserver: some TransactionObserver,
        extent: Database.TransactionObservationExtent = .observerLifetime
    ) {
        unsafeReentrantWrite { db in
            db.add(transactionObserver: transactionObserver, extent: extent)
        }
    }

    /// Stops notifying a transaction observer. No transaction that starts
    /// later is notified to it.
    public func remove(transactionObserver: some TransactionObserver) {
        unsafeReentrantWrite { db in
            db.remove(transactionObserver: transactionObserver)
        }
    }
}

extension Database {
    /// Takes SQLite's one pre-update hook from the transaction observers of
    /// this connection, for a user that installs its own (the session
    /// extension). Observers hear of no pre-update event
    /// (``TransactionObserver/databaseWillChange(with:)``) until the matching
    /// `returnPreUpdateHook()`; their other events are unchanged.
    func borrowPreUpdateHook() {
        brokerCreatingIfNeeded.lendPreUpdateHook()
    }

    /// Gives the pre-update hook back to the transaction observers, once the
    /// borrower removed its own.
    func returnPreUpdateHook() {
        observationBroker?.returnPreUpdateHook()
    }
}

extension Database {
    /// The connection's observation broker, created at its first use.
    var brokerCreatingIfNeeded: TransactionObservationBroker {
        if let observationBroker { return observationBroker }
        let broker = TransactionObservationBroker(database: self)
        observationBroker = broker
        return broker
    }
}
