// One file for the observer, its fetches on readers and its pacing: the
// three share the state machine of `fetchState` and the pending-fetch flag,
// which the extensions below would otherwise have to expose to each other.

import Foundation

/// Runs a started ``ValueObservation``: a transaction observer on the
/// writer connection that fetches after each commit that modified the
/// tracked region, reduces fetched values off the database queue, and
/// notifies them through the scheduler.
///
/// On a ``DatabasePool``, an observation of a constant region fetches on the
/// readers (``ConcurrentReadLanes``), concurrently with the writes that
/// follow: one fetch at a time, and the commits that happen meanwhile are
/// coalesced into one more fetch. An observation whose region may change
/// (`tracking(_:)`) fetches on the writer, right after the commit, until
/// two fetches in a row read the same region: it then fetches on the
/// readers too, and each of those fetches records its region. A fetch on a
/// reader that reads another region is discarded, and the writer fetches
/// again, with the new region: a commit made after the reader's snapshot
/// to a table that only the new region holds would not have been noticed.
/// The writer then fetches until the region is stable again. Observations
/// that need write access fetch on the writer.
///
/// A paced observation (``ObservationPacing``) fetches at once after a
/// commit that comes longer than its maximum delay after its last fetch.
/// Otherwise it sets its pending flag, so that the broker skips it, and
/// hands the fetch to the writer's ``FetchPacer``, which releases it once
/// the writer pauses or at the deadline: the fetch then runs on a reader
/// (or on the writer, between two accesses) and sees every commit so far.
///
/// Its state is only touched on the writer's queue, except `reducer`
/// (on `reduceQueue`), `fetchState` (locked) and `isCancelled` (atomic).
/// `region` is set on the writer's queue before the observer is registered,
/// and later only by fetches on the writer's queue, while no fetch runs on a
/// reader: the fetches on readers read it. The properties that only
/// the writer's queue touches skip the dynamic exclusivity checks.
final class ValueObserver<Reducer: ValueReducer>: LibraryTransactionObserver, @unchecked Sendable {
    typealias Events = ValueObservation<Reducer>.Events

    private let writer: any DatabaseWriter
    private let observation: ValueObservation<Reducer>
    private let scheduler: any ValueObservationScheduler
    private let onError: @Sendable (any Error) -> Void
    private let onChange: @Sendable (Reducer.Value) -> Void
    /// Serial, and run by the one thread of `valueObservationReductions`:
    /// a serial queue without a target gets a thread of its own when the
    /// others are busy, and a hundred observations notified together made
    /// dozens of threads compete with the writer. Not the global queue
    /// either: its threads are those of Swift's tasks, which an app may
    /// block with synchronous database accesses while it waits for values.
    private let reduceQueue = DispatchQueue(label: "Strata.ValueObservation", target: valueObservationReductions)
    private let _isCancelled = AtomicFlag(false)

    /// The concurrent fetches of an observation on a pool, unless it needs
    /// write access.
    private let lanes: ConcurrentReadLanes?
    /// Whether commits schedule fetches on the readers (`lanes`): always for
    /// a constant region; for a region recorded by each fetch, once two
    /// fetches in a row on the writer read the same region, until a fetch
    /// on a reader reads another one. Only touched on the writer's queue.
    @exclusivity(unchecked) private var fetchesOnReaders: Bool
    /// The concurrent fetch, if any, and whether a commit happened since it
    /// was scheduled.
    private let fetchState = Mutex(ConcurrentFetchState.idle)
    /// Whether `fetchState` is `.scheduledAndPending`, read without the
    /// lock. It turns true at commits, on the writer, and is cleared with
    /// `exchange` before the fetch begins its transaction (see
    /// ``LibraryTransactionObserver/pendingFetchFlag``).
    private let fetchIsPendingHint = AtomicFlag(false)

    /// While a fetch is pending, the broker skips this observer: the fetch
    /// will see the changes.
    var pendingFetchFlag: AtomicFlag? { lanes == nil && pacing == nil ? nil : fetchIsPendingHint }

