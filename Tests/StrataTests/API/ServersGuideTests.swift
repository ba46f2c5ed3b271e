import Strata
import StrataTestSupport
import Testing

/// Runs the samples of `Sources/Strata/Strata.docc/Servers.md`
/// (`ArticleSampleTests` checks that each one is here). The pool at the
/// server's path is compiled, not run; the checkpoint runs on a pool of a
/// temporary directory. The manifest excerpt is not Swift a test can hold.
struct ServersGuideTests {
    /// What the sample's `logger` is given (a swift-log `Logger` in the
    /// article).
    final class NoticeRecorder {
        var notices: [String] = []
        func notice(_ message: String) { notices.append(message) }
    }

    func serverPool() throws -> DatabasePool {
        let dbPool = try DatabasePool(path: "/var/lib/app/db.sqlite", configuration: .server())
        return dbPool
    }

    @Test func checkpointReport() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: .server())
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        let logger = NoticeRecorder()

        let result = try dbPool.walCheckpoint(.truncate)
        if !result.isComplete {
            logger.notice("WAL checkpoint blocked by a reader; WAL is \(result.walSize) bytes")
        }

        // No reader blocks it: the WAL is truncated, and nothing is logged.
        #expect(result.isComplete)
        #expect(result.walSize == 0)
        #expect(logger.notices.isEmpty)
    }
}
