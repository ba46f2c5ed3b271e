import Foundation
import Strata
import StrataTestSupport
import Testing

/// A pair read as `Decodable`.
private struct DecodedPair: Decodable, Equatable, Sendable, FetchableRecord {
    var a: Int
    var b: Int
}

/// A pair read by column name in `init(row:)`.
private struct NamedPair: Equatable, Sendable, FetchableRecord {
    var a: Int
    var b: Int

    init(a: Int, b: Int) {
        self.a = a
        self.b = b
    }

    init(row: Row) throws {
        a = row["a"]
        b = row["b"]
    }
}

/// What a statement caches about its columns (names, lookups, the columns
/// of coding keys) is forgotten when SQLite compiles it again after a schema
/// change: a `SELECT *` may then have other columns, in another order.
@Suite("A statement compiled again after a schema change reads its new columns")
struct StatementRecompilationTests {
    private static let reorderSQL = "DROP TABLE t; CREATE TABLE t(b, a); INSERT INTO t VALUES (2, 1)"

    @Test("A cached statement of a pool's reader, after the writer reorders the columns")
    func cachedStatementOfAReader() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makePool(directory, maximumReaderCount: 1)
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 2)") }
        @Sendable func readAll(_ db: Database) throws -> ([String], [DecodedPair], [NamedPair], Int) {
            let statement = try db.cachedStatement(sql: "SELECT * FROM t")
            let decoded = try DecodedPair.fetchAll(statement)
            let named = try NamedPair.fetchAll(statement)
            let a = try Row.fetchOne(statement)!["a"] as Int
            return (statement.columnNames, decoded, named, a)
        }
        let before = try await dbPool.read { db in try readAll(db) }
        #expect(before.0 == ["a", "b"])
        try await dbPool.write { db in try db.execute(sql: Self.reorderSQL) }
        let after = try await dbPool.read { db in try readAll(db) }
        #expect(after.0 == ["b", "a"])
        #expect(after.1 == [DecodedPair(a: 1, b: 2)])
        #expect(after.2 == [NamedPair(a: 1, b: 2)])
        #expect(after.3 == 1)
    }

    @Test("A statement kept by the application, after its own connection reorders the columns")
    func statementKeptAcrossASchemaChange() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 2)")
            let statement = try db.makeStatement(sql: "SELECT * FROM t")
            #expect(try DecodedPair.fetchAll(statement) == [DecodedPair(a: 1, b: 2)])
            #expect(try NamedPair.fetchAll(statement) == [NamedPair(a: 1, b: 2)])
            try db.execute(sql: Self.reorderSQL)
            #expect(try DecodedPair.fetchAll(statement) == [DecodedPair(a: 1, b: 2)])
            #expect(try NamedPair.fetchAll(statement) == [NamedPair(a: 1, b: 2)])
            #expect(statement.columnNames == ["b", "a"])
        }
    }
}
