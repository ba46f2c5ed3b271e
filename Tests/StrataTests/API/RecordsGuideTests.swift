import Strata
import StrataTestSupport
import Testing

/// Runs the samples of `Sources/Strata/Strata.docc/Records.md`: each ```swift
/// block of the article is a piece of this file (`ArticleSampleTests` checks it).
struct RecordsGuideTests {
    struct Player: Codable, Identifiable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var score: Int

        enum Columns {
            static let name = Column(CodingKeys.name)
            static let score = Column(CodingKeys.score)
        }
    }

    struct Team: Codable, FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var name: String

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    struct Book: FetchableRecord, PersistableRecord {
        static let databaseTableName = "books"

        var isbn: String
        var title: String

        init(isbn: String, title: String) {
            self.isbn = isbn
            self.title = title
        }

        init(row: Row) throws {
            isbn = row["isbn"]
            title = row["title"]
        }

        func encode(to container: inout PersistenceContainer) throws {
            container["isbn"] = isbn
            container["title"] = title
        }
    }

    /// The database of the reading section: the table and two players.
    static func playerDatabase() throws -> DatabaseQueue {
        // The kit's players 1 (Arthur, 100) and 2 (Barbara, 1000).
        try makePlayerDatabase(players: Array(StrataTestSupport.Player.samples.prefix(2)))
    }

    @Test func writing() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }

            var player = Player(id: 1, name: "Arthur", score: 100)
            try player.insert(db)  // INSERT INTO player ...

            player.score = 150
            try player.update(db)  // UPDATE player SET ... WHERE id = 1

            player.score = 200
            try player.save(db)  // UPDATE, or INSERT when the row is missing

            let deleted = try player.delete(db)  // DELETE FROM player WHERE id = 1
            print(deleted)  // true
        }
        try dbQueue.read { db throws in
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    @Test func reading() throws {
        let dbQueue = try Self.playerDatabase()
        try dbQueue.read { db in
            let players = try Player.fetchAll(db)  // [Player]
            let arthur = try Player.fetchOne(db, id: 1)  // Player?
            let best = try Player.order(Player.Columns.score.desc).fetchOne(db)  // Player?
            let barbara = try Player.find(db, id: 2)  // Player, or throws RecordError.recordNotFound
            let count = try Player.fetchCount(db)  // Int
            #expect(players.map(\.name) == ["Arthur", "Barbara"])
            #expect(arthur?.name == "Arthur")
            #expect(best?.name == "Barbara")
            #expect(barbara.score == 1000)
            #expect(count == 2)
        }
    }

    @Test func filtering() throws {
        let dbQueue = try Self.playerDatabase()
        try dbQueue.read { db in
            let request = Player.filter(Player.Columns.score >= 500).order(Player.Columns.name)
            let strong = try request.fetchAll(db)  // [Player]
            do {
                _ = try Player.find(db, id: 42)
            } catch RecordError.recordNotFound {
                print("no player 42")
            }
            #expect(strong.map(\.name) == ["Barbara"])
        }
    }

    @Test func autoIncrementedIDs() throws {
        let dbQueue = try DatabaseQueue()
        let team = try dbQueue.write { db in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            var team = Team(id: nil, name: "Reds")
            try team.insert(db)
            print(team.id!)  // 1: didInsert stored the new row id
            return team
        }
        #expect(team.id == 1)
    }

    @Test func handWrittenRecord() throws {
        let dbQueue = try inMemoryDatabase { db in
            try db.create(table: "books") { t in
                t.primaryKey("isbn", .text)
                t.column("title", .text).notNull()
            }
            try Book(isbn: "978-0", title: "Dune").insert(db)
            let book = try Book.find(db, key: "978-0")
            print(book.title)  // Dune
        }
        let titles = try dbQueue.read { db in try Book.fetchAll(db).map(\.title) }
        #expect(titles == ["Dune"])
    }
}
