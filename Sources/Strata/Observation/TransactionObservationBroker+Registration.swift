// The registration of transaction observers with a connection's broker:
// how each observer is held (weakly or strongly, for how long), what it
// wants to hear, and adding, removing and silencing observers. The delivery
// of changes and transaction ends is in TransactionObservationBroker.swift.

import Foundation

extension TransactionObservationBroker {
    /// A registered observer and how the connection holds it.
    final class Registration {
        private weak var weakObserver: (any TransactionObserver)?
        /// A constant, so that calls through it need no reference counting.
        private let strongObserver: (any TransactionObserver)?
        let identifier: ObjectIdentifier
        let extent: Database.TransactionObservationExtent
        /// Set by ``TransactionObserver/stopObservingDatabaseChangesUntilNextTransaction()``.
        var ignoresChangesUntilTransactionEnd = false
        /// Removed observers stay silent even if a callback still holds this registration.
        var isRemoved = false
        /// False for the library's own observers
        /// (``LibraryTransactionObserver``): no pre-update event is built
        /// for them, and they are not asked whether a transaction commits.
        let isApplicationObserver: Bool
        /// See ``LibraryTransactionObserver/pendingFetchFlag``.
        private let pendingFetchFlag: AtomicFlag?
        /// Whether the statements of the current transaction were skipped
        /// because a fetch of the observer was pending.
        private var skippedWhilePending = false

        init(_ observer: some TransactionObserver, extent: Database.TransactionObservationExtent) {
            identifier = ObjectIdentifier(observer)
            self.extent = extent
            let libraryObserver = observer as? any LibraryTransactionObserver
            isApplicationObserver = libraryObserver == nil
            pendingFetchFlag = libraryObserver?.pendingFetchFlag
            switch extent {
            case .observerLifetime:
                strongObserver = nil
                weakObserver = observer
            case .nextTransaction, .databaseLifetime:
                strongObserver = observer
            }
        }

        var observer: (any TransactionObserver)? {
            isRemoved ? nil : (strongObserver ?? weakObserver)
        }

        /// Whether the observer heard of a change in the current
        /// transaction. Library observers that did not are not told how
        /// the transaction ends: they only act on commits of changes they
        /// heard of.
        var heardOfChanges = false

        /// The observer, when it wants changes now.
        var changeObserver: (any TransactionObserver)? {
            ignoresChangesUntilTransactionEnd ? nil : observer
        }

        /// The observer, when it wants changes now, which will hear of one.
        @inline(__always)
        func observerHearingChange() -> (any TransactionObserver)? {
            guard let observer = changeObserver else { return nil }
            heardOfChanges = true
            return observer
        }

        /// Whether the end of the transaction is none of the observer's
        /// business: a library observer that heard of no change (see
        /// ``LibraryTransactionObserver``).
        @inline(__always)
        func isQuietThroughCompletion() -> Bool {
            if heardOfChanges {
                heardOfChanges = false
                return false
            }
            return !isApplicationObserver && strongObserver != nil && !isRemoved
        }

        /// Whether the observer wants changes of this kind now: false when
        /// it is gone, ignores changes until the transaction ends, or when
        /// a fetch of it is pending (it is not asked then).
        @inline(__always)
        func wantsChanges(ofKind kind: DatabaseEventKind) -> Bool {
            guard !ignoresChangesUntilTransactionEnd, !isRemoved, !skipsWhilePending() else { return false }
            return observes(eventsOfKind: kind)
        }

        private func observes(eventsOfKind kind: DatabaseEventKind) -> Bool {
            if let observes = strongObserver?.observes(eventsOfKind: kind) { return observes }
            return weakObserver?.observes(eventsOfKind: kind) ?? false
        }

        /// Whether the changes of the current transaction are skipped,
        /// because a fetch of the observer is pending.
        @inline(__always)
        func skipsWhilePending() -> Bool {
            // The flag only turns true at commits: once a statement is
            // skipped, the whole transaction is.
            if skippedWhilePending { return true }
            guard let pendingFetchFlag else { return false }
            if pendingFetchFlag.load() {
                skippedWhilePending = true
                return true
            }
            return false
        }

        /// Whether the observer has nothing to hear about the end of the
        /// transaction: its statements were skipped, the transaction
        /// committed, and its fetch is still pending. When it is no longer
        /// pending, the observer learns that changes were skipped, and must
        /// then be notified of the commit.
        @inline(__always)
        func isParkedThroughCommit(committed: Bool) -> Bool {
            guard skippedWhilePending else { return false }
            skippedWhilePending = false
            guard committed, !isRemoved else { return false }
            // Still pending: the exchange that will clear the flag comes
            // after this read-modify-write, and synchronizes with it, so the
            // fetch's transaction, which begins after that exchange, sees
            // this commit. The observer has nothing to do.
            if pendingFetchFlag?.isStill(true) == true { return true }
            // The fetch may have begun before the commit.
            (observer as? any LibraryTransactionObserver)?.changesWereSkipped()
            heardOfChanges = true
            return false
        }

        /// Notifies the end of the transaction. Returns false when the
        /// observer is gone.
        func notifyTransactionCompletion(committed: Bool, _ db: Database) -> Bool {
            guard !isRemoved else { return false }
            if strongObserver != nil {
                if committed {
                    strongObserver?.databaseDidCommit(db)
                } else {
                    strongObserver?.databaseDidRollback(db)
                }
                return true
            }
            guard let observer = weakObserver else { return false }
            if committed {
                observer.databaseDidCommit(db)
            } else {
                observer.databaseDidRollback(db)
            }
            return true
        }
    }

    func add(_ observer: some TransactionObserver, extent: Database.TransactionObservationExtent) {
        registrations.append(Registration(observer, extent: extent))
        if registrations.count == 1 {
            installHooks()
        }
    }

    func remove(_ observer: some TransactionObserver) {
        let identifier = ObjectIdentifier(observer)
        registrations.removeAll { registration in
            guard registration.identifier == identifier else { return false }
            registration.isRemoved = true
            return true
        }
        pruneIfEmpty()
    }

    func stopObservingChangesUntilNextTransaction(_ observer: some TransactionObserver) {
        let identifier = ObjectIdentifier(observer)
        for registration in registrations where registration.identifier == identifier {
            registration.ignoresChangesUntilTransactionEnd = true
        }
    }
}
