import Foundation

/// Runs a started ``ValueObservation``: a transaction observer on the
/// writer connection that fetches after each commit that modified the
/// tracked region, reduces fetched values off the database queue, and
/// notifies them through the scheduler.
///
/// Its state is only touched on the writer's queue, except `reducer`
/// (on `reduceQueue`) and `isCancelled` (atomic).
final class ValueObserver<Reducer: ValueReducer>: TransactionObserver, @unchecked Sendable {
    typealias Events = ValueObservation<Reducer>.Events

    private let writer: any DatabaseWriter
    private let observation: ValueObservation<Reducer>
    private let scheduler: any ValueObservationScheduler
    private let onError: @Sendable (any Error) -> Void
    private let onChange: @Sendable (Reducer.Value) -> Void
    private let reduceQueue = DispatchQueue(label: "Strata.ValueObservation")
    private let _isCancelled = AtomicFlag(false)

    private var reducer: Reducer
    private var region: DatabaseRegion?
    private var isModified = false

    var isCancelled: Bool { _isCancelled.load() }
    private var events: Events { observation.events }

    init(
        writer: any DatabaseWriter,
        observation: ValueObservation<Reducer>,
        scheduler: any ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void
    ) {
        self.writer = writer
        self.observation = observation
        self.scheduler = scheduler
        self.onError = onError
        self.onChange = onChange
        self.reducer = observation.reducer
    }

    // MARK: - Start and stop

    /// Registers the observer and fetches the initial value, on the writer
    /// queue. An error is returned, not notified: the caller notifies it
    /// once the database access has ended.
    func startObserving(_ db: Database) -> Result<Reducer.Fetched, any Error> {
        Result {
            if case .constantRegion(let regions) = observation.tracking {
                var region = DatabaseRegion()
                for convertible in regions {
                    region.formUnion(try convertible.databaseRegion(db))
                }
                setRegion(region)
            }
            let fetched = try fetch(db)
            db.add(transactionObserver: self, extent: .observerLifetime)
            return fetched
        }
    }

    /// Stops notifications now, and unregisters the observer soon.
    func cancel() {
        guard !_isCancelled.exchange(true) else { return }
        events.didCancel?()
        writer.asyncWriteWithoutTransaction { [self] db in
            db.remove(transactionObserver: self)
        }
    }

    // MARK: - Fetching

    private func setRegion(_ region: DatabaseRegion) {
        self.region = region
        events.willTrackRegion?(region)
    }

    /// Fetches in a read-only transaction, or a savepoint with write access,
    /// recording the read region when the observation tracks it.
    private func fetch(_ db: Database) throws -> Reducer.Fetched {
        events.willFetch?()
        db.instrument?.observationDidFetch(db)
        let reducer = self.reducer
        let records: Bool
        switch observation.tracking {
        case .constantRegion: records = false
        case .constantRegionRecordedFromSelection: records = region == nil
        case .regionRecordedFromSelection: records = true
        }
        func run() throws -> Reducer.Fetched {
            guard records else { return try reducer._fetch(db) }
            let (fetched, region) = try db.recordingSelectedRegion { try reducer._fetch(db) }
            if region != self.region { setRegion(region) }
            return fetched
        }
        if observation.requiresWriteAccess {
            return try db.inWriteTransaction(run)
        } else {
            return try db.isolatedRead(run)
        }
    }

    /// Reduces a fetched value off the database queue, then notifies it.
    func reduceAndNotify(_ fetched: Reducer.Fetched) {
        reduceQueue.async { [self] in
            guard !isCancelled else { return }
            do {
                guard let value = try reducer._value(fetched) else { return }
                notify(value)
            } catch {
                notify(error)
            }
        }
    }

    /// Reduces a fetched value on the current thread (immediate initial
    /// value). An error is notified at once, on the current thread.
    func reduceNow(_ fetched: Reducer.Fetched) -> Reducer.Value? {
        let result = reduceQueue.sync { Result { try reducer._value(fetched) } }
        switch result {
        case .success(let value):
            return value
        case .failure(let error):
            notifyNow(error)
            return nil
        }
    }

    /// Notifies an error of the immediate initial fetch on the current
    /// thread, outside of any database access.
    func notifyNow(_ error: any Error) {
        guard stopAfterError(error) else { return }
        onError(error)
    }

    /// Reports the value as soon as it is produced, then schedules it.
    private func notify(_ value: Reducer.Value) {
        events.didReceiveValue?(value)
        scheduler.schedule { [self] in
            guard !isCancelled else { return }
            onChange(value)
        }
    }

    func notify(_ error: any Error) {
        guard stopAfterError(error) else { return }
        scheduler.schedule { [onError] in onError(error) }
    }

    /// Stops the observation after an error. Returns false when it was
    /// already stopped, and the error must not be notified.
    private func stopAfterError(_ error: any Error) -> Bool {
        guard !_isCancelled.exchange(true) else { return false }
        events.didFail?(error)
        writer.asyncWriteWithoutTransaction { [self] db in
            db.remove(transactionObserver: self)
        }
        return true
    }

    // MARK: - TransactionObserver

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        guard let region else { return true }
        return region.isModified(byEventsOfKind: eventKind)
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if region?.isModified(by: event) ?? true {
            isModified = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseDidChange() {
        isModified = true
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) {
        guard isModified else { return }
        isModified = false
        guard !isCancelled else { return }
        events.databaseDidChange?()
        do {
            reduceAndNotify(try fetch(db))
        } catch {
            notify(error)
        }
    }

    func databaseDidRollback(_ db: Database) {
        isModified = false
    }
}
