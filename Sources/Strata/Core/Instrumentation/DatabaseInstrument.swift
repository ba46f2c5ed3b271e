import Foundation

/// Receives the life of connections, accesses, statements and transactions,
/// for the opt-in integrations with swift-log, swift-metrics and
/// swift-distributed-tracing (package traits `Logging`, `Metrics` and
/// `Tracing`). Core only calls it when one is configured: without an
/// integration, a connection pays one nil check per event.
///
/// All methods have empty default implementations. Statement and access
/// events are called on the connection's queue; pool events from any thread.
///
/// Instruments are classes: a connection tests and copies its optional
/// instrument around every statement, and a class reference makes that a
/// pointer test instead of a copy of an existential through its value
/// witnesses (measured: 300 instructions per insert).
protocol DatabaseInstrument: AnyObject, Sendable {
    /// A connection was opened.
    func connectionDidOpen(_ db: Database)
    /// A connection was closed.
    func connectionDidClose(_ db: Database)
    /// A pool opened a new reader: it now has `count` of at most `maximum`.
    func readerPoolDidGrow(label: String, count: Int, maximum: Int)
    /// The number of leased readers of a pool changed.
    func readersInUseDidChange(label: String, count: Int)
    /// An access waited `seconds` for a reader of a pool.
    func readerWaitDidEnd(label: String, seconds: Double)

    /// An access is about to wait for its connection, on the caller's
    /// thread or task (whose task-local values it may capture).
    func accessWillWait(_ access: DatabaseAccessContext)
    /// The access starts on the connection's queue.
    func accessDidStart(_ access: DatabaseAccessContext, _ db: Database)
    /// The access ended, with the error it threw.
    func accessDidEnd(_ access: DatabaseAccessContext, _ db: Database, error: (any Error)?)

    /// A statement is about to be stepped for the first time.
    func statementWillExecute(_ statement: Statement, _ db: Database)
    /// A statement ran to completion.
    func statementDidExecute(_ statement: Statement, _ db: Database)
    /// A statement failed.
    func statementDidFail(_ statement: Statement, _ db: Database, error: DatabaseError)

    /// A transaction was committed or rolled back.
    func transactionDidEnd(_ db: Database, committed: Bool)
    /// A value observation fetched a value.
    func observationDidFetch(_ db: Database)
    /// The library's own bookkeeping failed (see ``Database/logError``).
    func bookkeepingDidFail(_ db: Database, message: String)

    /// A statement was compiled (for the statement cache, or not).
    func statementWasPrepared(_ statement: Statement, _ db: Database)
    /// A diagnostic found something the user should know (a query plan
    /// that scans a table...): the integrations log it as a warning.
    func diagnosticWasReported(_ db: Database, message: String)

    /// Which executions the instrument hears of (`statementWillExecute`,
    /// `statementDidExecute`...), timed: the connection reads the clock for
    /// those only.
    var statementTiming: StatementTiming { get }
    /// Which executions of the statements of `access` the instrument hears
    /// of, timed: asked once per access, after ``accessDidStart(_:_:)``, on
    /// the connection's queue; by default, ``statementTiming`` (which also
    /// applies outside of accesses). An instrument whose output would be thrown away
    /// during this access (a logger above `debug`, a no-op tracer) returns
    /// `.none`, and the connection reads no clock and makes no call for its
    /// statements.
    func statementTiming(during access: DatabaseAccessContext) -> StatementTiming
    /// Whether the instrument reads when accesses start to wait and start
    /// (``DatabaseAccessContext/waitStart`` and ``DatabaseAccessContext/start``):
    /// without one that does, the connection reads no clock for accesses.
    /// Read once, when a connection opens.
    var timesAccesses: Bool { get }
    /// Whether the instrument wants, at the end of each access, the
    /// statements of the statement cache that ran during it
    /// (`statementsDidRun`).
    var tracksStatementRuns: Bool { get }
    /// The cached statements that ran during the access that ends, each
    /// once, when `tracksStatementRuns`. (The others are not kept alive:
    /// with a `statementTiming` other than `none`, the instrument hears of
    /// each of their executions.)
    func statementsDidRun(_ statements: [Statement], _ db: Database)
    /// Whether the instrument wants ``walDidCommit(_:frameCount:)`` and the
    /// automatic checkpoints: the connections that write then get a WAL hook
    /// (``WALCommitRelay``). Read once, when a connection opens.
    var observesWALCommits: Bool { get }
    /// A commit left `frameCount` frames in the WAL of the main database
    /// (called from SQLite's WAL hook, before any automatic checkpoint).
    func walDidCommit(_ db: Database, frameCount: Int)
    /// A checkpoint of the main database ran: one of Strata's checkpoint
    /// methods (`mode`), or an automatic one (`mode` nil, only when
    /// ``observesWALCommits`` is true). `code` is SQLite's (`SQLITE_BUSY`
    /// when it was blocked); the counts are -1 when unknown.
    func walCheckpointDidRun(
        _ db: Database, mode: Database.CheckpointMode?, code: CInt, walFrameCount: Int, checkpointedFrameCount: Int)
}

