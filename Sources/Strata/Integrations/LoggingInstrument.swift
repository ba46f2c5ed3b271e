#if Logging
    import Foundation
    import Logging

    /// Logs the life of connections through swift-log (``Configuration/logger``).
    final class LoggingInstrument: DatabaseInstrument {
        let logger: Logger
        let slowStatementThreshold: TimeInterval?
        let longReadTransactionThreshold: TimeInterval?
        let publicStatementArguments: Bool

        init(logger: Logger, configuration: Configuration) {
            self.logger = logger
            self.slowStatementThreshold = configuration.slowStatementThreshold
            self.longReadTransactionThreshold = configuration.longReadTransactionThreshold
            self.publicStatementArguments = configuration.publicStatementArguments
        }

        private func metadata(_ db: Database) -> Logger.Metadata {
            ["db.connection": "\(db.description)"]
        }

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
            let duration = statement.instrumentedDuration
            logger.trace("\(statement.sql)", metadata: metadata(db))
            if let slowStatementThreshold, duration >= slowStatementThreshold {
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
            logger.debug("\(error)", metadata: metadata(db))
        }

        func bookkeepingDidFail(_ db: Database, message: String) {
            logger.error("\(message)", metadata: metadata(db))
        }

        func diagnosticWasReported(_ db: Database, message: String) {
            logger.warning("\(message)", metadata: metadata(db))
        }

        func accessDidStart(_ access: DatabaseAccessContext, _ db: Database) {
            // Reads of a pool: warn when they stay open too long.
            guard access.role == .reader, let threshold = longReadTransactionThreshold else { return }
            let logger = self.logger
            let label = access.label
            let warning = DispatchWorkItem {
                logger.warning(
                    "Read access open for more than \(threshold)s: it prevents WAL checkpoints",
                    metadata: ["db.connection": "\(label)"])
            }
            access.attachments[Self.longReadKey] = warning
            DispatchQueue.global().asyncAfter(deadline: .now() + threshold, execute: warning)
        }

        func accessDidEnd(_ access: DatabaseAccessContext, _ db: Database, error: (any Error)?) {
            (access.attachments[Self.longReadKey] as? DispatchWorkItem)?.cancel()
        }

        private static let longReadKey = "logging.longRead"
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
