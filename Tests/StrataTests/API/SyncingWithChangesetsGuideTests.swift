import Foundation
import Strata
import StrataTestSupport
import Testing

/// Runs the samples of `Sources/Strata/Strata.docc/SyncingWithChangesets.md`:
/// each ```swift block of the article is a piece of this file
/// (`ArticleSampleTests` checks it).
@Suite("Syncing with changesets guide")
struct SyncingWithChangesetsGuideTests {
    struct Todo: Codable, FetchableRecord, PersistableRecord {
        var id: String
        var title: String
        var isDone: Bool
    }

    /// A replica of the to-do list, with one to-do ("B2").
    static func makeReplica() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "todo") { t in
                t.primaryKey("id", .text)  // a UUID: two replicas never pick the same
                t.column("title", .text).notNull()
                t.column("isDone", .boolean).notNull().defaults(to: false)
            }
            try db.execute(sql: "INSERT INTO todo (id, title) VALUES ('B2', 'Water plants')")
        }
        return dbQueue
    }

    static func dump(_ reader: some DatabaseReader) throws -> String {
        try TextCollector.collect { try reader.dumpTables(["todo"], stableOrder: true, to: $0) }
    }

    @Test("The availability check of the article")
    func availability() throws {
        let phone = try Self.makeReplica()
        let canSync = try phone.read { db in db.linkedSQLite.isAvailable(.sessionExtension) }
        #expect(canSync)
    }

    @Test("Record a unit of work, iterate it, send it, apply it with a policy, and undo it")
    func recordApplyUndo() throws {
        let phone = try Self.makeReplica()
        let server = try Self.makeReplica()
        let start = try Self.dump(phone)
        let changeset = try phone.write { db in
            try db.recordChanges(to: ["todo"]) {
                try Todo(id: "A1", title: "Buy milk", isDone: false).insert(db)
                try db.execute(sql: "UPDATE todo SET isDone = 1 WHERE id = ?", arguments: ["B2"])
            }
        }
        let bytes: Data = changeset.data  // store it, send it

        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        for change in changeset {
            let title = change.newValue(at: 1, as: String.self) ?? "unchanged"
            print(change.operation, change.table, change.primaryKey, title)
        }
        // INSERT todo ["A1"] Buy milk
        // UPDATE todo ["B2"] unchanged
        #expect(printed.sorted() == [#"INSERT todo ["A1"] Buy milk"#, #"UPDATE todo ["B2"] unchanged"#])

        let received = try Changeset(data: bytes)
        #expect(received == changeset)

        // The server has a row A1 already: the phone's values win.
        try server.write { db in try db.execute(sql: "INSERT INTO todo (id, title) VALUES ('A1', 'Milk?')") }
        try server.write { db in
            try db.apply(received) { conflict in
                switch conflict.kind {
                case .data, .conflict: .replace  // the latest writer wins
                case .notFound, .constraint, .foreignKey: .omit
                }
            }
        }
        #expect(try Self.dump(server) == Self.dump(phone))

        let undo = try changeset.inverted()
        try phone.write { db in try db.apply(undo) }
        #expect(try Self.dump(phone) == start)
    }

    @Test("A recorder between syncs, and a two-way sync with a rebase")
    func recorderAndRebase() throws {
        let phone = try Self.makeReplica()
        let server = try Self.makeReplica()
        let recorder = try phone.write { db in try ChangesetRecorder(db, tables: ["todo"]) }

        // The app writes as usual
        try phone.write { db in
            try Todo(id: "C3", title: "Call mom", isDone: false).insert(db)
        }

        // Time to sync
        let outgoing = try phone.write { db in try recorder.takeChangeset(db) }
        #expect(outgoing.map(\.primaryKey) == [["C3".databaseValue]])
        try server.write { db in try db.apply(outgoing) }

        // Both replicas edit B2 while apart.
        let serverRecorder = try server.write { db in try ChangesetRecorder(db, tables: ["todo"]) }
        try server.write { db in try db.execute(sql: "UPDATE todo SET title = 'Water' WHERE id = 'B2'") }
        try phone.write { db in try db.execute(sql: "UPDATE todo SET title = 'Water them all' WHERE id = 'B2'") }

        let fromServer = try server.write { db in try serverRecorder.takeChangeset(db) }
        let local = try phone.write { db in try recorder.takeChangeset(db) }
        // The phone keeps its own edits...
        let rebase = try phone.write { db in
            try db.applyReturningRebase(fromServer) { _ in .omit }
        }
        // ...and sends them, rebased on that choice
        let push = try local.rebased(onto: rebase)
        try server.write { db in try db.apply(push) }

        #expect(try Self.dump(server) == Self.dump(phone))
        #expect(try server.read { db in try Todo.fetchOne(db, key: "B2")?.title } == "Water them all")
        try phone.write { db in recorder.stop(db) }
        try server.write { db in serverRecorder.stop(db) }
    }
}