    /// How often to fetch while commits keep coming (``ObservationPacing``);
    /// nil after each commit.
    private let pacing: PacingIntervals?
    /// The writer's pacer, which holds fetches until their time; set before
    /// the observer is registered, when `pacing` is not nil.
    @exclusivity(unchecked) private var pacer: FetchPacer?
    /// When the last fetch was asked for, in `DispatchTime` nanoseconds: a
    /// commit that comes later than the maximum delay after it is fetched at
    /// once. Only used with `pacing`.
    private let lastFetchTime = Mutex<UInt64>(0)

    func changesWereSkipped() {
        isModified = true
    }

    /// Fetches; never mutated, so that fetches on readers don't race with
    /// `reducer` on `reduceQueue`.
    private let fetchReducer: Reducer
    private var reducer: Reducer
    private var region: DatabaseRegion? {
        didSet {
            regionRestrictsRowIDs = region?.restrictsRowIDs ?? false
            lastObservedKind = nil
        }
    }
    /// The last answer of `observes(eventsOfKind:)`: a writer usually runs
    /// the same statements again, and comparing kinds is cheaper than
    /// looking them up in the region.
    @exclusivity(unchecked) private var lastObservedKind: (kind: DatabaseEventKind, observes: Bool)?
    /// Whether the region has row ids to check on each changed row (see
    /// ``DatabaseRegion/restrictsRowIDs``).
    @exclusivity(unchecked) private var regionRestrictsRowIDs = false
    @exclusivity(unchecked) private var isModified = false

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
        self.fetchReducer = observation.reducer
        if let pool = (writer as? DatabasePool) ?? (writer as? AnyDatabaseWriter)?.underlyingPool,
            !observation.requiresWriteAccess
        {
            lanes = pool.concurrentReadLanes
        } else {
            lanes = nil
        }
        fetchesOnReaders = lanes != nil && observation.tracking.isConstant
        pacing = observation.pacing
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
            // Looks for the commits of other connections from now on,
            // before the fetch, so that none is missed.
            try db.startExternalChangeMonitoring()
            let fetched = try fetch(db)
            // Held strongly until `cancel()` or an error removes it: a weak
            // reference would cost a load, and slower reference counting,
            // on each statement and commit.
            db.add(transactionObserver: self, extent: .databaseLifetime)
            if pacing != nil {
                // Still on the writer's queue: no commit comes before this.
                pacer = db.observationBroker?.pacerForObservations
                lastFetchTime.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
            }
            if let lanes {
                // Its fetches will keep the WAL from restarting.
                db.paceAutomaticCheckpoints(pausing: lanes)
            }
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
        let reducer = fetchReducer
        let records: Bool
        switch observation.tracking {
        case .constantRegion: records = false
        case .constantRegionRecordedFromSelection: records = region == nil
        case .regionRecordedFromSelection: records = true
        }
        func run() throws -> Reducer.Fetched {
            guard records else { return try reducer._fetch(db) }
            let (fetched, region) = try db.recordingSelectedRegion { try reducer._fetch(db) }
            if region != self.region {
                setRegion(region)
            } else if lanes != nil {
                // The same region twice in a row: fetch on the readers.
                fetchesOnReaders = true
            }
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

    /// Reduces a fetched value now (immediate initial value), before any
    /// value fetched later.
    func reduceNow(_ fetched: Reducer.Fetched) -> Result<Reducer.Value?, any Error> {
        reduceQueue.sync { Result { try reducer._value(fetched) } }
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
        // The memo is nil while the region is (see `region`): the region is
        // only copied when the memo misses.
        if let lastObservedKind, lastObservedKind.kind.isSame(as: eventKind) {
            return lastObservedKind.observes
        }
        guard let region else { return true }
        let observes = region.isModified(byEventsOfKind: eventKind)
        lastObservedKind = (eventKind, observes)
        return observes
    }

    func databaseDidChange(with event: DatabaseEvent) {
        // The broker only reports changes of the kinds the region accepts
        // (`observes(eventsOfKind:)`): only row ids remain to check.
        if !regionRestrictsRowIDs || (region?.isModified(by: event) ?? true) {
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
        if let lanes, fetchesOnReaders {
            scheduleConcurrentFetch(lanes, afterCommit: db.observedCommitNumber)
            return
        }
        if let pacing, holdsFetchOnWriter(pacing) { return }
        do {
            reduceAndNotify(try fetch(db))
        } catch {
            notify(error)
        }
    }

    func databaseDidRollback(_ db: Database) {
        isModified = false
    }

    func externalChangesDidFail(_ error: any Error) {
        notify(error)
    }
}

/// The target queue of the reduce queues of every value observation.
private let valueObservationReductions = DispatchQueue(label: "Strata.ValueObservation.reductions")

// MARK: - Concurrent fetches

/// Where the concurrent fetch of a ``ValueObserver`` stands.
enum ConcurrentFetchState {
    /// No fetch is scheduled.
    case idle
    /// A fetch is scheduled or running.
    case scheduled
    /// A fetch is scheduled or running, and a commit happened since it was
    /// scheduled: one more fetch is needed, unless the scheduled one has
    /// not begun its transaction yet.
    case scheduledAndPending
    /// A fetch on a reader read another region than the observed one: the
    /// writer fetches next, and sees every commit made until then.
    case handedToWriter
    /// The pacer holds the next fetch (``ObservationPacing``); the pending
    /// flag is set, and commits are skipped.
    case paced
}

/// What follows a commit or the end of a fetch on a reader.
private enum NextConcurrentFetch {
    /// Nothing: a fetch to come sees the commit.
    case none
    /// A fetch on a reader.
    case now
    /// A fetch held by the pacer.
    case held
}

// MARK: - Pacing

extension ValueObserver {
    /// Whether a fetch asked for now runs at once: the last one was asked
    /// for longer than the maximum delay ago. It then counts as the last.
    private func fetchesAtOnce(_ pacing: PacingIntervals) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return lastFetchTime.withLock { last in
            guard now &- last >= pacing.maximumDelay else { return false }
            last = now
            return true
        }
    }

    private func recordFetchTime() {
        let now = DispatchTime.now().uptimeNanoseconds
        lastFetchTime.withLock { $0 = now }
    }

    /// After a commit, on the writer: unless the fetch runs at once, sets
    /// the pending flag and lets the pacer run the fetch later on the
    /// writer, where it sees every commit made until then.
    private func holdsFetchOnWriter(_ pacing: PacingIntervals) -> Bool {
        guard let pacer, !fetchesAtOnce(pacing) else { return false }
        fetchIsPendingHint.store(true)
        pacer.hold(pacing) { [self] in
            writer.asyncWriteWithoutTransaction { [self] db in
                // Between transactions: no commit is skipped after this.
                _ = fetchIsPendingHint.exchange(false)
                guard !isCancelled else { return }
                recordFetchTime()
                do {
                    reduceAndNotify(try fetch(db))
                } catch {
                    notify(error)
                }
            }
        }
        return true
    }
}

extension ValueObserver {
    /// Schedules a fetch on a reader, or marks the running one as stale.
    private func scheduleConcurrentFetch(_ lanes: ConcurrentReadLanes, afterCommit commitNumber: Int) {
        let next = fetchState.withLock { state -> NextConcurrentFetch in
            switch state {
            case .handedToWriter, .paced:
                // The writer's fetch, scheduled after this commit, or the
                // held fetch, sees it.
                return .none
            case .scheduled, .scheduledAndPending:
                state = .scheduledAndPending
                fetchIsPendingHint.store(true)
                return .none
            case .idle:
                if let pacing, !fetchesAtOnce(pacing) {
                    state = .paced
                    fetchIsPendingHint.store(true)
                    return .held
                }
                state = .scheduled
                return .now
            }
        }
        start(next, lanes, afterCommit: commitNumber)
    }

