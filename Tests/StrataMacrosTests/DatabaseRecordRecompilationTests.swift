#if Macros
    import Foundation
    import Strata
    import StrataTestSupport
    import Testing

    /// A pair read by the macro's `init(row:)`.
    @DatabaseRecord
    private struct MacroPair: Equatable, Sendable, FetchableRecord {
        var a: Int
        var b: Int
    }

    /// The column indexes that a `@DatabaseRecord` type keeps in a statement
    /// are forgotten when SQLite compiles the statement again after a schema
    /// change: a `SELECT *` may then have other columns, in another order.
    @Suite("@DatabaseRecord reads the new columns of a statement compiled again")
    struct DatabaseRecordRecompilationTests {
        @Test("A cached statement of a pool's reader, after the writer reorders the columns")
        func cachedStatementOfAReader() async throws {
            let directory = try TemporaryDirectory()
            let dbPool = try makePool(directory, maximumReaderCount: 1)
            try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 2)") }
            let before = try await dbPool.read { db in
                try MacroPair.fetchAll(db.cachedStatement(sql: "SELECT * FROM t"))
            }
            #expect(before == [MacroPair(a: 1, b: 2)])
            try await dbPool.write { db in
                try db.execute(sql: "DROP TABLE t; CREATE TABLE t(b, a); INSERT INTO t VALUES (2, 1)")
            }
            let after = try await dbPool.read { db in try MacroPair.fetchAll(db.cachedStatement(sql: "SELECT * FROM t"))
            }
            #expect(after == [MacroPair(a: 1, b: 2)])
        }
    }
#endif
