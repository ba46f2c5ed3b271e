import Foundation
import Strata
import StrataTestSupport
import Testing

private func makeQueue() throws -> DatabaseQueue {
    let dbQueue = try inMemoryDatabase("CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
    return dbQueue
}

/// Errors of observations: where they are notified, and what they leave
/// in the database.
@Suite("ValueObservation errors")
@MainActor
struct ValueObservationErrorTests {
    @Test(
        ".immediate notifies an initial error once the access has ended: the handler can read",
        arguments: [false, true])
    func immediateInitialError(pool: Bool) throws {
        let directory = try TemporaryDirectory()
        let writer: any DatabaseWriter =
            pool ? try DatabasePool(path: directory.path("db.sqlite")) : try DatabaseQueue()
        try writer.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        var counts: [Int?] = []
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing") ?? 0
        }
        let cancellable = observation.start(
            in: writer, scheduling: .immediate,
            onError: { _ in
                counts.append(try? writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") })
            },
            onChange: { _ in Issue.record("Unexpected value") })
        #expect(counts == [0])
        cancellable.cancel()
    }

    @Test("An observation that writes without requiresWriteAccess fails with SQLITE_READONLY and the SQL")
    func writeWithoutWriteAccess() async throws {
        let dbQueue = try makeQueue()
        let recorder = ObservedValues<Int>()
        let cancellable = ValueObservation.tracking { db -> Int in
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            return 0
        }.start(
            in: dbQueue, scheduling: .async(onQueue: .global()), onError: recorder.record(error:),
            onChange: recorder.record)
        let error = try #require(await recorder.firstError() as? DatabaseError)
        #expect(error.resultCode == .SQLITE_READONLY)
        #expect(error.sql == "INSERT INTO player DEFAULT VALUES")
        #expect(try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
        cancellable.cancel()
    }

    @Test("An observation with requiresWriteAccess that throws rolls its writes back")
    func writeAccessRollback() async throws {
        struct Failure: Error {}
        let dbQueue = try makeQueue()
        let recorder = ObservedValues<Int>()
        var observation = ValueObservation.tracking { db -> Int in
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            throw Failure()
        }
        observation.requiresWriteAccess = true
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: .global()), onError: recorder.record(error:),
            onChange: recorder.record)
        #expect(await recorder.firstError() is Failure)
        #expect(try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
        #expect(dbQueue.inDatabase { db in db.isInsideTransaction } == false)
        cancellable.cancel()
    }

    @Test(".immediate notifies later values asynchronously, never during the write that triggered them")
    func immediateLaterValues() async throws {
        let dbQueue = try makeQueue()
        let values = ObservedValues<Int>()
        let cancellable = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0
        }.start(in: dbQueue, scheduling: .immediate, onError: { _ in }, onChange: values.record)
        #expect(values.values == [0])
        try dbQueue.inDatabase { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        #expect(values.values == [0])
        #expect(await values.wait { $0.count == 2 })
        #expect(values.values == [0, 1])
        cancellable.cancel()
    }
}
