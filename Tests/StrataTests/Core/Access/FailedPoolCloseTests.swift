import Foundation
import Strata
import StrataTestSupport
import Testing

// A pool whose close fails because a statement of its writer is alive stays
// open: writes and reads keep working, and a later close succeeds.

struct FailedPoolCloseTests {
    @Test("B18: after a close that fails on a live writer statement, the pool writes and reads")
    func failedCloseLeavesPoolUsable() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        // An idle reader exists when the pool closes.
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
        var statement: Statement? = try dbPool.writeWithoutTransaction { try $0.makeStatement(sql: "SELECT 1") }
        #expect {
            try dbPool.close()
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_BUSY
        }
        try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
        statement = nil
        _ = statement
        try dbPool.close()
        #expect(throws: DatabaseError.self) { try dbPool.read { _ in } }
        #expect(throws: DatabaseError.self) { try dbPool.write { _ in } }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("B18: after a close that fails on a live writer statement, the pool reads asynchronously")
    func failedCloseLeavesPoolUsableAsync() async throws {
        let directory = try TemporaryDirectory()
        let (dbPool, statement) = try Self.poolAfterFailedClose(directory)
        try await dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try await dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
        _ = statement
    }

    /// A pool whose close failed, and the writer statement that made it fail.
    private static func poolAfterFailedClose(_ directory: TemporaryDirectory) throws -> (DatabasePool, Statement) {
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"))
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        _ = try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
        let statement = try dbPool.writeWithoutTransaction { try $0.makeStatement(sql: "SELECT 1") }
        #expect(throws: DatabaseError.self) { try dbPool.close() }
        return (dbPool, statement)
    }
}
