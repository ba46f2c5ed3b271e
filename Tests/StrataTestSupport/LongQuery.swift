import Dispatch
import Foundation
import Strata

/// A statement that runs for seconds and tells when it is running, so that
/// tests interrupt or cancel it only once it has started (an interruption
/// before the statement steps would be lost, and the test would wait).
package final class LongQuery: @unchecked Sendable {
    package init() {}

    /// Whether the statement runs: set by `signal_started()`, from the
    /// connection's thread. Waiting on it takes no thread: a semaphore waited
    /// on by a block of the global queue could start late when the suite
    /// keeps that queue's threads busy, and the cancellation would then reach
    /// a statement that had already ended.
    package let started = Waitable(false)

    /// Counts to 50 million, calling `signal_started()` on the first row.
    package static let selectSQL = """
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50000000)
        SELECT MAX(x) FROM c WHERE CASE WHEN x = 1 THEN signal_started() ELSE 1 END
        """

    /// Inserts 50 million rows in `t`, calling `signal_started()` on the first row.
    package static let insertSQL = """
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50000000)
        INSERT INTO t SELECT x FROM c WHERE CASE WHEN x = 1 THEN signal_started() ELSE 1 END
        """

    /// A configuration whose connections know `signal_started()`.
    package var configuration: Configuration {
        var configuration = Configuration()
        let started = self.started
        configuration.prepareDatabase { db in
            db.add(
                function: DatabaseFunction("signal_started", argumentCount: 0) { _ in
                    started.update { $0 = true }
                    return 1
                })
        }
        return configuration
    }

    /// Waits, without blocking the task, until the statement runs.
    package func waitUntilStarted() async throws {
        try await started.wait("the long statement runs", timeout: .seconds(120)) { $0 }
    }
}

extension LongQuery {
    /// Starts a task that runs ``selectSQL`` in a read of `reader`, and
    /// returns it once the statement runs.
    package func startRead(_ reader: some DatabaseReader) async throws -> Task<Int?, any Error> {
        let task = Task { try await reader.read { try Int.fetchOne($0, sql: Self.selectSQL) } }
        try await waitUntilStarted()
        return task
    }

    /// Starts a task that runs ``insertSQL`` in a write of `writer`, and
    /// returns it once the statement runs.
    package func startInsert(_ writer: some DatabaseWriter) async throws -> Task<Void, any Error> {
        let task = Task { try await writer.write { try $0.execute(sql: Self.insertSQL) } }
        try await waitUntilStarted()
        return task
    }
}
