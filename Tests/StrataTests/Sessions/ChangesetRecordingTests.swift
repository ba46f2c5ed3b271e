import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 33: recording changesets and patchsets, in one access or across
/// several, with a table filter, inside transactions, savepoints and
/// migrations, and what recording leaves undisturbed.
@Suite("Changeset recording")
struct ChangesetRecordingTests {
    @Test("recordChanges returns the inserts, updates and deletes of its body, with old and new values")
    func recordsOneAccess() throws {
        let dbQueue = try makeSessionDatabase()
        let changeset = try dbQueue.write { db in
            try db.recordChanges(to: ["player", "team"]) {
                try db.execute(sql: "INSERT INTO player VALUES (3, 1, 'Craig', 5)")
                try db.execute(sql: "UPDATE player SET score = 11 WHERE id = 1")
                try db.execute(sql: "DELETE FROM player WHERE id = 2")
            }
        }
        #expect(changeset.format == .changeset)
        #expect(!changeset.isEmpty)
        #expect(
            describe(changeset).sorted() == [
                "DELETE player [2] old: [2, 1, \"Barbara\", 20]",
                "INSERT player [3] new: [3, 1, \"Craig\", 5]",
                "UPDATE player [1] old: [1, -, -, 10] new: [-, -, -, 11]",
            ])
    }

    @Test("A change gives its table, operation, primary key, and typed old and new values")
    func typedAccess() throws {
        let dbQueue = try makeSessionDatabase()
        let changeset = try dbQueue.write { db in
            try db.recordChanges(to: ["player"]) {
                try db.execute(sql: "UPDATE player SET score = 11, name = 'Art' WHERE id = 1")
            }
        }
        let change = try #require(changeset.changes.first)
        #expect(changeset.changes.count == 1)
        #expect(change.table == "player")
        #expect(change.operation == .update)
        #expect(change.operation.description == "UPDATE")
        #expect(!change.isIndirect)
        #expect(change.columnCount == 4)
        #expect(change.primaryKeyIndexes == [0])
        #expect(change.primaryKey == [1.databaseValue])
        #expect(change.oldValue(at: 2, as: String.self) == "Arthur")
        #expect(change.newValue(at: 2, as: String.self) == "Art")
        #expect(change.oldValue(at: 3, as: Int.self) == 10)
        #expect(change.newValue(at: 3) == 11)
        // Unchanged columns are not part of an update.
        #expect(change.oldValue(at: 1, as: Int.self) == nil)
        #expect(change.newValues[1] == nil)
        #expect(change.newValue(at: 99, as: Int.self) == nil)
    }

    @Test("The table filter records the listed tables only")
    func tableFilter() throws {
        let dbQueue = try makeSessionDatabase()
        let changeset = try dbQueue.write { db in
            try db.recordChanges(to: ["team"]) {
                try db.execute(sql: "INSERT INTO team VALUES (2, 'Blue')")
                try db.execute(sql: "UPDATE player SET score = 0")
            }
        }
        #expect(describe(changeset) == ["INSERT team [2] new: [2, \"Blue\"]"])
    }

    @Test("Without a table list, every table is recorded, tables created meanwhile included")
    func allTables() throws {
        let dbQueue = try makeSessionDatabase()
        let changeset = try dbQueue.write { db in
            try db.recordChanges {
                try db.execute(sql: "INSERT INTO team VALUES (2, 'Blue')")
                try db.execute(sql: "UPDATE player SET score = 0 WHERE id = 2")
                try db.execute(sql: "CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT)")
                try db.execute(sql: "INSERT INTO city VALUES (1, 'Paris')")
            }
        }
        #expect(Set(changeset.map(\.table)) == ["team", "player", "city"])
    }

    @Test("Patchsets hold new values only, are smaller, and can't be inverted")
    func patchsets() throws {
        let dbQueue = try makeSessionDatabase()
        let (changeset, patchset) = try dbQueue.write { db in
            let work = {
                try db.execute(sql: "UPDATE player SET score = score + 1")
                try db.execute(sql: "DELETE FROM player WHERE id = 2")
            }
            var patchset: Changeset!
            let changeset = try db.recordChanges(to: ["player"]) {
                patchset = try db.recordChanges(to: ["player"], as: .patchset, work)
            }
            return (changeset, patchset!)
        }
        #expect(patchset.format == .patchset)
        #expect(changeset.format == .changeset)
        #expect(patchset.data.count < changeset.data.count)
        #expect(
            describe(patchset).sorted() == [
                "DELETE player [2] old: [2, -, -, -]",
                "UPDATE player [1] old: [1, -, -, -] new: [-, -, -, 11]",
            ])
        let error = #expect(throws: DatabaseError.self) { try patchset.inverted() }
        #expect(error?.message == "a patchset can't be inverted")
        // A patchset applies like a changeset.
        let other = try makeSessionDatabase()
        try other.write { db in try db.apply(patchset) }
        #expect(try sessionDump(other) == sessionDump(dbQueue))
    }

    @Test(
        "A recorder records across several accesses and transactions until it is stopped",
        arguments: WriterKind.allCases)
    func longLivedRecorder(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.open(directory)
        try writer.write { db in try db.execute(sql: sessionSchema) }
        let recorder = try writer.write { db in try ChangesetRecorder(db, tables: ["player"]) }
        try writer.write { db in try db.execute(sql: "INSERT INTO player VALUES (3, 1, 'Craig', 5)") }
        try writer.write { db in try db.execute(sql: "UPDATE player SET score = 6 WHERE id = 3") }
        try writer.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "DELETE FROM player WHERE id = 1")
                return .commit
            }
        }
        let changeset = try writer.write { db in try recorder.changeset(db) }
        #expect(
            describe(changeset).sorted() == [
                "DELETE player [1] old: [1, 1, \"Arthur\", 10]",
                "INSERT player [3] new: [3, 1, \"Craig\", 6]",
            ])
        try writer.write { db throws in
            let isEmpty = try recorder.isEmpty(db)
            #expect(!isEmpty)
            recorder.stop(db)
            #expect(recorder.isStopped)
            let error = #expect(throws: DatabaseError.self) { try recorder.changeset(db) }
            #expect(error?.message == "the changeset recorder is stopped")
        }
    }

    @Test("takeChangeset returns the changes so far and starts afresh")
    func takeChangeset() throws {
        let dbQueue = try makeSessionDatabase()
        let recorder = try dbQueue.write { db in try ChangesetRecorder(db) }
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 1 WHERE id = 1") }
        let first = try dbQueue.write { db in try recorder.takeChangeset(db) }
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 2 WHERE id = 2") }
        let second = try dbQueue.write { db in try recorder.takeChangeset(db) }
        let third = try dbQueue.write { db in try recorder.takeChangeset(db) }
        try dbQueue.write { db in recorder.stop(db) }
        #expect(first.map(\.primaryKey) == [[1.databaseValue]])
        #expect(second.map(\.primaryKey) == [[2.databaseValue]])
        #expect(third.isEmpty)
    }

    @Test("A paused recorder does not record new rows, and resumes")
    func pauseAndResume() throws {
        let dbQueue = try makeSessionDatabase()
        let changeset = try dbQueue.write { db in
            let recorder = try ChangesetRecorder(db, tables: ["team"])
            defer { recorder.stop(db) }
            try recorder.pause(db)
            #expect(!recorder.isRecording)
            try db.execute(sql: "INSERT INTO team VALUES (2, 'Blue')")
            try recorder.resume(db)
            #expect(recorder.isRecording)
            try db.execute(sql: "INSERT INTO team VALUES (3, 'Green')")
            return try recorder.changeset(db)
        }
        #expect(changeset.map(\.primaryKey) == [[3.databaseValue]])
    }

    @Test("A recorder is used by its own connection only")
    func otherConnection() throws {
        let recorder = try makeSessionDatabase().write { db in try ChangesetRecorder(db) }
        try makeSessionDatabase().write { db in
            let error = #expect(throws: DatabaseError.self) { try recorder.changeset(db) }
            #expect(error?.message == "a changeset recorder is used by another connection than its own")
        }
    }

    @Test("A listed table without a primary key is reported when recording starts")
    func listedTableWithoutPrimaryKey() throws {
        try makeSessionDatabase().write { db in
            let error = #expect(throws: DatabaseError.self) {
                _ = try db.recordChanges(to: ["player", "note"]) {}
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(
                error?.message == "table note has no primary key: the session extension can't record its changes")
        }
    }

    @Test("A changed table without a primary key is reported when all tables are recorded")
    func changedTableWithoutPrimaryKey() throws {
        try makeSessionDatabase().write { db in
            let error = #expect(throws: DatabaseError.self) {
                _ = try db.recordChanges {
                    try db.execute(sql: "INSERT INTO note VALUES ('hello')")
                }
            }
            #expect(
                error?.message == "table note has no primary key: the session extension can't record its changes")
        }
    }

    @Test("Changes of a rolled back savepoint are not recorded; a recording inside a savepoint works")
    func savepoints() throws {
        let dbQueue = try makeSessionDatabase()
        let changeset = try dbQueue.write { db in
            try db.recordChanges(to: ["player"]) {
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player VALUES (3, 1, 'Craig', 5)")
                    return .rollback
                }
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player VALUES (4, 1, 'David', 5)")
                    let inner = try db.recordChanges(to: ["player"]) {
                        try db.execute(sql: "INSERT INTO player VALUES (5, 1, 'Eve', 5)")
                    }
                    #expect(inner.map(\.primaryKey) == [[5.databaseValue]])
                    return .commit
                }
            }
        }
        #expect(
            changeset.map(\.primaryKey).sorted { $0[0].description < $1[0].description } == [
                [4.databaseValue], [5.databaseValue],
            ])
    }

    @Test("A recording spans a migration; the migrations table is not recorded")
    func migrations() throws {
        let dbQueue = try makeSessionDatabase()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("cities") { db in
            try db.execute(sql: "CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO city VALUES (1, 'Paris')")
            // A recording inside a migration.
            let inner = try db.recordChanges(to: ["city"]) {
                try db.execute(sql: "INSERT INTO city VALUES (2, 'Lyon')")
            }
            #expect(inner.changes.count == 1)
        }
        let recorder = try dbQueue.write { db in try ChangesetRecorder(db) }
        try migrator.migrate(dbQueue)
        let changeset = try dbQueue.write { db in
            defer { recorder.stop(db) }
            return try recorder.changeset(db)
        }
        #expect(try dbQueue.read { db in try db.tableExists("grdb_migrations") })
        #expect(changeset.map(\.table) == ["city", "city"])
    }

    @Test("Transaction observers and value observations are notified during and after a recording")
    func observersUndisturbed() async throws {
        let dbQueue = try makeSessionDatabase()
        let observer = LoggingObserver(observing: "team")
        dbQueue.add(transactionObserver: observer)
        let values = ObservedValues<Int>()
        let cancellable = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team")! }
            .start(in: dbQueue, scheduling: .immediate, recordingIn: values)
        defer { cancellable.cancel() }
        let recorder = try await dbQueue.write { db in try ChangesetRecorder(db) }
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team VALUES (2, 'Blue')") }
        try await dbQueue.write { db in recorder.stop(db) }
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team VALUES (3, 'Green')") }
        await values.waitForValues(3)
        #expect(values.values == [1, 2, 3])
        // Each write access is a transaction, the recorder's own included.
        #expect(
            observer.log == [
                "willCommit", "didCommit",
                "change insert team 2", "willCommit", "didCommit",
                "willCommit", "didCommit",
                "change insert team 3", "willCommit", "didCommit",
            ])
    }

    @Test("Pre-update observers hear nothing while a recording runs, and hear again after it")
    func preUpdateObservers() throws {
        let dbQueue = try makeSessionDatabase()
        let events = LockedBox<[Int64]>([])
        let observer = PreUpdateLogger(events)
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team VALUES (2, 'Blue')") }
        let changeset = try dbQueue.write { db in
            try db.recordChanges(to: ["team"]) {
                try db.execute(sql: "INSERT INTO team VALUES (3, 'Green')")
            }
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team VALUES (4, 'White')") }
        #expect(changeset.changes.count == 1)
        #expect(events.value == [2, 4])
        withExtendedLifetime(observer) {}
    }

    @Test("An observer added during a recording does not take the pre-update hook from it")
    func observerAddedDuringRecording() throws {
        let dbQueue = try makeSessionDatabase()
        let events = LockedBox<[Int64]>([])
        let observer = PreUpdateLogger(events)
        let changeset = try dbQueue.write { db in
            try db.recordChanges(to: ["team"]) {
                db.add(transactionObserver: observer)
                try db.execute(sql: "INSERT INTO team VALUES (3, 'Green')")
            }
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team VALUES (4, 'White')") }
        #expect(changeset.changes.count == 1)
        #expect(events.value == [4])
        withExtendedLifetime(observer) {}
    }

    @Test("A recorder released unstopped, outside of an access, stops on the connection's queue after its access")
    func releasedRecorder() async throws {
        let dbQueue = try makeSessionDatabase()
        let events = LockedBox<[Int64]>([])
        let observer = PreUpdateLogger(events)
        dbQueue.add(transactionObserver: observer)
        var recorder: ChangesetRecorder? = try await dbQueue.write { db in try ChangesetRecorder(db, tables: ["team"]) }
        // An access runs on the connection's queue while the last reference
        // to the recorder goes away on this thread: the session is deleted
        // after the access, not during it.
        let accessStarted = Waitable(false)
        let accessEnded = Waitable<Result<Void, any Error>?>(nil)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let result = Result {
                try dbQueue.write { db in
                    accessStarted.update { $0 = true }
                    try db.execute(sql: "INSERT INTO team VALUES (5, 'Black')")
                    release.wait()  // until the recorder is released
                    try db.execute(sql: "INSERT INTO team VALUES (6, 'Grey')")
                }
            }
            accessEnded.update { $0 = result }
        }
        try await accessStarted.wait("the access started") { $0 }
        #expect(recorder?.isRecording == true)
        recorder = nil
        release.signal()
        try await accessEnded.wait("the access ended") { $0 != nil }
        try accessEnded.value?.get()
        // The hook went back to the observer: it hears of the next insert.
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team VALUES (7, 'Brown')") }
        #expect(events.value == [7])
        withExtendedLifetime(observer) {}
    }
}

/// Logs the final row id of each pre-update event.
private final class PreUpdateLogger: TransactionObserver, @unchecked Sendable {
    let events: LockedBox<[Int64]>
    init(_ events: LockedBox<[Int64]>) { self.events = events }
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseWillChange(with event: DatabasePreUpdateEvent) { events.append(event.finalRowID ?? -1) }
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}
