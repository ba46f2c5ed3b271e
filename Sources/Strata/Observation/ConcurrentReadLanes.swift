import Dispatch
import Foundation

/// Where the catch-ups of every pool ask for a reader: a reader comes to
/// them in a callback, so they only wait here while a new reader opens.
/// Shared, so that a pool costs no queue of its own.
private let concurrentReadCatchUps = DispatchQueue(label: "Strata.ConcurrentReadLanes")

/// Runs the reads that a ``DatabasePool`` schedules from its writer after a
/// commit (the fetches of value observations) on its readers, without
/// holding the writer.
///
/// - After a commit, the writer opens one read transaction on a reader that
///   is available without waiting (idle, or opened now), and waits only until
///   it has begun: every read scheduled for this commit runs in that
///   transaction, and sees the state right after the commit.
/// - When no reader is available, the writer does not wait: the read runs
///   later, in a transaction that sees the state of that time, at least as
///   recent. Such reads are run together, in one transaction.
/// - At most `laneCount` transactions run reads at once (one per spare
///   processor), so that the writer keeps a processor for itself. The others
///   keep their state, and wait for a lane.
/// - At most `laneCount + 1` transactions of commits hold a reader at once:
///   the other reads of a commit storm wait for a later state, and leave the
///   other readers to the application.
/// - Reads that never stop keep the WAL from restarting: it would grow
///   without end. When the writer's checkpoints can't catch up
///   (``CheckpointPacer``), it asks for a pause: no transaction begins until
///   the open ones have ended and the writer has checkpointed the whole WAL,
///   so that its next commit restarts it. The writer does not wait: the
///   reads do, for about one transaction.
final class ConcurrentReadLanes: @unchecked Sendable {
    /// A scheduled read.
    struct Job: Sendable {
        /// Called on the reader, before the transaction of a read that could
        /// not begin right after its commit.
        let willBegin: @Sendable () -> Void
        /// Called on the reader, inside the transaction, or with the error
        /// that prevented it. Returns what to do once the transaction has
        /// ended: called then, in the order of the reads, after all the
        /// reads of the transaction.
        let read: @Sendable (Result<Database, any Error>) -> (@Sendable () -> Void)
    }

    /// The reads of one commit, in the transaction that began right after
    /// it. Its mutable fields are only touched under the lock of `state`.
    private final class Batch: @unchecked Sendable {
        let commitNumber: Int
        var jobs: [Job]
        /// Set once its reads are done: later reads need a new transaction.
        var isClosed = false

        init(commitNumber: Int, job: Job) {
            self.commitNumber = commitNumber
            self.jobs = [job]
        }
    }

    private struct State {
        /// The batch of the last commit, while it accepts reads.
        var openBatch: Batch?
        /// Reads that found no reader available.
        var waitingJobs: [Job] = []
        /// Whether a transaction is scheduled for `waitingJobs`.
        var isCatchingUp = false
        /// The batches that hold a reader.
        var batchCount = 0
        /// Whether the catch-up runs a transaction.
        var isCatchUpReading = false
        /// Whether transactions wait for the writer's checkpoint
        /// (``pauseForWALRestart()``).
        var isPaused = false
        /// Whether the checkpoint that ends the pause is scheduled.
        var isCheckpointScheduled = false

        /// Whether no transaction is open.
        var isIdle: Bool { batchCount == 0 && !isCatchUpReading }

        /// During a pause, once no transaction is open: schedules the
        /// checkpoint, once. Returns whether the caller must run it.
        mutating func schedulesCheckpoint() -> Bool {
            guard isPaused, isIdle, !isCheckpointScheduled else { return false }
            isCheckpointScheduled = true
            return true
        }
    }

    private let readerPool: ReaderPool
    private let lanes: DispatchSemaphore
    /// The maximum number of batches that hold a reader.
    private let maximumBatchCount: Int
    private let state = Mutex(State())
    /// The writer of the pool, which checkpoints at the end of a pause.
    /// Weak: its connection holds the pacer, which holds these lanes.
    weak var writer: SerializedDatabase?

