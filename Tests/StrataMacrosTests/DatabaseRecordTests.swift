#if Macros
    import Foundation
    import Strata
    import StrataTestSupport
    import Testing

    /// The records of the article "The Record Macro" (once the README's
    /// record section), nested so that their names do not hide the test
    /// kit's `Player`.
    enum ReadmeRecords {
        enum Team: String, Codable, Sendable, DatabaseValueConvertible {
            case red, blue
        }

        @DatabaseRecord
        struct Player: Identifiable, Sendable, FetchableRecord, MutablePersistableRecord {
            var id: Int64?
            var name: String
            @DatabaseColumn("score_value") var score: Int
            var team: Team?  // a RawRepresentable enum, stored as its raw value
            var tags: [String]  // a nested Codable value, stored as JSON like Codable records do
            var lastSeen: Date?
            @DatabaseTransient var isSelected = false  // not a column
        }

        static let schema = """
            CREATE TABLE player (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL,
                score_value INTEGER NOT NULL,
                team TEXT,
                tags TEXT NOT NULL,
                lastSeen DATETIME)
            """
    }

    @Suite("Records written by @DatabaseRecord")
    struct DatabaseRecordTests {
        typealias Player = ReadmeRecords.Player

        @Test("The Record Macro article's player round-trips: insert sets the id, fetch reads every column")
        func readmePlayer() throws {
            let log = SQLLog()
            let dbQueue = try inMemoryDatabase(ReadmeRecords.schema, recordingIn: log)
            let lastSeen = Date(timeIntervalSince1970: 1_700_000_000)
            var player = Player(
                id: nil, name: "Arthur", score: 100, team: .red, tags: ["a", "b"], lastSeen: lastSeen, isSelected: true)
            try dbQueue.write { db in try player.insert(db) }
            #expect(player.id == 1)
            #expect(
                log.statements(.changes) == [
                    #"INSERT INTO "player" ("id", "name", "score_value", "team", "tags", "lastSeen") VALUES (?,?,?,?,?,?)"#
                ])
            let fetched = try dbQueue.read { db in try Player.fetchOne(db, key: 1) }
            let expected = Player(
                id: 1, name: "Arthur", score: 100, team: .red, tags: ["a", "b"], lastSeen: lastSeen, isSelected: false)
            #expect(fetched.map(String.init(describing:)) == String(describing: expected))
            let tagsText = try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT tags FROM player") }
            #expect(tagsText == #"["a","b"]"#)
        }

        @Test("Columns are the generated enum, and the table name follows the default rule")
        func columnsAndTable() throws {
            #expect(Player.databaseTableName == "player")
            #expect(Player.Columns.score.name == "score_value")
            let dbQueue = try inMemoryDatabase(ReadmeRecords.schema)
            let sql = try dbQueue.read { db in
                try requestSQL(db, Player.filter(Player.Columns.score > 10).order(Player.Columns.name))
            }
            #expect(sql == #"SELECT * FROM "player" WHERE "score_value" > ? ORDER BY "name""#)
        }

        @Test("Columns are found by name in any order, and through adapters and copied rows")
        func columnOrder() throws {
            let dbQueue = try inMemoryDatabase(ReadmeRecords.schema)
            let players = try dbQueue.read { db in
                try Player.fetchAll(
                    db,
                    sql: """
                        SELECT '["x"]' AS tags, NULL AS lastSeen, 'blue' AS team, 7 AS SCORE_VALUE, 'Bea' AS name, 3 AS id
                        """)
            }
            #expect(players.map(\.name) == ["Bea"])
            #expect(players.map(\.score) == [7])
            #expect(players.map(\.team) == [.blue])
            #expect(players.map(\.tags) == [["x"]])
            let row = try dbQueue.read { db in
                try Row.fetchOne(db, sql: "SELECT 1 AS id, 'Al' AS name, 2 AS score_value, '[]' AS tags")
            }
            let copied = try Player(row: try #require(row))
            #expect(copied.name == "Al")
            #expect(copied.team == nil)
        }

        @Test("A missing column and a NULL in a non-optional property throw the errors of Decodable records")
        func errors() throws {
            let dbQueue = try inMemoryDatabase(ReadmeRecords.schema)
            try dbQueue.read { db in
                #expect(throws: RowDecodingError.self) {
                    try Player.fetchAll(db, sql: "SELECT 1 AS id, 'Al' AS name, '[]' AS tags")
                }
                #expect(throws: RowDecodingError.self) {
                    try Player.fetchAll(db, sql: "SELECT 1 AS id, NULL AS name, 2 AS score_value, '[]' AS tags")
                }
            }
        }
    }
