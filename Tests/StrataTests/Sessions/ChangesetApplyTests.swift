import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 33: applying changesets, every conflict kind and action, invert,
/// concatenation, rebasing, parse errors, and the missing extension.
@Suite("Changeset apply")
struct ChangesetApplyTests {
    /// A changeset recorded on a fresh ``sessionSchema`` database.
    private func record(_ sql: String, tables: [String]? = ["team", "player"]) throws -> Changeset {
        try makeSessionDatabase().write { db in
            try db.recordChanges(to: tables) { try db.execute(sql: sql) }
        }
    }

    /// Applies `changeset` to a ``sessionSchema`` database changed by `sql`,
    /// answering conflicts with `action`; returns the conflicts seen and the
    /// database.
    private func apply(
        _ changeset: Changeset, after sql: String, answering action: Changeset.ConflictAction
    ) throws -> ([Changeset.Conflict], DatabaseQueue, (any Error)?) {
        let dbQueue = try makeSessionDatabase()
        try dbQueue.write { db in try db.execute(sql: sql) }
        var conflicts: [Changeset.Conflict] = []
        var thrown: (any Error)?
        do {
            try dbQueue.write { db in
                try db.apply(changeset) { conflict in
                    conflicts.append(conflict)
                    return action
                }
            }
        } catch {
            thrown = error
        }
        return (conflicts, dbQueue, thrown)
    }

    private func score(_ dbQueue: DatabaseQueue, _ id: Int) throws -> Int? {
        try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT score FROM player WHERE id = ?", arguments: [id]) }
    }

    @Test(
        "A changeset applied to an equal copy gives the same rows, and notifies observers",
        arguments: WriterKind.allCases)
    func applyWithoutConflict(kind: WriterKind) throws {
        let source = try makeSessionDatabase()
        let changeset = try source.write { db in
            try db.recordChanges {
                try db.execute(sql: "INSERT INTO team VALUES (2, 'Blue')")
                try db.execute(sql: "UPDATE player SET teamId = 2, score = 30 WHERE id = 2")
                try db.execute(sql: "DELETE FROM player WHERE id = 1")
            }
        }
        let directory = try TemporaryDirectory()
        let writer = try kind.open(directory)
        try writer.write { db in try db.execute(sql: sessionSchema) }
        let observer = LoggingObserver(observing: "player")
        writer.add(transactionObserver: observer)
        try writer.write { db in try db.apply(changeset) }
        #expect(try sessionDump(writer) == sessionDump(source))
        #expect(observer.log == ["unspecified change", "willCommit", "didCommit"])
    }

    @Test("Apply works inside a transaction, and its changes roll back with it")
    func applyInsideTransaction() throws {
        let changeset = try record("INSERT INTO team VALUES (2, 'Blue')")
        let dbQueue = try makeSessionDatabase()
        try dbQueue.inTransaction { db in
            try db.apply(changeset)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") == 2)
            return .rollback
        }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") } == 1)
    }

    @Test("A data conflict shows the row in the database; replace overwrites it")
    func dataConflictReplace() throws {
        let changeset = try record("UPDATE player SET score = 11 WHERE id = 1")
        let (conflicts, dbQueue, error) = try apply(
            changeset, after: "UPDATE player SET score = 99 WHERE id = 1", answering: .replace)
        #expect(error == nil)
        let conflict = try #require(conflicts.first)
        #expect(conflicts.count == 1)
        #expect(conflict.kind == .data)
        #expect(conflict.kind.description == "data")
        #expect(conflict.change?.oldValue(at: 3, as: Int.self) == 10)
        #expect(conflict.change?.newValue(at: 3, as: Int.self) == 11)
        #expect(conflict.conflictingValue(at: 3, as: Int.self) == 99)
        #expect(conflict.conflictingValues?.count == 4)
        #expect(conflict.foreignKeyViolationCount == 0)
        #expect(try score(dbQueue, 1) == 11)
    }

