#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
    import OpenCombineDispatch
#endif

#if canImport(Combine) || OpenCombine
    import Dispatch
    import Foundation
    import Strata
    import StrataTestSupport
    import Testing

    @Suite("Combine: readPublisher and writePublisher")
    struct CombineReadWriteTests {
        @Test("The main queue runs while tests run")
        func mainQueueRuns() async throws {
            let ran = Waitable<String?>(nil)
            _ = TestQueues.current
            DispatchQueue.main.async { ran.update { $0 = TestQueues.current } }
            try await ran.wait("main queue") { $0 != nil }
            #expect(ran.value == "main")
        }

        @Test(
            "readPublisher reads once per subscription, only when subscribed, and delivers on the main queue",
            arguments: WriterKind.allCases)
        func readPublisher(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            try await writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Arthur'), ('Barbara')") }
            let accesses = Counter()
            let publisher = writer.readPublisher { db in
                accesses.increment()
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            }
            #expect(accesses.value == 0)

            let first = try await publisher.recordUntilCompletion()
            #expect(first.values == [2])
            #expect(first.state.value.isFinished)
            #expect(first.state.value.valueQueues == ["main"])
            #expect(first.state.value.completionQueue == "main")
            #expect(accesses.value == 1)

            let second = try await publisher.recordUntilCompletion()
            #expect(second.values == [2])
            #expect(accesses.value == 2)
        }

        @Test("readPublisher delivers on the scheduler it is given", arguments: WriterKind.allCases)
        func readPublisherReceiveOn(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            let queue = TestQueues.make("read-receive-on")
            let recorder = try await writer.readPublisher(receiveOn: queue) { try Int.fetchOne($0, sql: "SELECT 42")! }
                .recordUntilCompletion()
            #expect(recorder.values == [42])
            #expect(recorder.state.value.valueQueues == ["read-receive-on"])
            #expect(recorder.state.value.completionQueue == "read-receive-on")
        }

        @Test("readPublisher fails with the error of the read, and forbids writes", arguments: WriterKind.allCases)
        func readPublisherErrors(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            let missingTable = try await writer.readPublisher {
                try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM missing")!
            }.recordUntilCompletion()
            #expect(missingTable.values.isEmpty)
            #expect((missingTable.state.value.failure as? DatabaseError)?.resultCode == .SQLITE_ERROR)

            let write = try await writer.readPublisher {
                try $0.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            }.recordUntilCompletion()
            #expect(write.state.value.failure is DatabaseError)
            #expect(try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 0)
        }

        @Test("readPublisher waits for demand before delivering its value")
        func readPublisherDemand() async throws {
            let dbQueue = try DatabaseQueue()
            let queue = TestQueues.make("read-demand")
            let recorder = PublisherRecorder<Int>(initialDemand: .none)
            dbQueue.readPublisher(receiveOn: queue) { _ in 1 }.subscribe(recorder)
            // A later publisher on the same database and queue: once it has
            // delivered, the first read ran and could have been delivered.
            _ = try await dbQueue.readPublisher(receiveOn: queue) { _ in 2 }.recordUntilCompletion()
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
            #expect(recorder.values.isEmpty)
            #expect(recorder.state.value.completion == nil)

            recorder.request(.max(1))
            try await recorder.waitForCompletion()
            #expect(recorder.values == [1])
            #expect(recorder.state.value.isFinished)
        }

        @Test("A cancelled readPublisher delivers nothing")
        func readPublisherCancellation() async throws {
            let dbQueue = try DatabaseQueue()
            let queue = TestQueues.make("read-cancel")
            // The read waits while the database is held, and the subscription
            // is cancelled meanwhile.
            let holding = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            dbQueue.asyncWriteWithoutTransaction { _ in
                holding.signal()
                release.wait()
            }
            holding.wait()
            let recorder = dbQueue.readPublisher(receiveOn: queue) { _ in 1 }.subscribeRecorder()
            recorder.cancel()
            release.signal()
            _ = try await dbQueue.readPublisher(receiveOn: queue) { _ in 2 }.recordUntilCompletion()
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
            #expect(recorder.values.isEmpty)
            #expect(recorder.state.value.completion == nil)
        }

        @Test(
            "writePublisher writes once per subscription, in a transaction, only when subscribed",
            arguments: WriterKind.allCases)
        func writePublisher(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            let publisher = writer.writePublisher { db -> Int in
                #expect(db.isInsideTransaction)
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            }
            #expect(try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 0)

            let first = try await publisher.recordUntilCompletion()
            #expect(first.values == [1])
            #expect(first.state.value.isFinished)
            #expect(first.state.value.valueQueues == ["main"])

            let second = try await publisher.recordUntilCompletion()
            #expect(second.values == [2])
        }

        @Test("A failing writePublisher rolls back, and fails on its scheduler", arguments: WriterKind.allCases)
        func writePublisherRollback(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            struct Failure: Error {}
            let queue = TestQueues.make("write-failure")
            let recorder = PublisherRecorder<Void>()
            writer.writePublisher(receiveOn: queue) { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                throw Failure()
            }.subscribe(recorder)
            try await recorder.waitForCompletion()
            #expect(recorder.state.value.failure is Failure)
            #expect(recorder.state.value.completionQueue == "write-failure")
            #expect(try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 0)
        }

        @Test("writePublisher(updates:thenRead:) reads what the transaction committed", arguments: WriterKind.allCases)
        func writeThenRead(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            let queue = TestQueues.make("write-then-read")
            let recorder = PublisherRecorder<String>()
            writer.writePublisher(receiveOn: queue) { db -> Int64 in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                return db.lastInsertedRowID
            } thenRead: { db, id in
                return try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [id])!
            }.subscribe(recorder)
            try await recorder.waitForCompletion()
            #expect(recorder.values == ["Arthur"])
            #expect(recorder.state.value.isFinished)
            #expect(recorder.state.value.valueQueues == ["write-then-read"])
        }

        @Test("writePublisher(updates:thenRead:) fails with the error of either part", arguments: WriterKind.allCases)
        func writeThenReadErrors(kind: WriterKind) async throws {
            let writer = try makePublisherTestDatabase(kind)
            struct Failure: Error {}
            let failedUpdates = PublisherRecorder<Int>()
            writer.writePublisher { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                throw Failure()
            } thenRead: { _, _ in
                1
            }.subscribe(failedUpdates)
            try await failedUpdates.waitForCompletion()
            #expect(failedUpdates.state.value.failure is Failure)

            let failedRead = PublisherRecorder<Int>()
            writer.writePublisher { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
            } thenRead: { db, _ in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing")!
            }.subscribe(failedRead)
            try await failedRead.waitForCompletion()
            #expect(failedRead.state.value.failure is DatabaseError)
            // The write committed: only the read failed.
            #expect(try await writer.read { try String.fetchAll($0, sql: "SELECT name FROM player") } == ["Barbara"])
        }
    }
#endif