    /// - Parameters:
    ///   - readerPool: the readers of the pool.
    ///   - maximumReaderCount: the maximum number of readers of the pool.
    init(readerPool: ReaderPool, maximumReaderCount: Int) {
        self.readerPool = readerPool
        let spareProcessors = ProcessInfo.processInfo.activeProcessorCount - 1
        let laneCount = max(1, min(maximumReaderCount, spareProcessors))
        lanes = DispatchSemaphore(value: laneCount)
        maximumBatchCount = laneCount + 1
    }

    /// Schedules `job`. From the writer queue, right after the commit number
    /// `commitNumber` (``Database/observedCommitNumber``), the job reads the
    /// state of that commit whenever a reader is available without waiting.
    /// Otherwise, it reads a later state.
    func schedule(_ job: Job, afterCommit commitNumber: Int?) {
        guard let commitNumber else {
            scheduleLater(job)
            return
        }
        enum Placement { case joined, newBatch, later }
        let placement = state.withLock { state -> Placement in
            if state.isPaused { return .later }
            if let batch = state.openBatch, batch.commitNumber == commitNumber, !batch.isClosed {
                batch.jobs.append(job)
                return .joined
            }
            guard state.batchCount < maximumBatchCount else { return .later }
            state.batchCount += 1
            return .newBatch
        }
        switch placement {
        case .joined: return
        case .later:
            scheduleLater(job)
            return
        case .newBatch: break
        }
        guard let reader = readerPool.acquireWithoutWaiting() else {
            batchDidEnd()
            scheduleLater(job)
            return
        }
        let batch = Batch(commitNumber: commitNumber, job: job)
        state.withLock { $0.openBatch = batch }
        let isolated = DispatchSemaphore(value: 0)
        reader.async { [self] db in
            defer {
                readerPool.release(reader)
                batchDidEnd()
            }
            do {
                try db.beginIsolatedReadTransaction()
            } catch {
                isolated.signal()
                for job in close(batch) { job.read(.failure(error))() }
                return
            }
            isolated.signal()
            lanes.wait()
            defer { lanes.signal() }
            var completions: [@Sendable () -> Void] = []
            while let job = nextJob(of: batch) {
                completions.append(job.read(.success(db)))
            }
            db.endIsolatedReadTransaction()
            for completion in completions { completion() }
        }
        isolated.wait()
    }

    /// Forgets a batch that no longer holds a reader.
    private func batchDidEnd() {
        let checkpoints = state.withLock { state -> Bool in
            state.batchCount -= 1
            return state.schedulesCheckpoint()
        }
        if checkpoints { checkpointAndResume() }
    }

    /// The next read of `batch`, or nil after closing it. During a pause,
    /// the remaining reads wait for a later transaction, so that the open
    /// one ends soon.
    private func nextJob(of batch: Batch) -> Job? {
        state.withLock { state in
            if state.isPaused {
                state.waitingJobs.insert(contentsOf: batch.jobs, at: 0)
                batch.jobs = []
            }
            if batch.jobs.isEmpty {
                batch.isClosed = true
                return nil
            }
            return batch.jobs.removeFirst()
        }
    }

    /// Closes `batch`, and returns its remaining reads.
    private func close(_ batch: Batch) -> [Job] {
        state.withLock { _ in
            batch.isClosed = true
            defer { batch.jobs = [] }
            return batch.jobs
        }
    }

    /// Runs `job` when a reader and a lane are available, with the other
    /// waiting reads, in a transaction that begins then.
    private func scheduleLater(_ job: Job) {
        let startsCatchUp = state.withLock { state -> Bool in
            state.waitingJobs.append(job)
            return Self.startsCatchUp(&state)
        }
        if startsCatchUp { startCatchUp() }
    }

    /// Whether a catch-up must start for the waiting reads: none runs, and
    /// no pause holds them.
    private static func startsCatchUp(_ state: inout State) -> Bool {
        guard !state.isCatchingUp, !state.isPaused, !state.waitingJobs.isEmpty else { return false }
        state.isCatchingUp = true
        return true
    }

