import Foundation
import Strata
import StrataTestSupport
import Testing

/// The values and errors of accesses, of any size and alignment, and the
/// statements that begin and commit their transactions (issue 46: the
/// connection writes an access's value in place, on the stack up to four
/// words and on the heap above, and keeps BEGIN and COMMIT apart from the
/// statement cache).
struct AccessValueTests {
    /// Five words: more than the connection keeps on the stack.
    struct Wide: Equatable, Sendable {
        var a, b, c, d, e: Int
    }

    /// A value that holds an object, to see it released once.
    struct Holder: Sendable {
        var object: Tracked
        var padding: (Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5)
    }

    final class Tracked: Sendable {}

    struct AccessError: Error, Equatable {}

    @Test(arguments: WriterKind.allCases)
    func syncAccessesReturnValuesOfAnySize(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.open(directory)
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (a INTEGER)") }
        try writer.write { _ in () }
        #expect(try writer.write { _ in 42 } == 42)
        #expect(try writer.read { _ in "a string longer than fifteen bytes" } == "a string longer than fifteen bytes")
        #expect(try writer.write { _ in (1, 2, 3, 4) } == (1, 2, 3, 4))
        #expect(try writer.read { _ in Wide(a: 1, b: 2, c: 3, d: 4, e: 5) } == Wide(a: 1, b: 2, c: 3, d: 4, e: 5))
        #expect(writer.writeWithoutTransaction { _ in SIMD4<Float>(1, 2, 3, 4) } == SIMD4<Float>(1, 2, 3, 4))
        weak var tracked: Tracked?
        do {
            let holder = try writer.write { _ in
                let object = Tracked()
                tracked = object
                return Holder(object: object)
            }
            #expect(tracked != nil)
            #expect(holder.padding.4 == 5)
        }
        #expect(tracked == nil)
    }

    @Test(arguments: WriterKind.allCases)
    func syncAccessesRethrowErrors(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.open(directory)
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (a INTEGER)") }
        #expect(throws: AccessError()) {
            try writer.write { db -> Wide in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw AccessError()
            }
        }
        #expect(throws: AccessError()) { try writer.read { _ -> Int in throw AccessError() } }
        // The failed write rolled back.
        #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test(arguments: WriterKind.allCases)
    func asyncAccessesReturnValuesAndErrors(_ kind: WriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.open(directory)
        try await writer.write { db in try db.execute(sql: "CREATE TABLE t (a INTEGER)") }
        let wide = Wide(a: 1, b: 2, c: 3, d: 4, e: 5)
        #expect(try await writer.write { _ in wide } == wide)
        #expect(try await writer.read { _ in SIMD4<Float>(1, 2, 3, 4) } == SIMD4<Float>(1, 2, 3, 4))
        await #expect(throws: AccessError()) {
            try await writer.write { db -> Int in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw AccessError()
            }
        }
        #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test(arguments: WriterKind.allCases)
    func transactionsBeginAndCommitAfterTheStatementCacheIsEmptied(_ kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let log = SQLLog()
        let writer = try kind.open(directory, configuration: log.configuration())
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (a INTEGER)") }
        let insert = { try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") } }
        try insert()
        writer.writeWithoutTransaction { db in db.releaseMemory() }
        try insert()
        writer.writeWithoutTransaction { db in db.clearSchemaCache() }
        log.clear()
        try insert()
        try writer.writeWithoutTransaction { db in
            try db.inTransaction(.exclusive) { .commit }
            try db.inTransaction(.deferred) { .commit }
        }
        #expect(
            log.statements(.all) == [
                "BEGIN IMMEDIATE TRANSACTION", "INSERT INTO t VALUES (1)", "COMMIT TRANSACTION",
                "BEGIN EXCLUSIVE TRANSACTION", "COMMIT TRANSACTION",
                "BEGIN DEFERRED TRANSACTION", "COMMIT TRANSACTION",
            ])
        #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 3)
    }
}
