import Foundation
import Strata
import Testing

private func makeQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
    }
    return dbQueue
}

/// Errors of observations: where they are notified, and what they leave
/// in the database.
@Suite("ValueObservation errors")
@MainActor
struct ValueObservationErrorTests {
    @Test(".immediate notifies an initial error once the access has ended: the handler can read", arguments: [false, true])
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
        let recorder = ErrorRecorder()
        let cancellable = ValueObservation.tracking { db -> Int in
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            return 0
        }.start(in: dbQueue, scheduling: .async(onQueue: .global()), onError: recorder.record, onChange: { _ in })
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
        let recorder = ErrorRecorder()
        var observation = ValueObservation.tracking { db -> Int in
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            throw Failure()
        }
        observation.requiresWriteAccess = true
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: .global()), onError: recorder.record, onChange: { _ in })
        #expect(await recorder.firstError() is Failure)
        #expect(try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
        #expect(dbQueue.inDatabase { db in db.isInsideTransaction } == false)
        cancellable.cancel()
    }

    @Test(".immediate notifies later values asynchronously, never during the write that triggered them")
    func immediateLaterValues() async throws {
        let dbQueue = try makeQueue()
        var values: [Int] = []
        let cancellable = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0
        }.start(in: dbQueue, scheduling: .immediate, onError: { _ in }, onChange: { values.append($0) })
        #expect(values == [0])
        try dbQueue.inDatabase { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        #expect(values == [0])
        for _ in 0..<500 where values.count < 2 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(values == [0, 1])
        cancellable.cancel()
    }
}

/// Waits for the first error of an observation.
private final class ErrorRecorder: Sendable {
    private let stream: AsyncStream<any Error>
    private let continuation: AsyncStream<any Error>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    var record: @Sendable (any Error) -> Void {
        { [continuation] in continuation.yield($0) }
    }

    /// The first error, or nil when none came in 10 seconds.
    func firstError() async -> (any Error)? {
        let stream = self.stream
        return await withTaskGroup(of: (any Error)?.self) { group in
            group.addTask {
                for await error in stream { return error }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
