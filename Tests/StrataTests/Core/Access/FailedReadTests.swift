import Foundation
import Strata
import StrataTestSupport
import Testing

/// A read whose closure throws (a missing record, a 404 in a server) ends
/// its transaction with COMMIT and keeps the connection's schema cache: the
/// next access runs its own statements only.
struct FailedReadTests {
    @Test(
        "A read that throws keeps the schema cache: the next access reads no schema",
        arguments: FailedReadAccess.allCases)
    func accessAfterFailedRead(access: FailedReadAccess) async throws {
        let directory = try TemporaryDirectory()
        let log = SQLLog()
        let fixture = try access.open(directory, log: log)
        let fetch: @Sendable (Database) throws -> Novel? = { db in try Novel.fetchOne(db, id: 1) }
        _ = try await fixture.run(fetch)  // Fills the schema cache.

        log.clear()
        do {
            _ = try await fixture.run { db in try Novel.find(db, id: 404) }
            Issue.record("RecordError expected")
        } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
            // The error of the closure reaches the caller unchanged.
            #expect(table == "novel")
            #expect(key == ["id": 404.databaseValue])
        }
        #expect(!log.statements().contains { $0.uppercased().hasPrefix("ROLLBACK") })

        log.clear()
        #expect(try await fixture.run(fetch)?.title == "Dune")
        let afterFailure = log.statements()
        log.clear()
        _ = try await fixture.run(fetch)
        let afterSuccess = log.statements()
        #expect(!afterFailure.contains(where: isSchemaIntrospection))
        #expect(afterFailure == afterSuccess)
    }

    @Test(
        "A read that throws inside an explicit write transaction still rolls back its changes",
        arguments: WriterKind.allCases)
    func failedReadInWriteTransaction(kind: WriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.open(directory)
        try await writer.write { db in try createNovels(db) }
        await #expect(throws: RecordError.self) {
            try await writer.write { db in
                try db.execute(sql: "INSERT INTO novel (id, title) VALUES (2, 'Emma')")
                try db.create(table: "author") { t in t.autoIncrementedPrimaryKey("id") }
                #expect(try db.tableExists("author"))
                return try Novel.find(db, id: 404)
            }
        }
        let (count, authorExists) = try await writer.writeWithoutTransaction { db in
            (try Novel.fetchCount(db), try db.tableExists("author"))
        }
        #expect(count == 1)
        // The rolled back transaction changed the schema: the cache forgot it.
        #expect(!authorExists)
    }

    @Test(
        "A write transaction rolled back without any schema change keeps the schema cache",
        arguments: WriterKind.allCases)
    func rollbackWithoutSchemaChange(kind: WriterKind) async throws {
        let directory = try TemporaryDirectory()
        let log = SQLLog()
        let writer = try kind.open(directory, configuration: log.configuration())
        try await writer.write { db in try createNovels(db) }
        let fetch: @Sendable (Database) throws -> Novel? = { db in try Novel.fetchOne(db, id: 1) }
        _ = try await writer.write(fetch)  // Fills the schema cache.
        await #expect(throws: RecordError.self) {
            try await writer.write { db in
                try Novel(id: 2, title: "Emma").insert(db)
                return try Novel.find(db, id: 404)
            }
        }
        log.clear()
        #expect(try await writer.write(fetch)?.title == "Dune")
        #expect(!log.statements().contains(where: isSchemaIntrospection))
        #expect(try await writer.read { db in try Novel.fetchCount(db) } == 1)
    }

    @Test(
        "A savepoint rolled back after an error forgets the schema changes it made",
        arguments: WriterKind.allCases)
    func failedSavepoint(kind: WriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.open(directory)
        try await writer.write { db in
            try createNovels(db)
            #expect(try !db.tableExists("author"))
            do {
                try db.inSavepoint {
                    try db.create(table: "author") { t in t.autoIncrementedPrimaryKey("id") }
                    #expect(try db.tableExists("author"))
                    _ = try Novel.find(db, id: 404)
                    return .commit
                }
                Issue.record("RecordError expected")
            } catch is RecordError {}
            #expect(try !db.tableExists("author"))
        }
    }
}

/// The statements that read the schema: they should run once per
/// connection, not after every failed read.
private func isSchemaIntrospection(_ sql: String) -> Bool {
    let lowercased = sql.lowercased()
    return ["database_list", "table_xinfo", "table_info", "index_list", "index_info", "foreign_key_list"]
        .contains { lowercased.contains($0) }
        || lowercased.hasPrefix("select type, name, tbl_name from")
}

private struct Novel: Codable, FetchableRecord, PersistableRecord, Identifiable {
    var id: Int64
    var title: String
}

private func createNovels(_ db: Database) throws {
    try db.create(table: "novel") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("title", .text).notNull().indexed()
    }
    try Novel(id: 1, title: "Dune").insert(db)
}

/// The read accesses that run a closure which may throw.
enum FailedReadAccess: String, CaseIterable, Sendable, CustomStringConvertible {
    case poolRead, poolAsyncRead, poolUnsafeRead, poolAsyncUnsafeRead
    case queueRead, queueAsyncRead, queueUnsafeRead, queueAsyncUnsafeRead
    case snapshotRead, snapshotAsyncRead

    var description: String { rawValue }

    /// Opens the database of the access, with one novel, recording the
    /// statements of its connections in `log`. Pools have one reader, so
    /// that successive reads use the same connection.
    func open(_ directory: TemporaryDirectory, log: SQLLog) throws -> FailedReadFixture {
        var configuration = log.configuration()
        configuration.maximumReaderCount = 1
        let path = directory.path("db.sqlite")
        switch self {
        case .poolRead, .poolAsyncRead, .poolUnsafeRead, .poolAsyncUnsafeRead:
            let pool = try DatabasePool(path: path, configuration: configuration)
            try pool.write(createNovels)
            return FailedReadFixture(access: self, reader: pool, owner: pool)
        case .queueRead, .queueAsyncRead, .queueUnsafeRead, .queueAsyncUnsafeRead:
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.write(createNovels)
            return FailedReadFixture(access: self, reader: queue, owner: queue)
        case .snapshotRead, .snapshotAsyncRead:
            let pool = try DatabasePool(path: path, configuration: configuration)
            try pool.write(createNovels)
            return FailedReadFixture(access: self, reader: try pool.makeSnapshot(), owner: pool)
        }
    }
}

/// A reader, and how a test accesses it.
struct FailedReadFixture {
    let access: FailedReadAccess
    let reader: any DatabaseReader
    /// Keeps the pool of a snapshot open.
    let owner: any DatabaseReader

    func run<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        switch access {
        case .poolRead, .queueRead, .snapshotRead:
            return try syncRead(body)
        case .poolAsyncRead, .queueAsyncRead, .snapshotAsyncRead:
            return try await reader.read(body)
        case .poolUnsafeRead, .queueUnsafeRead:
            return try syncUnsafeRead(body)
        case .poolAsyncUnsafeRead, .queueAsyncUnsafeRead:
            return try await reader.unsafeRead(body)
        }
    }

    /// The blocking `read`, which an async function can't name.
    private func syncRead<T>(_ body: (Database) throws -> T) throws -> T {
        try reader.read(body)
    }

    /// The blocking `unsafeRead`, which an async function can't name.
    private func syncUnsafeRead<T>(_ body: (Database) throws -> T) throws -> T {
        try reader.unsafeRead(body)
    }
}
