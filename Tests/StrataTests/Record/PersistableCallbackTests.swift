import Foundation
import Strata
import StrataTestSupport
import Testing

private struct Player: Encodable, MutablePersistableRecord {
    var id: Int64?
    var name: String
    @SkipEncoding var log: LockedBox<[String]>

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
    }

    /// Logs "`name` enter" and "`name` exit" around `body`, the exit
    /// followed by what `detail` says of the result.
    private func logAround<T>(_ name: String, _ body: () throws -> T, detail: (T) -> String = { _ in "" }) rethrows
        -> T
    {
        log.append("\(name) enter")
        let result = try body()
        log.append("\(name) exit\(detail(result))")
        return result
    }

    mutating func willInsert(_ db: Database) throws {
        log.append("willInsert")
        if name.isEmpty { name = "Anonymous" }
    }

    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        _ = try logAround("aroundInsert", insert) { " \($0.rowID)" }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        log.append("didInsert \(inserted.rowID) \(inserted.rowIDColumn ?? "nil")")
        id = inserted.rowID
    }

    func willUpdate(_ db: Database, columns: Set<String>) throws { log.append("willUpdate \(columns.sorted())") }

    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        _ = try logAround("aroundUpdate", update)
    }

    func didUpdate(_ updated: PersistenceSuccess) { log.append("didUpdate") }

    func willSave(_ db: Database) throws { log.append("willSave") }

    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        _ = try logAround("aroundSave", save)
    }

    func didSave(_ saved: PersistenceSuccess) { log.append("didSave") }

    func willDelete(_ db: Database) throws { log.append("willDelete") }

    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        _ = try logAround("aroundDelete", delete) { " \($0)" }
    }

    func didDelete(deleted: Bool) { log.append("didDelete \(deleted)") }
}

/// A property wrapper that is not encoded (the log).
@propertyWrapper
private struct SkipEncoding<Value>: Encodable {
    var wrappedValue: Value
    func encode(to encoder: any Encoder) throws {}
}

private func database() throws -> DatabaseQueue {
    try inMemoryDatabase { db in
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
        }
    }
}

/// The callbacks of the insertion of the row `id`.
private func insertionEvents(_ id: Int) -> [String] {
    [
        "willSave", "aroundSave enter", "willInsert", "aroundInsert enter", "aroundInsert exit \(id)",
        "didInsert \(id) id", "aroundSave exit", "didSave",
    ]
}

/// The callbacks of the update of the whole row.
private let updateEvents = [
    "willSave", "aroundSave enter", "willUpdate [\"id\", \"name\"]", "aroundUpdate enter", "aroundUpdate exit",
    "didUpdate", "aroundSave exit", "didSave",
]

/// Runs `body` in a write on a new database, with an empty callback log.
private func withCallbackLog(_ body: (Database, LockedBox<[String]>) throws -> Void) throws {
    let dbQueue = try database()
    let log = LockedBox<[String]>([])
    try dbQueue.write { db in try body(db, log) }
}

/// Runs `body` in a write, with Arthur inserted (id 1) and the log emptied
/// since.
private func withArthur(_ body: (Database, inout Player, LockedBox<[String]>) throws -> Void) throws {
    try withCallbackLog { db, log in
        var player = Player(id: nil, name: "Arthur", log: log)
        try player.insert(db)
        log.value = []
        try body(db, &player, log)
    }
}

struct PersistableCallbackTests {
    @Test func insertCallbacks() throws {
        try withCallbackLog { db, log in
            var player = Player(id: nil, name: "", log: log)
            try player.insert(db)
            #expect(player.id == 1)
            #expect(player.name == "Anonymous")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "Anonymous")
            #expect(log.value == insertionEvents(1))
        }
    }

    @Test func updateCallbacks() throws {
        try withArthur { db, player, log in
            try player.update(db)
            #expect(log.value == updateEvents)
            log.value = []
            try player.update(db, columns: ["name"])
            #expect(log.value[2] == "willUpdate [\"name\"]")
        }
    }

    @Test func saveCallbacks() throws {
        try withCallbackLog { db, log in
            // No primary key: insert.
            var player = Player(id: nil, name: "Arthur", log: log)
            try player.save(db)
            #expect(log.value == insertionEvents(1))
            // Existing row: update.
            log.value = []
            try player.save(db)
            #expect(log.value == updateEvents)
            // Missing row: update fails, then insert.
            log.value = []
            var missing = Player(id: 42, name: "Barbara", log: log)
            try missing.save(db)
            #expect(
                log.value == [
                    "willSave", "aroundSave enter", "willUpdate [\"id\", \"name\"]", "aroundUpdate enter",
                    "willInsert", "aroundInsert enter", "aroundInsert exit 42", "didInsert 42 id", "aroundSave exit",
                    "didSave",
                ])
        }
    }

    @Test func deleteCallbacks() throws {
        try withArthur { db, player, log in
            try player.delete(db)
            try player.delete(db)
            #expect(
                log.value == [
                    "willDelete", "aroundDelete enter", "aroundDelete exit true", "didDelete true",
                    "willDelete", "aroundDelete enter", "aroundDelete exit false", "didDelete false",
                ])
        }
    }

    @Test func upsertCallbacksAreInsertionCallbacks() throws {
        try withCallbackLog { db, log in
            var player = Player(id: 3, name: "Arthur", log: log)
            try player.upsert(db)
            #expect(log.value == insertionEvents(3))
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
        try DatabaseQueue().write { db in
            try db.create(table: "link") { t in t.column("url", .text) }
            try Link(url: URL(string: "https://example.com")!).insert(db)
            #expect(throws: ValidationError.self) { try Link(url: URL(string: "relative")!).insert(db) }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM link") == 1)
        }
    }

    @Test func errorInsideAroundInsertPropagates() throws {
        try withArthur { db, _, log in
            var duplicate = Player(id: 1, name: "Barbara", log: log)
            #expect(throws: DatabaseError.self) { try duplicate.insert(db) }
            #expect(log.value == ["willSave", "aroundSave enter", "willInsert", "aroundInsert enter"])
        }
    }
}
