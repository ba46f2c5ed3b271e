// How the broker of a writer connection runs its ExternalChangeMonitor
// (Configuration.observesExternalChanges): it watches while library
// observers (value and region observations) are registered, and tells them
// of each external commit as if the connection had committed a change of
// every region. Application transaction observers are not told: an
// external commit has no statements nor row events to give them.

import Foundation

extension TransactionObservationBroker {
    /// Starts the monitor when a library observer is registered, and stops
    /// it when none is left.
    func updateExternalChangeMonitoring() {
        let hasLibraryObservers = registrations.contains { !$0.isApplicationObserver && !$0.isRemoved }
        if hasLibraryObservers {
            // A failure was told to the observers already.
            try? startExternalChangeMonitor()
        } else {
            externalChangeMonitor?.stop()
        }
    }

    /// Starts the monitor now, if the configuration asks for it: its data
    /// version is read now, so that a value observation that fetches next
    /// misses no commit made after its fetch.
    func startExternalChangeMonitor() throws {
        guard observesExternalChanges else { return }
        let monitor: ExternalChangeMonitor
        if let externalChangeMonitor {
            monitor = externalChangeMonitor
        } else {
            monitor = ExternalChangeMonitor(
                path: database.path, configuration: database.configuration,
                connection: database.serializedDatabase)
            externalChangeMonitor = monitor
        }
        try monitor.start(database)
    }

    /// Tells the library observers that another connection committed: each
    /// hears of a change, then of a commit. Outside of a transaction.
    func notifyExternalCommit() {
        guard !database.isInsideTransaction else { return }
        let current = registrations
        var prunes = false
        for registration in current where !registration.isApplicationObserver {
            guard let observer = registration.observer else {
                prunes = true
                continue
            }
            withCurrentBroker { observer.databaseDidChange() }
            registration.ignoresChangesUntilTransactionEnd = false
            registration.heardOfChanges = false
            if !registration.notifyTransactionCompletion(committed: true, database) {
                prunes = true
            }
        }
        if prunes {
            registrations.removeAll { $0.observer == nil }
            pruneIfEmpty()
        }
    }

    /// Tells the library observers that external changes can no longer be
    /// seen (the database file was deleted or replaced, or the data version
    /// cannot be read): value observations fail with the error.
    func notifyExternalFailure(_ error: any Error) {
        for registration in registrations where !registration.isApplicationObserver {
            (registration.observer as? any LibraryTransactionObserver)?.externalChangesDidFail(error)
        }
    }

    /// Stops the monitor, as the connection closes.
    func databaseDidClose() {
        externalChangeMonitor?.stop()
    }
}

extension Database {
    /// Starts looking for the commits of other connections, when the
    /// configuration asks for it (``Configuration/observesExternalChanges``):
    /// called by value and region observations before they fetch or
    /// register. A monitor that no observer joins stops at its first check.
    /// Throws when the monitor stopped after an error (the database file
    /// was deleted or replaced), or cannot read the data version.
    func startExternalChangeMonitoring() throws {
        guard configuration.observesExternalChanges else { return }
        try brokerCreatingIfNeeded.startExternalChangeMonitor()
    }
}
