import Foundation
import Strata
import StrataTestSupport
import Testing

/// The loose player and team database, observed by `observer`.
private func observedDatabase(_ observer: some TransactionObserver) throws -> DatabaseQueue {
    let dbQueue = try makePlayerAndTeamDatabase()
    dbQueue.add(transactionObserver: observer)
    return dbQueue
}

@Suite("TransactionObserver")
struct TransactionObserverTests {
    @Test("Changes, then willCommit and didCommit")
    func writeCommits() throws {
        let observer = LoggingObserver()
        let dbQueue = try observedDatabase(observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "UPDATE player SET score = 10 WHERE id = 1")
        }
        #expect(observer.log == ["change insert player 1", "change update player 1", "willCommit", "didCommit"])
    }

    @Test("A transaction that returns .rollback notifies didRollback")
    func rollbackCompletion() throws {
        let observer = LoggingObserver()
        let dbQueue = try observedDatabase(observer)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "UPDATE player SET score = 10 WHERE id = 1")
            return .rollback
        }
        #expect(observer.log == ["change insert player 1", "change update player 1", "didRollback"])
    }

    @Test("A write that throws notifies didRollback")
    func errorRollsBack() throws {
        let observer = LoggingObserver()
        let dbQueue = try observedDatabase(observer)
        #expect(throws: ObserverTestError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
                throw ObserverTestError()
            }
        }
        #expect(observer.log == ["change insert player 1", "didRollback"])
    }

    @Test("Statements outside transactions notify each commit")
    func autocommit() throws {
        let observer = LoggingObserver()
        let dbQueue = try observedDatabase(observer)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "UPDATE player SET score = 10 WHERE id = 1")
        }
        #expect(
            observer.log == [
                "change insert player 1", "willCommit", "didCommit",
                "change update player 1", "willCommit", "didCommit",
            ])
    }

    @Test("Savepoint changes are notified on release, and never when rolled back")
    func savepoints() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
        }
        let observer = LoggingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')")
            #expect(observer.log == ["change insert player 3"])

            try db.execute(sql: "SAVEPOINT foo")
            try db.execute(sql: "UPDATE player SET score = 1 WHERE id = 1")
            try db.execute(sql: "UPDATE player SET score = 2 WHERE id = 2")
            #expect(observer.log.count == 1)
            try db.execute(sql: "RELEASE SAVEPOINT foo")
            #expect(observer.log.count == 3)

            try db.execute(sql: "SAVEPOINT bar")
            try db.execute(sql: "UPDATE player SET score = 3 WHERE id = 3")
            try db.execute(sql: "ROLLBACK TO SAVEPOINT bar")
            try db.execute(sql: "RELEASE SAVEPOINT bar")
            return .commit
        }
        #expect(
            observer.log == [
                "change insert player 3",
                "change update player 1", "change update player 2",
                "willCommit", "didCommit",
            ])
    }

    @Test("Nested savepoints wait for the outermost release; inSavepoint too")
    func nestedSavepoints() throws {
        let observer = LoggingObserver()
        let dbQueue = try observedDatabase(observer)
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
                    return .commit
                }
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (id) VALUES (3)")
                    return .rollback
                }
                #expect(observer.log.isEmpty)
                return .commit
            }
            #expect(observer.log == ["change insert player 1", "change insert player 2"])
        }
        #expect(observer.log == ["change insert player 1", "change insert player 2", "willCommit", "didCommit"])
    }

    @Test("A savepoint outside a transaction commits on release")
    func savepointTransaction() throws {
        let observer = LoggingObserver()
        let dbQueue = try observedDatabase(observer)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "SAVEPOINT foo")
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            try db.execute(sql: "RELEASE SAVEPOINT foo")
        }
        #expect(observer.log == ["change insert player 1", "willCommit", "didCommit"])
    }

    @Test("An error thrown by databaseWillCommit rolls back and is rethrown")
    func willCommitError() throws {
        let observer = LoggingObserver()
        observer.commitError = ObserverTestError()
        let dbQueue = try observedDatabase(observer)
        #expect(throws: ObserverTestError.self) {
            try dbQueue.inTransaction { db in
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
                return .commit
            }
        }
        #expect(observer.log == ["change insert player 1", "willCommit", "didRollback"])
        observer.commitError = nil
        let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
        #expect(count == 0)
        // The database stays usable.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (2)") }
        #expect(observer.log.suffix(3) == ["change insert player 2", "willCommit", "didCommit"])
    }

    @Test("observes(eventsOfKind:) filters changes, not transactions")
    func filtering() throws {
        let observer = LoggingObserver(observing: "team")
        let dbQueue = try observedDatabase(observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            try db.execute(sql: "INSERT INTO team (id) VALUES (7)")
        }
        #expect(observer.log == ["change insert team 7", "willCommit", "didCommit"])
    }

    @Test("Event kinds name the updated columns")
    func eventKinds() throws {
        let kinds = LockedBox<[String]>([])
        let observer = ClosureObserver(observes: { eventKind in
            switch eventKind {
            case .insert(let table): kinds.append("insert \(table)")
            case .delete(let table): kinds.append("delete \(table)")
            case .update(let table, let columns): kinds.append("update \(table) \(columns.sorted())")
            }
            return false
        })
        let dbQueue = try observedDatabase(observer)
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE player SET score = score + 1, name = 'x'")
            try db.execute(sql: "DELETE FROM team WHERE id = 1")
            try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')")
        }
        #expect(kinds.value == ["update player [\"name\", \"score\"]", "delete team", "insert team"])
    }

    @Test("Foreign key actions and triggers are notified")
    func indirectChanges() throws {
        let dbQueue = try inMemoryDatabase(
            """
            CREATE TABLE team (id INTEGER PRIMARY KEY);
            CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id) ON DELETE CASCADE);
            CREATE TABLE log (id INTEGER PRIMARY KEY, message TEXT);
            CREATE TRIGGER teamInsert AFTER INSERT ON team BEGIN
                INSERT INTO log (message) VALUES ('team');
            END;
            """)
        let observer = LoggingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO team (id) VALUES (1)")
            try db.execute(sql: "INSERT INTO player (id, teamId) VALUES (2, 1)")
            try db.execute(sql: "DELETE FROM team")
        }
        #expect(
            observer.log == [
                "change insert team 1", "change insert log 1", "change insert player 2",
                "change delete team 1", "change delete player 2", "willCommit", "didCommit",
            ])
    }

    @Test("Deleting all rows notifies each row; DROP TABLE still works")
    func truncate() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1), (2)")
        }
        let observer = LoggingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "DELETE FROM player")
        }
        #expect(observer.log == ["change delete player 1", "change delete player 2", "willCommit", "didCommit"])
        try dbQueue.write { db in
            try db.execute(sql: "CREATE VIEW v AS SELECT * FROM team")
            try db.execute(sql: "DROP VIEW v")
            try db.execute(sql: "DROP TABLE player")
            #expect(try !db.tableExists("player"))
            #expect(try !db.viewExists("v"))
        }
    }

    @Test("An observer that observes nothing still sees commits and rollbacks")
    func observesNothing() throws {
        let commits = Counter()
        let rollbacks = Counter()
        let observer = ClosureObserver(
            observes: { _ in false }, didChange: { _ in Issue.record("unexpected change") },
            didCommit: { _ in commits.increment() }, didRollback: { _ in rollbacks.increment() })
        let dbQueue = try observedDatabase(observer)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        try? dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
            throw ObserverTestError()
        }
        #expect(commits.value == 1)
        #expect(rollbacks.value == 1)
    }

    @Test("didCommit may use the database")
    func didCommitUsesDatabase() throws {
        let counts = LockedBox<[Int]>([])
        let observer = ClosureObserver(didCommit: { db in
            counts.append(try! Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!)
        })
        let dbQueue = try observedDatabase(observer)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (2)") }
        #expect(counts.value == [1, 2])
    }

    @Test("stopObservingDatabaseChangesUntilNextTransaction")
    func stopObserving() throws {
        let observer = LoggingObserver()
        observer.stopsAfterFirstChange = true
        let dbQueue = try observedDatabase(observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1), (2), (3)")
            try db.execute(sql: "INSERT INTO player (id) VALUES (4)")
        }
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (5), (6)")
        }
        #expect(
            observer.log == [
                "change insert player 1", "willCommit", "didCommit",
                "change insert player 5", "willCommit", "didCommit",
            ])
    }

    @Test("notifyChanges(in:) calls databaseDidChange() on observers of the region")
    func notifyChanges() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        let playerObserver = LoggingObserver(observing: "player")
        let teamObserver = LoggingObserver(observing: "team")
        let schemaObserver = LoggingObserver(observing: "sqlite_master")
        dbQueue.add(transactionObserver: playerObserver)
        dbQueue.add(transactionObserver: teamObserver)
        dbQueue.add(transactionObserver: schemaObserver)
        try dbQueue.write { db in
            try db.notifyChanges(in: .fullDatabase)
            try db.notifyChanges(in: Table("player"))
            try db.notifyChanges(in: Table("sqlite_master"))
        }
        #expect(playerObserver.log == ["unspecified change", "unspecified change", "willCommit", "didCommit"])
        #expect(teamObserver.log == ["unspecified change", "willCommit", "didCommit"])
        #expect(schemaObserver.log == ["unspecified change", "unspecified change", "willCommit", "didCommit"])
    }

    @Test("Events are only valid during the callback: copies last")
    func eventCopy() throws {
        let copies = LockedBox<[DatabaseEvent]>([])
        let observer = ClosureObserver(didChange: { event in copies.append(event.copy()) })
        let dbQueue = try observedDatabase(observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (12)")
            try db.execute(sql: "DELETE FROM player WHERE id = 12")
        }
        #expect(copies.value.map(\.kind) == [.insert, .delete])
        #expect(copies.value.map(\.rowID) == [12, 12])
        #expect(copies.value.map(\.tableName) == ["player", "player"])
        #expect(copies.value.map(\.databaseName) == ["main", "main"])
    }
}