    @Test("omit skips a conflicting change and applies the others")
    func dataConflictOmit() throws {
        let changeset = try record("UPDATE player SET score = score + 1")
        let (conflicts, dbQueue, error) = try apply(
            changeset, after: "UPDATE player SET score = 99 WHERE id = 1", answering: .omit)
        #expect(error == nil)
        #expect(conflicts.map(\.kind) == [.data])
        #expect(try score(dbQueue, 1) == 99)
        #expect(try score(dbQueue, 2) == 21)
    }

    @Test("A not-found conflict: the row to update or delete is missing")
    func notFoundConflict() throws {
        let changeset = try record("UPDATE player SET score = 11 WHERE id = 1")
        let (conflicts, _, error) = try apply(changeset, after: "DELETE FROM player WHERE id = 1", answering: .omit)
        #expect(error == nil)
        #expect(conflicts.map(\.kind) == [.notFound])
        #expect(conflicts.first?.conflictingValues == nil)
        #expect(conflicts.first?.change?.primaryKey == [1.databaseValue])
    }

    @Test("A conflict: the row to insert exists; replace overwrites it")
    func insertConflict() throws {
        let changeset = try record("INSERT INTO player VALUES (3, 1, 'Craig', 5)")
        let (conflicts, dbQueue, error) = try apply(
            changeset, after: "INSERT INTO player VALUES (3, 1, 'Other', 50)", answering: .replace)
        #expect(error == nil)
        #expect(conflicts.map(\.kind) == [.conflict])
        #expect(conflicts.first?.conflictingValue(at: 2, as: String.self) == "Other")
        #expect(try score(dbQueue, 3) == 5)
    }

    @Test("A constraint conflict: a UNIQUE constraint fails")
    func constraintConflict() throws {
        let changeset = try record("INSERT INTO team VALUES (2, 'Blue')")
        let (conflicts, dbQueue, error) = try apply(
            changeset, after: "INSERT INTO team VALUES (3, 'Blue')", answering: .omit)
        #expect(error == nil)
        #expect(conflicts.map(\.kind) == [.constraint])
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") } == 2)
    }

    @Test("A foreign key conflict is reported once, with the number of violations; abort rolls back")
    func foreignKeyConflict() throws {
        let changeset = try record(
            "INSERT INTO team VALUES (2, 'Blue'); INSERT INTO player VALUES (3, 2, 'Craig', 5)", tables: ["player"])
        let (conflicts, dbQueue, error) = try apply(changeset, after: "", answering: .abort)
        #expect(conflicts.map(\.kind) == [.foreignKey])
        #expect(conflicts.first?.foreignKeyViolationCount == 1)
        #expect(conflicts.first?.change == nil)
        // SQLite reports the violated constraint.
        #expect((error as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT)
        #expect(try score(dbQueue, 3) == nil)
    }

    @Test("abort rolls back every change of the apply and throws")
    func abortRollsBack() throws {
        let changeset = try record("UPDATE player SET score = score + 1")
        let (conflicts, dbQueue, error) = try apply(
            changeset, after: "UPDATE player SET score = 99 WHERE id = 2", answering: .abort)
        #expect(conflicts.count == 1)
        let databaseError = try #require(error as? DatabaseError)
        #expect(databaseError.resultCode == .SQLITE_ABORT)
        #expect(databaseError.message == "the changeset apply was aborted on a conflict")
        #expect(try score(dbQueue, 1) == 10)
        #expect(try score(dbQueue, 2) == 99)
    }

    @Test("Without a handler, a conflict aborts")
    func defaultHandlerAborts() throws {
        let changeset = try record("UPDATE player SET score = 11 WHERE id = 1")
        let dbQueue = try makeSessionDatabase()
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 99 WHERE id = 1") }
        #expect(throws: DatabaseError.self) { try dbQueue.write { db in try db.apply(changeset) } }
        #expect(try score(dbQueue, 1) == 99)
    }