#endif

#if Macros
    /// Records of two tables and a record of both, to check that macro
    /// records compose with associations as Codable ones do.
    enum LibraryRecords {
        @DatabaseRecord
        struct Author: FetchableRecord, MutablePersistableRecord {
            static let books = hasMany(Book.self)
            var id: Int64?
            var name: String
        }

        @DatabaseRecord
        struct Book: FetchableRecord, MutablePersistableRecord {
            static let author = belongsTo(Author.self)
            var id: Int64?
            var authorId: Int64
            var title: String
        }

        /// A book and its author: `book` reads the whole row, `author` the
        /// association's scope, as in a Codable record.
        @DatabaseRecord
        struct BookInfo: FetchableRecord {
            var book: Book
            var author: Author
        }

        /// An author and the books that `including(all:)` prefetched, which
        /// are not `Decodable`.
        @DatabaseRecord
        struct AuthorInfo: FetchableRecord {
            var author: Author
            var books: [Book]
        }

        /// The same, optional: nil when the request did not prefetch them.
        @DatabaseRecord
        struct AuthorBooks: FetchableRecord {
            var name: String
            var books: [Book]?
        }

        static let schema = """
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT NOT NULL);
            """
    }

    @Suite("@DatabaseRecord records and associations")
    struct DatabaseRecordAssociationTests {
        @Test("A record of records decodes the base row and the association's scope, as a Codable one does")
        func includingRequired() throws {
            let dbQueue = try inMemoryDatabase(LibraryRecords.schema)
            let infos = try dbQueue.write { db in
                var author = LibraryRecords.Author(id: nil, name: "Ursula")
                try author.insert(db)
                for title in ["Earthsea", "Lathe"] {
                    var book = LibraryRecords.Book(id: nil, authorId: author.id!, title: title)
                    try book.insert(db)
                }
                return try LibraryRecords.Book.including(required: LibraryRecords.Book.author)
                    .order(Column("title"))
                    .asRequest(of: LibraryRecords.BookInfo.self)
                    .fetchAll(db)
            }
            #expect(infos.map(\.book.title) == ["Earthsea", "Lathe"])
            #expect(infos.map(\.author.name) == ["Ursula", "Ursula"])
            #expect(infos.map(\.book.id) == [1, 2])
        }

        @Test("A record decodes the records that including(all:) prefetched, and misses them as a Codable one does")
        func includingAll() throws {
            let dbQueue = try inMemoryDatabase(LibraryRecords.schema)
            try dbQueue.write { db in
                for (name, titles) in [("Ursula", ["Earthsea", "Lathe"]), ("Terry", [])] {
                    var author = LibraryRecords.Author(id: nil, name: name)
                    try author.insert(db)
                    for title in titles {
                        var book = LibraryRecords.Book(id: nil, authorId: author.id!, title: title)
                        try book.insert(db)
                    }
                }
            }
            let books = LibraryRecords.Author.books.order(Column("title"))
            let infos = try dbQueue.read { db in
                try LibraryRecords.Author.including(all: books).order(Column("name").desc)
                    .asRequest(of: LibraryRecords.AuthorInfo.self).fetchAll(db)
            }
            #expect(infos.map(\.author.name) == ["Ursula", "Terry"])
            #expect(infos.map { $0.books.map(\.title) } == [["Earthsea", "Lathe"], []])
            #expect(infos.map { $0.books.map(\.id) } == [[1, 2], []])
            let optional = try dbQueue.read { db in
                (
                    try LibraryRecords.Author.including(all: books).order(Column("name"))
                        .asRequest(of: LibraryRecords.AuthorBooks.self).fetchAll(db),
                    try LibraryRecords.Author.order(Column("name")).asRequest(of: LibraryRecords.AuthorBooks.self)
                        .fetchAll(db)
                )
            }
            #expect(optional.0.map { $0.books?.count } == [0, 2])
            #expect(optional.1.map { $0.books?.count } == [nil, nil])
            _ = try dbQueue.read { db in
                #expect(throws: RowDecodingError.self) {
                    _ = try LibraryRecords.Author.all().asRequest(of: LibraryRecords.AuthorInfo.self).fetchAll(db)
                }
            }
        }
    }
#endif
