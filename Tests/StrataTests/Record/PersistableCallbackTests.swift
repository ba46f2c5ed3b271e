import Foundation
import Strata
import StrataTestSupport
import Testing

/// Records the persistence callbacks it goes through.
private final class CallbackLog: @unchecked Sendable {
    var events: [String] = []
}

private struct Player: Encodable, MutablePersistableRecord {
    var id: Int64?
    var name: String
    @SkipEncoding var log: CallbackLog

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
    }

    mutating func willInsert(_ db: Database) throws {
        log.events.append("willInsert")
        if name.isEmpty { name = "Anonymous" }
    }

    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        log.events.append("aroundInsert enter")
        let inserted = try insert()
        log.events.append("aroundInsert exit \(inserted.rowID)")
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        log.events.append("didInsert \(inserted.rowID) \(inserted.rowIDColumn ?? "nil")")
        id = inserted.rowID
    }

    func willUpdate(_ db: Database, columns: Set<String>) throws {
        log.events.append("willUpdate \(columns.sorted())")
    }

    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        log.events.append("aroundUpdate enter")
        _ = try update()
        log.events.append("aroundUpdate exit")
    }

    func didUpdate(_ updated: PersistenceSuccess) {
        log.events.append("didUpdate")
    }

    func willSave(_ db: Database) throws {
        log.events.append("willSave")
    }

    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        log.events.append("aroundSave enter")
        _ = try save()
        log.events.append("aroundSave exit")
    }

    func didSave(_ saved: PersistenceSuccess) {
        log.events.append("didSave")
    }

    func willDelete(_ db: Database) throws {
        log.events.append("willDelete")
    }

    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        log.events.append("aroundDelete enter")
        let deleted = try delete()
        log.events.append("aroundDelete exit \(deleted)")
    }

    func didDelete(deleted: Bool) {
        log.events.append("didDelete \(deleted)")
    }
}

/// A property wrapper that is not encoded (the log).
@propertyWrapper
private struct SkipEncoding<Value>: Encodable {
    var wrappedValue: Value
    func encode(to encoder: any Encoder) throws {}
}

private func database() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
        }
    }
    return dbQueue
}

struct PersistableCallbackTests {
    @Test func insertCallbacks() throws {
        let dbQueue = try database()
        let log = CallbackLog()
        try dbQueue.write { db in
            var player = Player(id: nil, name: "", log: log)
            try player.insert(db)
            #expect(player.id == 1)
            #expect(player.name == "Anonymous")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "Anonymous")
        }
        #expect(
            log.events == [
                "willSave", "aroundSave enter", "willInsert", "aroundInsert enter", "aroundInsert exit 1",
                "didInsert 1 id", "aroundSave exit", "didSave",
            ])
    }

    @Test func updateCallbacks() throws {
        let dbQueue = try database()
        let log = CallbackLog()
        try dbQueue.write { db in
            var player = Player(id: nil, name: "Arthur", log: log)
            try player.insert(db)
            log.events = []
            try player.update(db)
            #expect(
                log.events == [
                    "willSave", "aroundSave enter", "willUpdate [\"id\", \"name\"]", "aroundUpdate enter",
                    "aroundUpdate exit", "didUpdate", "aroundSave exit", "didSave",
                ])
            log.events = []
            try player.update(db, columns: ["name"])
            #expect(log.events[2] == "willUpdate [\"name\"]")
        }
    }

    @Test func saveCallbacks() throws {
        let dbQueue = try database()
        let log = CallbackLog()
        try dbQueue.write { db in
            // No primary key: insert.
            var player = Player(id: nil, name: "Arthur", log: log)
            try player.save(db)
            #expect(
                log.events == [
                    "willSave", "aroundSave enter", "willInsert", "aroundInsert enter", "aroundInsert exit 1",
                    "didInsert 1 id", "aroundSave exit", "didSave",
                ])
            // Existing row: update.
            log.events = []
            try player.save(db)
            #expect(
                log.events == [
                    "willSave", "aroundSave enter", "willUpdate [\"id\", \"name\"]", "aroundUpdate enter",
                    "aroundUpdate exit", "didUpdate", "aroundSave exit", "didSave",
                ])
            // Missing row: update fails, then insert.
            log.events = []
            var missing = Player(id: 42, name: "Barbara", log: log)
            try missing.save(db)
            #expect(
                log.events == [
                    "willSave", "aroundSave enter", "willUpdate [\"id\", \"name\"]", "aroundUpdate enter",
                    "willInsert", "aroundInsert enter", "aroundInsert exit 42", "didInsert 42 id", "aroundSave exit",
                    "didSave",
                ])
        }
    }

    @Test func deleteCallbacks() throws {
        let dbQueue = try database()
        let log = CallbackLog()
        try dbQueue.write { db in
            var player = Player(id: nil, name: "Arthur", log: log)
            try player.insert(db)
            log.events = []
            try player.delete(db)
            try player.delete(db)
            #expect(
                log.events == [
                    "willDelete", "aroundDelete enter", "aroundDelete exit true", "didDelete true",
                    "willDelete", "aroundDelete enter", "aroundDelete exit false", "didDelete false",
                ])
        }
    }

    @Test func upsertCallbacksAreInsertionCallbacks() throws {
        let dbQueue = try database()
        let log = CallbackLog()
        try dbQueue.write { db in
            var player = Player(id: 3, name: "Arthur", log: log)
            try player.upsert(db)
            #expect(
                log.events == [
                    "willSave", "aroundSave enter", "willInsert", "aroundInsert enter", "aroundInsert exit 3",
                    "didInsert 3 id", "aroundSave exit", "didSave",
                ])
        }
    }

    @Test func failingCallbackPreventsPersistence() throws {
        struct ValidationError: Error {}
        struct Link: Encodable, PersistableRecord {
            var url: URL
            func willSave(_ db: Database) throws {
                if url.host == nil { throw ValidationError() }
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "link") { t in t.column("url", .text) }
            try Link(url: URL(string: "https://example.com")!).insert(db)
            #expect(throws: ValidationError.self) { try Link(url: URL(string: "relative")!).insert(db) }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM link") == 1)
        }
    }

    @Test func errorInsideAroundInsertPropagates() throws {
        let dbQueue = try database()
        let log = CallbackLog()
        try dbQueue.write { db in
            var player = Player(id: 1, name: "Arthur", log: log)
            try player.insert(db)
            log.events = []
            var duplicate = Player(id: 1, name: "Barbara", log: log)
            #expect(throws: DatabaseError.self) { try duplicate.insert(db) }
            #expect(log.events == ["willSave", "aroundSave enter", "willInsert", "aroundInsert enter"])
        }
    }
}