    /// Starts what `next` says: a fetch on a reader (reading the state of
    /// the commit `commitNumber` when a reader is free, see
    /// ``ConcurrentReadLanes/schedule(_:afterCommit:)``), or one held by
    /// the pacer.
    private func start(_ next: NextConcurrentFetch, _ lanes: ConcurrentReadLanes, afterCommit commitNumber: Int?) {
        switch next {
        case .none: break
        case .now: lanes.schedule(concurrentFetch(lanes), afterCommit: commitNumber)
        case .held: holdConcurrentFetch(lanes)
        }
    }

    /// Hands the next fetch on a reader to the pacer; the state is
    /// `.paced`, and the pending flag set.
    private func holdConcurrentFetch(_ lanes: ConcurrentReadLanes) {
        guard let pacing, let pacer else { return }
        pacer.hold(pacing) { [self] in
            recordFetchTime()
            // Still pending: the fetch clears the flag before it begins
            // its transaction (`willBegin`), and sees every commit so far.
            fetchState.withLock { state in state = .scheduledAndPending }
            lanes.schedule(concurrentFetch(lanes), afterCommit: nil)
        }
    }

    private func concurrentFetch(_ lanes: ConcurrentReadLanes) -> ConcurrentReadLanes.Job {
        ConcurrentReadLanes.Job(
            willBegin: { [self] in
                // The transaction that begins now sees every commit so far:
                // the commits that made this fetch pending are seen.
                fetchState.withLock { state in
                    if state == .scheduledAndPending {
                        state = .scheduled
                        _ = fetchIsPendingHint.exchange(false)
                    }
                }
            },
            read: { [self] result in
                // Only the fetch runs in the transaction. The rest runs after
                // it, with the other reads of the transaction: their values
                // reach the reduce queues and the schedulers together, and
                // wake their threads once, not once each.
                // nil when cancelled; a nil value when the writer must
                // fetch again (`handOverToWriter()`).
                var outcome: Result<Reducer.Fetched?, any Error>?
                if !isCancelled {
                    switch result {
                    case .success(let db): outcome = Result { try fetchOnReader(db) }
                    case .failure(let error): outcome = .failure(error)
                    }
                }
                return { [self, outcome] in
                    switch outcome {
                    case nil: break
                    case .success(let fetched?): reduceAndNotify(fetched)
                    case .success(nil):
                        handOverToWriter()
                        return
                    case .failure(let error): notify(error)
                    }
                    // Still `.scheduled`: a commit made since the fetch's
                    // transaction began schedules no other fetch before this
                    // value is on its way.
                    scheduleNextConcurrentFetch(lanes)
                }
            })
    }

