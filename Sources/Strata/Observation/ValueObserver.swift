import Foundation
import Atomics

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
    private let _isCancelled = ManagedAtomic<Bool>(false)

    private var reducer: Reducer
    private var region: DatabaseRegion?
    private var isModified = false

    var isCancelled: Bool { _isCancelled.load(ordering: .acquiring) }
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
    /// queue. Returns the fetched value, or nil after an error (notified).
    func startObserving(_ db: Database) -> Reducer.Fetched? {
        do {
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
        } catch {
            notify(error)
            return nil
        }
    }

    /// Stops notifications now, and unregisters the observer soon.
    func cancel() {
        guard !_isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
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

    /// Reduces a fetched value on the current thread (immediate initial value).
    func reduceNow(_ fetched: Reducer.Fetched) -> Reducer.Value? {
        reduceQueue.sync {
            do {
                return try reducer._value(fetched)
            } catch {
                notify(error)
                return nil
            }
        }
    }

    /// Reports the value as soon as it is produced, then schedules it.
    private func notify(_ value: Reducer.Value) {
        events.didReceiveValue?(value)
        scheduler.schedule { [self] in
            guard !isCancelled else { return }
            onChange(value)
        }
    }

    private func notify(_ error: any Error) {
        guard !_isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        events.didFail?(error)
        writer.asyncWriteWithoutTransaction { [self] db in
            db.remove(transactionObserver: self)
        }
        scheduler.schedule { [onError] in onError(error) }
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
