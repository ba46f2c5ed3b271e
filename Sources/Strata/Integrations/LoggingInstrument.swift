#if Logging
    import Foundation
    import Logging

    /// Logs the life of connections through swift-log (``Configuration/logger``).
    ///
    /// What it costs is decided once per access, from the logger's level,
    /// read when the access starts (a change of level takes effect from the
    /// next access of each connection):
    /// - At `trace` (each statement's SQL) or `debug` (failed statements),
    ///   the connection times each statement.
    /// - Above `debug`, with a slow-statement threshold and at most
    ///   `warning`, each statement is timed (two clock reads), since any of
    ///   them may be slow, and no message is built unless it is.
    /// - Otherwise the instrument hears of no statement: no clock read, no
    ///   message, no metadata.
    ///
    /// A long-read threshold watches the reads of a pool's readers while the
    /// level is at most `warning`: the connection reads the clock when each
    /// access starts, and one timer at a time per connection (not one per
    /// access) checks the read that is open when it fires.
    ///
    /// One instance per connection: its level is only touched on the
    /// connection's queue.
    final class LoggingInstrument: DatabaseInstrument, @unchecked Sendable {
        let logger: Logger
        let slowStatementThreshold: TimeInterval?
        let publicStatementArguments: Bool
        private let longReads: LongReadWatch?
        /// The logger's level when the running access started.
        private var level: Logger.Level
        /// Whether `longReads` watches the running access.
        private var watchesAccess = false

        init(logger: Logger, configuration: Configuration) {
            self.logger = logger
            self.slowStatementThreshold = configuration.slowStatementThreshold
            self.publicStatementArguments = configuration.publicStatementArguments
            self.longReads = configuration.longReadTransactionThreshold.map {
                LongReadWatch(logger: logger, threshold: $0)
            }
            self.level = logger.logLevel
        }

        private func metadata(_ db: Database) -> Logger.Metadata {
            ["db.connection": "\(db.description)"]
        }

        /// The statements the connection times at `level`.
        private func timing(at level: Logger.Level) -> StatementTiming {
            if level <= .debug { return .every }
            if slowStatementThreshold != nil && level <= .warning { return .every }
            return .none
        }

        var statementTiming: StatementTiming { timing(at: level) }

        func statementTiming(during access: DatabaseAccessContext) -> StatementTiming {
            timing(at: level)
        }

        var timesAccesses: Bool { longReads != nil }

        func connectionDidOpen(_ db: Database) {
            logger.info("Opened database connection", metadata: metadata(db).merging(["db.path": "\(db.path)"]) { $1 })
        }

        func connectionDidClose(_ db: Database) {
            logger.info("Closed database connection", metadata: metadata(db))
        }

        func readerPoolDidGrow(label: String, count: Int, maximum: Int) {
            logger.info(
                "Opened reader \(count) of \(maximum)",
                metadata: ["db.connection": "\(label)", "db.readers": "\(count)"])
        }

        func statementDidExecute(_ statement: Statement, _ db: Database) {
            // Read before logging, so that the time of the trace log does not count.
            let duration = slowStatementThreshold == nil ? 0 : statement.instrumentedDuration
            if level <= .trace {
                logger.trace("\(statement.sql)", metadata: metadata(db))
            }
            if let slowStatementThreshold, level <= .warning, duration >= slowStatementThreshold {
                var metadata = metadata(db)
                metadata["db.duration"] = "\(String(format: "%.6f", duration))"
                metadata["db.query.text"] = "\(statement.sql)"
                if publicStatementArguments, !statement.arguments.isEmpty {
                    metadata["db.query.arguments"] = "\(statement.arguments)"
                }
                logger.warning(
                    "Slow statement (\(String(format: "%.3f", duration))s): \(statement.sql)", metadata: metadata)
            }
        }

        func statementDidFail(_ statement: Statement, _ db: Database, error: DatabaseError) {
            if level <= .debug {
                logger.debug("\(error)", metadata: metadata(db))
            }
        }

        func bookkeepingDidFail(_ db: Database, message: String) {
            logger.error("\(message)", metadata: metadata(db))
        }

        func diagnosticWasReported(_ db: Database, message: String) {
            logger.warning("\(message)", metadata: metadata(db))
        }

        func accessDidStart(_ access: DatabaseAccessContext, _ db: Database) {
            level = logger.logLevel
            // Reads of a pool: warn when they stay open too long.
            if access.role == .reader, let longReads, level <= .warning {
                longReads.accessDidStart(start: access.start, label: access.label)
                watchesAccess = true
            }
        }

        func accessDidEnd(_ access: DatabaseAccessContext, _ db: Database, error: (any Error)?) {
            if watchesAccess {
                watchesAccess = false
                longReads?.accessDidEnd()
            }
        }
    }

    /// Warns of the reads of one connection that stay open longer than a
    /// threshold, with one timer at a time: the timer armed for a read that
    /// has ended checks the read open when it fires, and arms itself again
    /// for the time that read reaches the threshold. An access pays a lock
    /// and a few stores; a timer is armed at most once per threshold.
    final class LongReadWatch: Sendable {
        private struct State {
            /// When the open read started (`DispatchTime` nanoseconds), or 0.
            var openSince: UInt64 = 0
            /// The label of the connection of the open read.
            var label = ""
            /// Counts the reads, so that each is warned of once.
            var generation: UInt64 = 0
            var warnedGeneration: UInt64 = 0
            /// Whether a timer is pending.
            var isArmed = false
        }

        private let logger: Logger
        private let threshold: TimeInterval
        private let state = Mutex(State())

        init(logger: Logger, threshold: TimeInterval) {
            self.logger = logger
            self.threshold = threshold
        }

        private var thresholdNanoseconds: UInt64 { UInt64(max(0, threshold) * 1e9) }

        func accessDidStart(start: UInt64, label: String) {
            let armsTimer = state.withLock { state in
                state.openSince = max(start, 1)
                state.label = label
                state.generation &+= 1
                if state.isArmed { return false }
                state.isArmed = true
                return true
            }
            if armsTimer { arm(at: start &+ thresholdNanoseconds) }
        }

        func accessDidEnd() {
            state.withLock { $0.openSince = 0 }
        }

        private func arm(at deadline: UInt64) {
            DispatchQueue.global().asyncAfter(deadline: DispatchTime(uptimeNanoseconds: deadline)) { [self] in
                check()
            }
        }

        /// The timer fired: warns of the open read if it reached the
        /// threshold, and arms again for the open read that has not yet.
        private func check() {
            let now = DispatchTime.now().uptimeNanoseconds
            enum Next { case disarm, warn(String), arm(UInt64) }
            let next: Next = state.withLock { state in
                guard state.openSince != 0, state.warnedGeneration != state.generation else {
                    state.isArmed = false
                    return .disarm
                }
                let deadline = state.openSince &+ thresholdNanoseconds
                if now >= deadline {
                    state.warnedGeneration = state.generation
                    state.isArmed = false
                    return .warn(state.label)
                }
                return .arm(deadline)
            }
            switch next {
            case .disarm:
                break
            case .warn(let label):
                logger.warning(
                    "Read access open for more than \(threshold)s: it prevents WAL checkpoints",
                    metadata: ["db.connection": "\(label)"])
            case .arm(let deadline):
                arm(at: deadline)
            }
        }
    }

    extension Database {
        /// Sends SQLite's error log (``Database/logError``) to a logger, as
        /// errors, with the result code. Call it before opening connections.
        ///
        /// ```swift
        /// Database.logErrors(to: Logger(label: "sqlite"))
        /// ```
        public static func logErrors(to logger: Logger) {
            logError = { resultCode, message in
                logger.error("\(message)", metadata: ["db.response.status_code": "\(resultCode.rawValue)"])
            }
        }
    }
#endif
