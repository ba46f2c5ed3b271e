/// Calls a closure right after each transaction that modified a database
/// region has committed, before any other write can happen.
///
/// ```swift
/// let observation = DatabaseRegionObservation(tracking: Player.all())
/// let cancellable = observation.start(in: dbQueue) { error in
///     // Handle error
/// } onChange: { db in
///     print("Players were changed")
/// }
/// ```
///
/// Most applications prefer the fresh values of a `ValueObservation`.
public struct DatabaseRegionObservation: Sendable {
    let regions: [any DatabaseRegionConvertible]

    /// Tracks the union of the regions: requests, tables, regions...
    public init(tracking regions: any DatabaseRegionConvertible...) {
        self.regions = regions
    }

    /// Tracks the union of the regions: requests, tables, regions...
    public init(tracking regions: [any DatabaseRegionConvertible]) {
        self.regions = regions
    }

    /// Starts the observation. `onChange` runs on the writer's queue, right
    /// after each commit that modified the region; `onError` runs if the
    /// tracked region can not be computed, or if the database file of an
    /// observation of external changes is deleted or replaced
    /// (``Configuration/observesExternalChanges``). The observation stops when the
    /// returned cancellable is cancelled or deinitialized.
    @preconcurrency
    public func start(
        in writer: any DatabaseWriter,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Database) -> Void
    ) -> AnyDatabaseCancellable {
        let regions = self.regions
        let observer: RegionObserver
        do {
            observer = try writer.unsafeReentrantWrite { db in
                var region = DatabaseRegion()
                for convertible in regions {
                    region.formUnion(try convertible.databaseRegion(db))
                }
                let observer = RegionObserver(region: region, onError: onError, onChange: onChange)
                try db.startExternalChangeMonitoring()
                // Held strongly until the cancellable removes it: a weak
                // reference would cost a load, and slower reference
                // counting, on each statement and commit.
                db.add(transactionObserver: observer, extent: .databaseLifetime)
                return observer
            }
        } catch {
            onError(error)
            return AnyDatabaseCancellable(cancel: {})
        }
        return AnyDatabaseCancellable { [weak writer] in
            observer.isCancelled.store(true)
            writer?.asyncWriteWithoutTransaction { db in
                db.remove(transactionObserver: observer)
            }
        }
    }
}

/// The transaction observer of a ``DatabaseRegionObservation``. Its state is
/// only used on the writer's queue, except the cancellation flag.
private final class RegionObserver: LibraryTransactionObserver, @unchecked Sendable {
    let region: DatabaseRegion
    let onError: @Sendable (any Error) -> Void
    let onChange: @Sendable (Database) -> Void
    let isCancelled = AtomicFlag(false)
    private var isModified = false

    init(
        region: DatabaseRegion, onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Database) -> Void
    ) {
        self.region = region
        self.onError = onError
        self.onChange = onChange
    }

    /// Stops the observation, and reports the error (the database file of
    /// an observation of external changes was deleted or replaced).
    func externalChangesDidFail(_ error: any Error) {
        guard !isCancelled.exchange(true) else { return }
        onError(error)
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        region.isModified(byEventsOfKind: eventKind)
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if region.isModified(by: event) {
            isModified = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseDidChange() {
        isModified = true
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) {
        defer { isModified = false }
        guard isModified, !isCancelled.load() else { return }
        onChange(db)
    }

    func databaseDidRollback(_ db: Database) {
        isModified = false
    }
}