/// Which executions of statements an instrument hears of, timed.
enum StatementTiming: Int, Comparable, Sendable {
    /// None: the instrument does not time statements.
    case none
    /// The first 16 executions of each compiled statement, then one in 8
    /// (the statement statistics: two clock reads would cost 7% of a
    /// one-row insert).
    case sampled
    /// All of them (metrics, tracing, logging).
    case every

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Who an access runs on.
enum DatabaseAccessRole: String, Sendable {
    /// The writer connection of a queue or a pool.
    case writer
    /// A reader connection of a pool, or a snapshot.
    case reader
}

/// One database access, from the moment it waits for its connection to its
/// end. Integrations attach their state (a span) to it.
final class DatabaseAccessContext: @unchecked Sendable {
    let role: DatabaseAccessRole
    /// The label of the connection's queue.
    let label: String
    /// When the access started to wait (`DispatchTime` nanoseconds), or 0
    /// when no instrument ``DatabaseInstrument/timesAccesses``.
    let waitStart: UInt64
    /// When the access started on its connection, or 0 when no instrument
    /// ``DatabaseInstrument/timesAccesses``.
    var start: UInt64 = 0
    /// State owned by the integrations, by key.
    var attachments: [String: Any] = [:]

    init(role: DatabaseAccessRole, label: String, timed: Bool) {
        self.role = role
        self.label = label
        self.waitStart = timed ? DispatchTime.now().uptimeNanoseconds : 0
    }
}

extension DatabaseInstrument {
    func connectionDidOpen(_ db: Database) {}
    func connectionDidClose(_ db: Database) {}
    func readerPoolDidGrow(label: String, count: Int, maximum: Int) {}
    func readersInUseDidChange(label: String, count: Int) {}
    func readerWaitDidEnd(label: String, seconds: Double) {}
    func accessWillWait(_ access: DatabaseAccessContext) {}
    func accessDidStart(_ access: DatabaseAccessContext, _ db: Database) {}
    func accessDidEnd(_ access: DatabaseAccessContext, _ db: Database, error: (any Error)?) {}
    func statementWillExecute(_ statement: Statement, _ db: Database) {}
    func statementDidExecute(_ statement: Statement, _ db: Database) {}
    func statementDidFail(_ statement: Statement, _ db: Database, error: DatabaseError) {}
    func transactionDidEnd(_ db: Database, committed: Bool) {}
    func observationDidFetch(_ db: Database) {}
    func bookkeepingDidFail(_ db: Database, message: String) {}
    func statementWasPrepared(_ statement: Statement, _ db: Database) {}
    func diagnosticWasReported(_ db: Database, message: String) {}
    var statementTiming: StatementTiming { .every }
    func statementTiming(during access: DatabaseAccessContext) -> StatementTiming { statementTiming }
    var timesAccesses: Bool { false }
    var tracksStatementRuns: Bool { false }
    func statementsDidRun(_ statements: [Statement], _ db: Database) {}
    var observesWALCommits: Bool { false }
    func walDidCommit(_ db: Database, frameCount: Int) {}
    func walCheckpointDidRun(
        _ db: Database, mode: Database.CheckpointMode?, code: CInt, walFrameCount: Int, checkpointedFrameCount: Int
    ) {}
}

/// Several instruments, called in order. One per connection: the
/// statements of an access go only to the instruments that asked for them
/// (`statementTiming(during:)` other than `.none`), so that one that throws
/// its output away (a no-op tracer) is not called for each statement because
/// another one times them.
final class CompositeDatabaseInstrument: DatabaseInstrument, @unchecked Sendable {
    let instruments: [any DatabaseInstrument]
    /// Bit `i` is set when `instruments[i]` hears of the statements of the
    /// running access (all of them outside of accesses). Only touched on the
    /// connection's queue.
    private(set) var statementListeners: UInt64
    /// The instruments that hear of statements outside of accesses: those
    /// whose `statementTiming` is not `.none`.
    private let defaultStatementListeners: UInt64