    /// After a fetch on a reader: fetches again when a commit came since it
    /// began, at once or held by the pacer.
    private func scheduleNextConcurrentFetch(_ lanes: ConcurrentReadLanes) {
        let next = fetchState.withLock { state -> NextConcurrentFetch in
            guard state == .scheduledAndPending, !isCancelled else {
                _ = fetchIsPendingHint.exchange(false)
                state = .idle
                return .none
            }
            if let pacing, !fetchesAtOnce(pacing) {
                // The flag, set at a commit, stays set while the pacer
                // holds the fetch.
                state = .paced
                return .held
            }
            _ = fetchIsPendingHint.exchange(false)
            state = .scheduled
            return .now
        }
        start(next, lanes, afterCommit: nil)
    }

    /// Fetches on a reader. Returns nil when the fetch read another region
    /// than the observed one (an observation whose region may change): a
    /// commit made since the reader's snapshot to a table of the new region
    /// alone went unnoticed, so the value may be stale, and is discarded.
    private func fetchOnReader(_ db: Database) throws -> Reducer.Fetched? {
        guard case .regionRecordedFromSelection = observation.tracking else {
            // A constant region: recorded by the first fetch, on the writer.
            return try fetch(db)
        }
        events.willFetch?()
        db.instrument?.observationDidFetch(db)
        let reducer = fetchReducer
        // `region` is only set on the writer's queue, while no fetch runs on
        // a reader: it is stable here.
        let (fetched, recordedRegion) = try db.isolatedRead {
            try db.recordingSelectedRegion { try reducer._fetch(db) }
        }
        return recordedRegion == region ? fetched : nil
    }

    /// After a fetch on a reader read another region: the writer fetches
    /// again, records the new region, and goes on fetching until the region
    /// is stable again. The commits made until the writer's fetch need no
    /// other fetch: it sees them.
    private func handOverToWriter() {
        fetchState.withLock { state in
            state = .handedToWriter
            _ = fetchIsPendingHint.exchange(false)
        }
        writer.asyncWriteWithoutTransaction { [self] db in
            fetchesOnReaders = false
            isModified = false
            fetchState.withLock { state in state = .idle }
            guard !isCancelled else { return }
            do {
                reduceAndNotify(try fetch(db))
            } catch {
                notify(error)
            }
        }
    }
}