    /// Runs the waiting reads on a reader.
    private func startCatchUp() {
        // Waiting for a reader, or opening one, must not hold the writer;
        // nor depend on the global queue, whose threads are those of Swift's
        // tasks, which an app may block with synchronous accesses.
        concurrentReadCatchUps.async { [self] in
            readerPool.acquire { [self] result in
                switch result {
                case .success(let reader):
                    reader.async { [self] db in
                        defer { readerPool.release(reader) }
                        catchUp(db)
                    }
                case .failure(let error):
                    for job in takeWaitingJobs(finishing: true) { job.read(.failure(error))() }
                }
            }
        }
    }

    /// Runs the waiting reads, in transactions that begin after their
    /// `willBegin`, until none is left. Each transaction takes a lane of its
    /// own, so that the transactions of commits run in between.
    private func catchUp(_ db: Database) {
        while true {
            lanes.wait()
            defer { lanes.signal() }
            let jobs = takeWaitingJobs(finishing: false)
            if jobs.isEmpty { return }
            for job in jobs { job.willBegin() }
            do {
                try db.beginIsolatedReadTransaction()
            } catch {
                for job in jobs { job.read(.failure(error))() }
                catchUpTransactionDidEnd()
                continue
            }
            var completions: [@Sendable () -> Void] = []
            for (index, job) in jobs.enumerated() {
                if index > 0, deferIfPaused(jobs[index...]) { break }
                completions.append(job.read(.success(db)))
            }
            db.endIsolatedReadTransaction()
            for completion in completions { completion() }
            catchUpTransactionDidEnd()
        }
    }

    /// The waiting reads. When there are none, or when `finishing`, or
    /// during a pause, the catch-up ends: the next waiting read (or the end
    /// of the pause) starts a new one. Otherwise the catch-up reads them in
    /// a transaction, and calls `catchUpTransactionDidEnd()` after it.
    private func takeWaitingJobs(finishing: Bool) -> [Job] {
        state.withLock { state in
            if state.isPaused && !finishing {
                state.isCatchingUp = false
                return []
            }
            let jobs = state.waitingJobs
            state.waitingJobs = []
            if jobs.isEmpty || finishing {
                state.isCatchingUp = false
            } else {
                state.isCatchUpReading = true
            }
            return jobs
        }
    }

    /// During a pause, puts `jobs` back at the head of the waiting reads,
    /// so that the open transaction ends soon, and returns true.
    private func deferIfPaused(_ jobs: ArraySlice<Job>) -> Bool {
        state.withLock { state in
            guard state.isPaused else { return false }
            state.waitingJobs.insert(contentsOf: jobs, at: 0)
            return true
        }
    }

    private func catchUpTransactionDidEnd() {
        let checkpoints = state.withLock { state -> Bool in
            state.isCatchUpReading = false
            return state.schedulesCheckpoint()
        }
        if checkpoints { checkpointAndResume() }
    }

    // MARK: - Pauses for the WAL

    /// Pauses the transactions until the open ones have ended and the writer
    /// has checkpointed, so that the writer's next commit can restart the
    /// WAL. Called by the writer (``CheckpointPacer``), which does not wait.
    func pauseForWALRestart() {
        let checkpoints = state.withLock { state -> Bool in
            guard !state.isPaused else { return false }
            state.isPaused = true
            return state.schedulesCheckpoint()
        }
        if checkpoints { checkpointAndResume() }
    }

    /// Checkpoints on the writer while no transaction of these lanes is
    /// open, then ends the pause.
    private func checkpointAndResume() {
        guard let writer else {
            endPause()
            return
        }
        writer.async { [self] db in
            db.checkpointPacer?.checkpointForWALRestart(db)
            endPause()
        }
    }

    /// Ends a pause. Transactions that begin before the next commit read
    /// the database file, not the WAL: they don't prevent its restart.
    private func endPause() {
        let startsCatchUp = state.withLock { state -> Bool in
            state.isPaused = false
            state.isCheckpointScheduled = false
            return Self.startsCatchUp(&state)
        }
        if startsCatchUp { startCatchUp() }
    }
}