    @Test("A conflict handler that throws aborts the apply; nothing is half-applied")
    func throwingHandler() throws {
        struct Refused: Error {}
        let changeset = try record("UPDATE player SET score = score + 1")
        let dbQueue = try makeSessionDatabase()
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 99 WHERE id = 2") }
        let before = try sessionDump(dbQueue)
        #expect(throws: Refused.self) {
            try dbQueue.write { db in
                try db.apply(changeset) { _ in throw Refused() }
            }
        }
        #expect(try sessionDump(dbQueue) == before)
    }

    @Test("replace is refused for a conflict kind that does not allow it")
    func replaceRefused() throws {
        let changeset = try record("UPDATE player SET score = 11 WHERE id = 1")
        let (_, _, error) = try apply(changeset, after: "DELETE FROM player WHERE id = 1", answering: .replace)
        let databaseError = try #require(error as? DatabaseError)
        #expect(databaseError.resultCode == .SQLITE_MISUSE)
        #expect(databaseError.message == "a not found conflict can't be resolved with .replace: use .omit or .abort")
    }

    @Test("inverted() undoes a changeset")
    func invert() throws {
        let dbQueue = try makeSessionDatabase()
        let before = try sessionDump(dbQueue)
        let changeset = try dbQueue.write { db in
            try db.recordChanges {
                try db.execute(sql: "INSERT INTO team VALUES (2, 'Blue')")
                try db.execute(sql: "UPDATE player SET teamId = 2 WHERE id = 1")
                try db.execute(sql: "DELETE FROM player WHERE id = 2")
            }
        }
        let undo = try changeset.inverted()
        #expect(
            describe(undo).filter { $0.hasPrefix("INSERT player") } == [
                "INSERT player [2] new: [2, 1, \"Barbara\", 20]"
            ])
        try dbQueue.write { db in try db.apply(undo) }
        #expect(try sessionDump(dbQueue) == before)
    }

    @Test("Undo: the inverses of several changesets, applied in reverse order, give the starting database back")
    func undoStack() throws {
        let dbQueue = try makeSessionDatabase()
        let start = try sessionDump(dbQueue)
        let steps = [
            "INSERT INTO player VALUES (3, 1, 'Craig', 5)",
            "UPDATE player SET score = score * 2",
            "DELETE FROM player WHERE id = 1",
            "INSERT INTO team VALUES (2, 'Blue'); UPDATE player SET teamId = 2",
            "UPDATE player SET name = NULL WHERE id = 3",
        ]
        var undoStack: [Changeset] = []
        for sql in steps {
            let changeset = try dbQueue.write { db in try db.recordChanges { try db.execute(sql: sql) } }
            undoStack.append(try changeset.inverted())
        }
        for undo in undoStack.reversed() {
            try dbQueue.write { db in try db.apply(undo) }
        }
        #expect(try sessionDump(dbQueue) == start)
    }

    @Test("concatenating combines changesets: a row changed twice appears once")
    func concatenate() throws {
        let dbQueue = try makeSessionDatabase()
        let first = try dbQueue.write { db in
            try db.recordChanges { try db.execute(sql: "INSERT INTO player VALUES (3, 1, 'Craig', 5)") }
        }
        let second = try dbQueue.write { db in
            try db.recordChanges {
                try db.execute(sql: "UPDATE player SET score = 6 WHERE id = 3")
                try db.execute(sql: "DELETE FROM player WHERE id = 1")
            }
        }
        let third = try dbQueue.write { db in
            try db.recordChanges { try db.execute(sql: "UPDATE player SET score = 21 WHERE id = 2") }
        }
        let all = try Changeset.concatenating([first, second, third])
        #expect(
            describe(all).sorted() == [
                "DELETE player [1] old: [1, 1, \"Arthur\", 10]",
                "INSERT player [3] new: [3, 1, \"Craig\", 6]",
                "UPDATE player [2] old: [2, -, -, 20] new: [-, -, -, 21]",
            ])
        #expect(try first.concatenated(with: second).changes.count == 2)
        let other = try makeSessionDatabase()
        try other.write { db in try db.apply(all) }
        #expect(try sessionDump(other) == sessionDump(dbQueue))
        #expect(try Changeset.concatenating([]).isEmpty)
    }

    @Test("A changeset and a patchset can't be concatenated")
    func concatenateMixed() throws {
        let dbQueue = try makeSessionDatabase()
        let patchset = try dbQueue.write { db in
            try db.recordChanges(as: .patchset) { try db.execute(sql: "UPDATE player SET score = 0") }
        }
        let changeset = try record("UPDATE player SET score = 1")
        let error = #expect(throws: DatabaseError.self) { try changeset.concatenated(with: patchset) }
        #expect(error?.message == "cannot concatenate a changeset and a patchset")
    }

    @Test("A changeset rebuilt from its data is equal to it; data that does not parse throws")
    func parse() throws {
        let changeset = try record("INSERT INTO player VALUES (3, 1, 'Craig', 5)")
        #expect(try Changeset(data: changeset.data) == changeset)
        #expect(try Changeset(data: Data()).isEmpty)
        for bad in [Data("not a changeset".utf8), changeset.data.prefix(changeset.data.count - 3)] {
            let error = #expect(throws: DatabaseError.self) { try Changeset(data: bad) }
            #expect(error?.message?.hasPrefix("the data is not a valid changeset") == true)
        }
    }

    @Test("Rebasing: local changes rebased on the resolutions of a remote apply converge both replicas")
    func rebase() throws {
        let replicaA = try makeSessionDatabase()
        let replicaB = try makeSessionDatabase()
        let fromA = try replicaA.write { db in
            try db.recordChanges { try db.execute(sql: "UPDATE player SET score = 20 WHERE id = 1") }
        }
        let fromB = try replicaB.write { db in
            try db.recordChanges { try db.execute(sql: "UPDATE player SET score = 30 WHERE id = 1") }
        }
        // B keeps its own value, and rebases its change so that A takes it.
        let rebase = try replicaB.write { db in try db.applyReturningRebase(fromA) { _ in .omit } }
        #expect(!rebase.data.isEmpty)
        let rebased = try fromB.rebased(onto: rebase)
        #expect(describe(rebased) == ["UPDATE player [1] old: [1, -, -, 20] new: [-, -, -, 30]"])
        try replicaA.write { db in try db.apply(rebased) }
        #expect(try score(replicaA, 1) == 30)
        #expect(try sessionDump(replicaA) == sessionDump(replicaB))
    }

    @Test("Rebasing throws where SQLite is older than 3.25.0")
    func rebaseGated() throws {
        let changeset = try record("UPDATE player SET score = 11 WHERE id = 1")
        let rebase = try makeSessionDatabase().write { db in
            db.lowerSQLiteForTesting(version: "3.24.0")
            try db.execute(sql: "UPDATE player SET score = 99 WHERE id = 1")
            return try db.applyReturningRebase(changeset) { _ in .omit }
        }
        let error = #expect(throws: DatabaseError.self) { try changeset.rebased(onto: rebase) }
        #expect(
            error?.message
                == "changeset rebasing is not available: it requires SQLite 3.25.0 or newer; the linked SQLite is 3.24.0"
        )
    }

    @Test("Without the session extension, every entry point throws an error that names it")
    func missingExtension() throws {
        let changeset = try record("UPDATE player SET score = 11 WHERE id = 1")
        try makeSessionDatabase().write { db in
            db.lowerSQLiteForTesting(removingCompileOptions: ["ENABLE_SESSION"])
            let expected =
                "session extension is not available: it requires compile option SQLITE_ENABLE_SESSION; "
                + "the linked SQLite is \(db.linkedSQLite.version), compiled without SQLITE_ENABLE_SESSION"
            let errors = [
                #expect(throws: DatabaseError.self) { _ = try db.recordChanges {} },
                #expect(throws: DatabaseError.self) { _ = try ChangesetRecorder(db) },
                #expect(throws: DatabaseError.self) { try db.apply(changeset) },
            ]
            for error in errors {
                #expect(error?.resultCode == .SQLITE_MISUSE)
                #expect(error?.message == expected)
            }
        }
    }
}