    init(instruments: [any DatabaseInstrument]) {
        precondition(instruments.count <= 64, "too many instruments")
        self.instruments = instruments
        var listeners: UInt64 = 0
        for (index, instrument) in instruments.enumerated() where instrument.statementTiming != .none {
            listeners |= 1 << UInt64(index)
        }
        self.statementListeners = listeners
        self.defaultStatementListeners = listeners
    }

    /// Calls `body` with each instrument that hears of statements now.
    @inline(__always)
    private func forEachStatementListener(_ body: (any DatabaseInstrument) -> Void) {
        var listeners = statementListeners
        while listeners != 0 {
            let index = listeners.trailingZeroBitCount
            body(instruments[index])
            listeners &= listeners &- 1
        }
    }

    func connectionDidOpen(_ db: Database) { for i in instruments { i.connectionDidOpen(db) } }
    func connectionDidClose(_ db: Database) { for i in instruments { i.connectionDidClose(db) } }
    func readerPoolDidGrow(label: String, count: Int, maximum: Int) {
        for i in instruments { i.readerPoolDidGrow(label: label, count: count, maximum: maximum) }
    }
    func readersInUseDidChange(label: String, count: Int) {
        for i in instruments { i.readersInUseDidChange(label: label, count: count) }
    }
    func readerWaitDidEnd(label: String, seconds: Double) {
        for i in instruments { i.readerWaitDidEnd(label: label, seconds: seconds) }
    }
    func accessWillWait(_ access: DatabaseAccessContext) { for i in instruments { i.accessWillWait(access) } }
    func accessDidStart(_ access: DatabaseAccessContext, _ db: Database) {
        for i in instruments { i.accessDidStart(access, db) }
    }
    func accessDidEnd(_ access: DatabaseAccessContext, _ db: Database, error: (any Error)?) {
        for i in instruments.reversed() { i.accessDidEnd(access, db, error: error) }
        statementListeners = defaultStatementListeners
    }
    func statementWillExecute(_ statement: Statement, _ db: Database) {
        forEachStatementListener { $0.statementWillExecute(statement, db) }
    }
    func statementDidExecute(_ statement: Statement, _ db: Database) {
        forEachStatementListener { $0.statementDidExecute(statement, db) }
    }
    func statementDidFail(_ statement: Statement, _ db: Database, error: DatabaseError) {
        forEachStatementListener { $0.statementDidFail(statement, db, error: error) }
    }
    func transactionDidEnd(_ db: Database, committed: Bool) {
        for i in instruments { i.transactionDidEnd(db, committed: committed) }
    }
    func observationDidFetch(_ db: Database) { for i in instruments { i.observationDidFetch(db) } }
    func bookkeepingDidFail(_ db: Database, message: String) {
        for i in instruments { i.bookkeepingDidFail(db, message: message) }
    }
    func statementWasPrepared(_ statement: Statement, _ db: Database) {
        for i in instruments { i.statementWasPrepared(statement, db) }
    }
    func diagnosticWasReported(_ db: Database, message: String) {
        for i in instruments { i.diagnosticWasReported(db, message: message) }
    }
    var statementTiming: StatementTiming { instruments.map(\.statementTiming).max() ?? .none }
    func statementTiming(during access: DatabaseAccessContext) -> StatementTiming {
        var timing = StatementTiming.none
        var listeners: UInt64 = 0
        for (index, instrument) in instruments.enumerated() {
            let instrumentTiming = instrument.statementTiming(during: access)
            if instrumentTiming != .none {
                listeners |= 1 << UInt64(index)
                timing = max(timing, instrumentTiming)
            }
        }
        statementListeners = listeners
        return timing
    }
    var timesAccesses: Bool { instruments.contains { $0.timesAccesses } }
    var tracksStatementRuns: Bool { instruments.contains { $0.tracksStatementRuns } }
    func statementsDidRun(_ statements: [Statement], _ db: Database) {
        for i in instruments { i.statementsDidRun(statements, db) }
    }
    var observesWALCommits: Bool { instruments.contains { $0.observesWALCommits } }
    func walDidCommit(_ db: Database, frameCount: Int) {
        for i in instruments { i.walDidCommit(db, frameCount: frameCount) }
    }
    func walCheckpointDidRun(
        _ db: Database, mode: Database.CheckpointMode?, code: CInt, walFrameCount: Int, checkpointedFrameCount: Int
    ) {
        for i in instruments {
            i.walCheckpointDidRun(
                db, mode: mode, code: code, walFrameCount: walFrameCount, checkpointedFrameCount: checkpointedFrameCount
            )
        }
    }
}
