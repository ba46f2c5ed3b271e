import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// An insert borrows its record type's persistence facts without retaining
/// them (`Database.unmanagedRecordPersistenceInfo(_:)`), and moves the
/// containers it fills in and out of them (issue 34: no atomic reference
/// counting per record). The facts that the schema cache drops while an
/// insert may borrow them live until the end of the access.
@Suite struct BorrowedPersistenceInfoTests {
    /// The test kit's `Player`, encoded by hand.
    struct HandWrittenPlayer: MutablePersistableRecord {
        static let databaseTableName = "player"
        var player: Player

        func encode(to container: inout PersistenceContainer) {
            container["id"] = player.id
            container["name"] = player.name
            container["score"] = player.score
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            player.id = inserted.rowID
        }
    }

    static let schema = Player.createTableSQL

    @Test("Facts dropped by a cleared schema cache live until the end of the access, then go")
    func droppedFactsLiveUntilTheEndOfTheAccess() throws {
        let dbQueue = try inMemoryDatabase(Self.schema)
        weak var dropped: RecordPersistenceInfo?
        try dbQueue.write { db in
            let unmanaged = db.unmanagedRecordPersistenceInfo(Player.self)
            dropped = unmanaged.takeUnretainedValue()
            db.clearSchemaCache()
            #expect(dropped != nil)
            // The borrowed facts still work, and new ones replace them.
            #expect(unmanaged._withUnsafeGuaranteedRef { $0.tableName } == "player")
            #expect(db.recordPersistenceInfo(Player.self) !== dropped)
            var player = Player(name: "Arthur", score: 1)
            try player.insert(db)
            #expect(player.id == 1)
        }
        #expect(dropped == nil)
    }

    /// A record type whose table changes.
    struct Routed: MutablePersistableRecord {
        nonisolated(unsafe) static var table = "a"
        static var databaseTableName: String { table }
        func encode(to container: inout PersistenceContainer) {}
    }

    @Test("Facts replaced for another table of the same type, or dropped by a reset, live until the end of the access")
    func replacedFactsLiveUntilTheEndOfTheAccess() throws {
        let dbQueue = try inMemoryDatabase()
        weak var replaced: RecordPersistenceInfo?
        weak var reset: RecordPersistenceInfo?
        try dbQueue.write { db in
            Routed.table = "a"
            replaced = db.recordPersistenceInfo(Routed.self)
            Routed.table = "b"
            reset = db.recordPersistenceInfo(Routed.self)
            #expect(replaced != nil && reset !== replaced)
            // A rollback that undoes schema changes resets the cache.
            db.schemaCache.reset()
            #expect(replaced != nil && reset != nil)
        }
        #expect(replaced == nil && reset == nil)
    }

    /// Clears the schema cache when a transaction commits: during an
    /// insert outside of a transaction, before the insert uses its facts
    /// for the last time.
    final class CacheClearer: TransactionObserver, @unchecked Sendable {
        var commits = 0
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) {
            commits += 1
            db.clearSchemaCache()
        }
        func databaseDidRollback(_ db: Database) {}
    }

    @Test("Inserts outside of a transaction whose commit clears the schema cache keep working")
    func cacheClearedAtEachCommit() throws {
        let dbQueue = try inMemoryDatabase(Self.schema)
        let clearer = CacheClearer()
        try dbQueue.inDatabase { db in
            db.add(transactionObserver: clearer, extent: .observerLifetime)
            for index in 0..<4 {
                var player = Player(name: "E\(index)", score: index)
                try player.insert(db)
                #expect(player.id == Int64(2 * index + 1))
                var handPlayer = HandWrittenPlayer(player: Player(name: "H\(index)", score: index))
                try handPlayer.insert(db)
                #expect(handPlayer.player.id == Int64(2 * index + 2))
            }
        }
        #expect(clearer.commits == 8)
        #expect(
            try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") } == [
                "E0", "H0", "E1", "H1", "E2", "H2", "E3", "H3",
            ])
    }

    /// Sets its name column only when it has a name.
    struct SometimesNamed: MutablePersistableRecord {
        static let databaseTableName = "note"
        var id: Int64?
        var name: String?

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            if let name { container["name"] = name }
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    @Test("A hand-written insert's container gives its columns back to the facts, and the next one takes them")
    func handWrittenContainersReuseTheirColumns() throws {
        try inMemoryWrite("CREATE TABLE note (id INTEGER PRIMARY KEY, name TEXT DEFAULT 'none')") { db in
            var previousTemplate: [String]?
            for name in ["a", "b", "c", nil, nil, "d", nil, "e", "f"] {
                var note = SometimesNamed(id: nil, name: name)
                try note.insert(db)
                let info = db.recordPersistenceInfo(SometimesNamed.self)
                let template = try #require(info.encodingTemplate)
                #expect(template == (name == nil ? ["id"] : ["id", "name"]))
                // Recycled: the spare columns are the template's buffer when
                // the record followed it (a record that set fewer columns
                // made a new template: the next container copies it once).
                if template == previousTemplate {
                    #expect(PersistenceContainer.sharesBuffer(info.spareColumns, template))
                }
                previousTemplate = template
                // Taken (moved) by the next container, which follows the template.
                let container = info.makeContainer()
                #expect(info.spareColumns.isEmpty)
                #expect(container.followsTemplate)
                #expect(PersistenceContainer.sharesBuffer(container.storedColumns, template))
            }
            let names = try String.fetchAll(db, sql: "SELECT name FROM note ORDER BY id")
            #expect(names == ["a", "b", "c", "none", "none", "d", "none", "e", "f"])
        }
    }

    @Test("A bound Encodable insert moves its container out of the facts and back, unless it gave up binding")
    func boundContainerIsKept() throws {
        try inMemoryWrite(Self.schema) { db in
            for index in 0..<3 {
                var player = Player(name: "E\(index)", score: index)
                try player.insert(db)
            }
            let info = db.recordPersistenceInfo(Player.self)
            let template = try #require(info.encodingTemplate)
            #expect(info.bindingContainer.isEmptyBindingContainer(of: template))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 3)
        }
    }
}
