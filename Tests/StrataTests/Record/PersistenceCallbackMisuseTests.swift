import Foundation
import Strata
import StrataTestSupport
import Testing

// Callbacks of GRDB 7: `didInsert` after every INSERT, and `around...`
// callbacks that forget their action throw instead of stopping the program.

private struct Player: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var didInsertCount = 0

    enum CodingKeys: String, CodingKey { case id, name }

    static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .ignore, update: .ignore)

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
        didInsertCount += 1
    }
}

/// A record whose `around...` callbacks skip their action, or swallow its error.
private struct Clumsy: Codable, MutablePersistableRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var name: String
    var swallowsErrors = false

    enum CodingKeys: String, CodingKey { case id, name }

    private func run<T>(_ action: () throws -> T) {
        if swallowsErrors {
            _ = try? action()
        }
    }

    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws { run(insert) }
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        run(update)
    }
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws { run(delete) }
}

/// A record whose `aroundSave` skips its action.
private struct ClumsySaver: Codable, MutablePersistableRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var name: String

    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {}
}

private func playerDatabase() throws -> DatabaseQueue {
    try inMemoryDatabase { db in
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull().unique()
        }
    }
}

/// Whether the error is the SQLITE_MISUSE of a callback.
private func isMisuse(_ error: any Error, naming callback: String) -> Bool {
    guard let error = error as? DatabaseError else { return false }
    return error.resultCode == .SQLITE_MISUSE && (error.message ?? "").contains(callback)
}

struct PersistenceCallbackMisuseTests {
    @Test func didInsertIsCalledEvenWhenTheRowIsIgnored() throws {
        let dbQueue = try playerDatabase()
        try dbQueue.write { db in
            var arthur = Player(id: nil, name: "Arthur")
            try arthur.insert(db)
            #expect(arthur.didInsertCount == 1)
            #expect(arthur.id == 1)

            // Ignored by the policy (unique name): didInsert is still called.
            var copy = Player(id: nil, name: "Arthur")
            try copy.insert(db)
            #expect(copy.didInsertCount == 1)
            #expect(try Player.fetchCount(db) == 1)

            // Ignored by an explicit conflict resolution.
            var other = Player(id: nil, name: "Arthur")
            try other.insert(db, onConflict: .ignore)
            #expect(other.didInsertCount == 1)
        }
    }

    @Test func andFetchMethodsThrowRecordNotFoundWhenTheRowIsIgnored() throws {
        let dbQueue = try playerDatabase()
        try dbQueue.write { db in
            let arthur = try Player(id: nil, name: "Arthur").insertAndFetch(db)
            #expect(arthur.id == 1)
            #expect(throws: RecordError.self) { try Player(id: nil, name: "Arthur").insertAndFetch(db) }
            var copy = Player(id: nil, name: "Arthur")
            #expect(throws: RecordError.self) { _ = try copy.insertAndFetch(db, as: Player.self) }
            #expect(throws: RecordError.self) { try Player(id: nil, name: "Arthur").saveAndFetch(db) }
            do {
                _ = try Player(id: nil, name: "Arthur").insertAndFetch(db)
            } catch let error as RecordError {
                #expect("\(error)" == "Key not found in table player: [id:NULL]")
            }
            #expect(try Player.fetchCount(db) == 1)
        }
    }

    @Test(arguments: [false, true])
    func aroundCallbacksThatSkipTheirActionThrowMisuse(swallowsErrors: Bool) throws {
        let dbQueue = try playerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            // Inserting Arthur again fails: a callback that swallows the
            // error must not pretend the insertion succeeded.
            var clumsy = Clumsy(id: swallowsErrors ? 1 : nil, name: "Arthur", swallowsErrors: swallowsErrors)
            #expect { try clumsy.insert(db) } throws: { isMisuse($0, naming: "aroundInsert") }
            var ghost = Clumsy(id: 42, name: "Ghost", swallowsErrors: swallowsErrors)
            #expect { try ghost.update(db) } throws: { isMisuse($0, naming: "aroundUpdate") }
            #expect { try ghost.save(db) } throws: { isMisuse($0, naming: "aroundUpdate") }
            if !swallowsErrors {
                // Deleting can not fail here: the action is skipped.
                #expect { try ghost.delete(db) } throws: { isMisuse($0, naming: "aroundDelete") }
            }
            var saver = ClumsySaver(id: nil, name: "Barbara")
            #expect { try saver.insert(db) } throws: { isMisuse($0, naming: "aroundSave") }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
        }
    }
}
