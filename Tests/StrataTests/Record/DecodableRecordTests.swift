import Foundation
import Strata
import StrataTestSupport
import Testing

// The records of the RecordRecommendedPractices article (seed 004) and of
// the Records chapter (seed 000), decoded from rows written with SQL: the
// persistence side is tested elsewhere. The article's records are the
// kit's `PracticeAuthor` and `PracticeBook`.

private typealias Author = PracticeAuthor
private typealias Book = PracticeBook

extension DerivableRequest<Author> {
    /// Order authors by name, in a localized case-insensitive fashion
    fileprivate func orderByName() -> Self {
        order { $0.name.collating(.localizedCaseInsensitiveCompare) }
    }

    /// Filters authors from a country
    fileprivate func filter(countryCode: String) -> Self {
        filter { $0.countryCode == countryCode }
    }
}

extension DerivableRequest<Book> {
    /// Order books by title, in a localized case-insensitive fashion
    fileprivate func orderByTitle() -> Self {
        order { $0.title.collating(.localizedCaseInsensitiveCompare) }
    }

    /// Filters books by kind
    fileprivate func filter(kind: Book.Kind) -> Self {
        filter { $0.kind == kind }
    }
}

/// A string-backed enum that is not a database value: decoded from the
/// single value of its column.
private enum Mood: String, Decodable {
    case happy, sad
}

private struct Diary: Decodable, FetchableRecord {
    var mood: Mood
    var previousMood: Mood?
}

private struct Coordinate: Equatable {
    var latitude: Double
    var longitude: Double
}

private struct Place: Codable, FetchableRecord, Equatable {
    var id: Int64?
    var name: String
    private var latitude: Double
    private var longitude: Double

    var coordinate: Coordinate {
        get { Coordinate(latitude: latitude, longitude: longitude) }
        set {
            latitude = newValue.latitude
            longitude = newValue.longitude
        }
    }
}

private struct Product: Codable, FetchableRecord {
    var id: Int64?
    var name: String
    private var priceCents: Int

    var price: Decimal {
        get { Decimal(priceCents) / 100 }
        set { priceCents = Self.cents(for: newValue) }
    }

    private static func cents(for value: Decimal) -> Int {
        Int(Double(truncating: NSDecimalNumber(decimal: value * 100)))
    }
}

private struct MyRecord: Decodable, FetchableRecord {
    var consumed: String
}

/// The kit's `PlayerAchievement`s in a JSON column, and other JSON columns.
private struct JSONPlayer: Codable, FetchableRecord {
    var name: String
    var score: Int
    var achievements: [PlayerAchievement]
    var tags: Set<String>?
    var attributes: [String: Int]?
}

private let decoderName = CodingUserInfoKey(rawValue: "decoderName")!

private struct NamedPlayer: FetchableRecord, Decodable {
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [decoderName: "database row"] }
    var name: String
    var decodedFrom: String

    enum CodingKeys: String, CodingKey { case name }

    init(from decoder: any Decoder) throws {
        decodedFrom = decoder.userInfo[decoderName] as? String ?? "unknown decoder"
        name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
    }
}

private struct AllTypes: Decodable, FetchableRecord {
    var bool: Bool
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var double: Double
    var float: Float
    var string: String
    var data: Data
    var date: Date
    var uuid: UUID
    var decimal: Decimal
    var optionalInt: Int?
    var optionalString: String?
    var missingInt: Int?
    var missingDate: Date?
    var missingUUID: UUID?
}

/// Decodes a record from the row of `sql`, in a new in-memory database.
private func decodeRow<Record: FetchableRecord>(_ type: Record.Type, sql: String) throws -> Record? {
    try DatabaseQueue().read { db in try Record.fetchOne(db, sql: sql) }
}

/// Decodable records: coding keys are columns, nested values are JSON.
struct DecodableRecordTests {
    private func bookDatabase() throws -> DatabaseQueue {
        try inMemoryDatabase { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("countryCode", .text)
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("authorId", .integer).notNull().references("author")
                t.column("title", .text).notNull()
                t.column("kind", .text).notNull()
            }
            try db.execute(
                sql: """
                    INSERT INTO author (name, countryCode) VALUES ('Herman Melville', 'US'), ('Anonymous', NULL);
                    INSERT INTO book (authorId, title, kind) VALUES (1, 'Moby-Dick', 'novel'), (1, 'Poems', 'poetry');
                    """)
        }
    }

    @Test func recommendedPracticesRecords() throws {
        let dbQueue = try bookDatabase()
        let books = try dbQueue.read { db in try Book.fetchAll(db) }
        #expect(
            books == [
                Book(id: 1, authorId: 1, title: "Moby-Dick", kind: .novel),
                Book(id: 2, authorId: 1, title: "Poems", kind: .poetry),
            ])
        let authors = try dbQueue.read { db in try Author.fetchAll(db) }
        #expect(
            authors == [
                Author(id: 1, name: "Herman Melville", countryCode: "US"),
                Author(id: 2, name: "Anonymous", countryCode: nil),
            ])
    }

    @Test func enumPropertiesFilterRequests() throws {
        let dbQueue = try bookDatabase()
        let novels = try dbQueue.read { db in
            try Book.filter { $0.kind == Book.Kind.novel }.fetchAll(db)
        }
        #expect(novels.map(\.title) == ["Moby-Dick"])
    }

    @Test func recordRequests() throws {
        let dbQueue = try bookDatabase()
        try dbQueue.read { db throws in
            let sortedAuthors: [Author] = try Author.all()
                .order { $0.name.collating(.localizedCaseInsensitiveCompare) }
                .fetchAll(db)
            #expect(sortedAuthors.map(\.name) == ["Anonymous", "Herman Melville"])
            let usAuthorCount: Int = try Author.all()
                .filter { $0.countryCode == "US" }
                .fetchCount(db)
            #expect(usAuthorCount == 1)
            let sortedUSAuthors: [Author] = try Author.all()
                .filter(countryCode: "US")
                .orderByName()
                .fetchAll(db)
            #expect(sortedUSAuthors.map(\.name) == ["Herman Melville"])
            let novelCount: Int = try Book.all()
                .filter(kind: .novel)
                .fetchCount(db)
            #expect(novelCount == 1)
            #expect(try Book.all().orderByTitle().fetchAll(db).map(\.title) == ["Moby-Dick", "Poems"])
        }
    }

    @Test func columnsDerivedFromCodingKeys() throws {
        let dbQueue = try bookDatabase()
        #expect(Author.Columns.countryCode.name == "countryCode")
        let authors = try dbQueue.read { db in
            try Author.filter(Author.Columns.countryCode == "US").order(Author.Columns.name).fetchAll(db)
        }
        #expect(authors.map(\.name) == ["Herman Melville"])
    }

    @Test func stringEnumWithoutDatabaseValueConformance() throws {
        let dbQueue = try DatabaseQueue()
        let diary = try dbQueue.read { db in
            try Diary.fetchOne(db, sql: "SELECT 'happy' AS mood, NULL AS previousMood")
        }
        #expect(diary?.mood == .happy)
        #expect(diary?.previousMood == nil)
        let other = try dbQueue.read { db in
            try Diary.fetchOne(db, sql: "SELECT 'sad' AS mood, 'happy' AS previousMood")
        }
        #expect(other?.previousMood == .happy)
    }

    @Test func privateRawColumnsBehindAccessors() throws {
        let dbQueue = try DatabaseQueue()
        let place = try dbQueue.read { db in
            try Place.fetchOne(db, sql: "SELECT 1 AS id, 'Paris' AS name, 48.8566 AS latitude, 2.3522 AS longitude")
        }
        #expect(place?.coordinate == Coordinate(latitude: 48.8566, longitude: 2.3522))
        let product = try dbQueue.read { db in
            try Product.fetchOne(db, sql: "SELECT 1 AS id, 'Pen' AS name, 1250 AS priceCents")
        }
        #expect(product?.price == Decimal(string: "12.5"))
    }

    @Test func decodableFetchingMethods() throws {
        // The kit's players 1 (Arthur, 100) and 2 (Barbara, 1000).
        let dbQueue = try makePlayerDatabase(players: Array(Player.samples.prefix(2)))
        try dbQueue.read { db in
            let sql = "SELECT * FROM player ORDER BY id"
            #expect(try Player.fetchOne(db, sql: sql) == Player(id: 1, name: "Arthur", score: 100))
            #expect(try Player.fetchAll(db, sql: sql).map(\.name) == ["Arthur", "Barbara"])
            #expect(try Player.fetchSet(db, sql: sql).count == 2)
            let cursor = try Player.fetchCursor(db, sql: sql)
            #expect(try cursor.next()?.name == "Arthur")
            #expect(try cursor.next()?.name == "Barbara")
            #expect(try cursor.next() == nil)
            let players = try Player.fetchAll(db, sql: "SELECT * FROM player WHERE score > ?", arguments: [500])
            #expect(players.map(\.name) == ["Barbara"])
        }
    }

    @Test func rowAdapterFeedsRecords() throws {
        let dbQueue = try DatabaseQueue()
        let adapter = ColumnMapping(["consumed": "produced"])
        let record = try dbQueue.read { db in
            try MyRecord.fetchOne(db, sql: "SELECT 'Hello' AS produced", adapter: adapter)
        }
        #expect(record?.consumed == "Hello")
    }

    @Test func jsonColumns() throws {
        let player = try decodeRow(
            JSONPlayer.self,
            sql: """
                SELECT 'Arthur' AS name, 100 AS score,
                '[{"color":"gold","name":"Use Codable Records"}]' AS achievements,
                '["a","b"]' AS tags, CAST('{"x":1}' AS BLOB) AS attributes
                """)
        #expect(player?.achievements == [PlayerAchievement(name: "Use Codable Records", color: .gold)])
        #expect(player?.tags == ["a", "b"])
        #expect(player?.attributes == ["x": 1])
        let withNulls = try decodeRow(
            JSONPlayer.self, sql: "SELECT 'Arthur' AS name, 100 AS score, '[]' AS achievements, NULL AS tags")
        #expect(withNulls?.achievements == [])
        #expect(withNulls?.tags == nil)
        #expect(withNulls?.attributes == nil)
    }

    @Test func userInfo() throws {
        let json = Data(#"{"name":"Arthur"}"#.utf8)
        let decoder = JSONDecoder()
        decoder.userInfo = [decoderName: "JSON"]
        #expect(try decoder.decode(NamedPlayer.self, from: json).decodedFrom == "JSON")

        let player = try decodeRow(NamedPlayer.self, sql: "SELECT 'Arthur' AS name")
        #expect(player?.decodedFrom == "database row")
        #expect(player?.name == "Arthur")
    }

    @Test func defaultStrategies() {
        #expect(Player.databaseDecodingUserInfo.isEmpty)
        if case .useDefaultKeys = Player.databaseColumnDecodingStrategy {} else { Issue.record("not default") }
        if case .deferredToDate = Player.databaseDateDecodingStrategy(for: "x") {} else { Issue.record("date") }
        if case .deferredToData = Player.databaseDataDecodingStrategy(for: "x") {} else { Issue.record("data") }
        let decoder = Player.databaseJSONDecoder(for: "x")
        if case .base64 = decoder.dataDecodingStrategy {} else { Issue.record("base64") }
        if case .millisecondsSince1970 = decoder.dateDecodingStrategy {} else { Issue.record("ms") }
        if case .throw = decoder.nonConformingFloatDecodingStrategy {} else { Issue.record("floats") }
    }

    @Test func allValueTypes() throws {
        let record = try decodeRow(
            AllTypes.self,
            sql: """
                SELECT 1 AS bool, -1 AS int, -8 AS int8, -16 AS int16, -32 AS int32, -64 AS int64,
                1 AS uint, 8 AS uint8, 16 AS uint16, 32 AS uint32, 64 AS uint64, 1.5 AS double, 2.5 AS float,
                'foo' AS string, X'0102' AS data, '2024-05-31 12:34:56.789' AS date,
                'E621E1F8-C36C-495A-93FC-0C247A3E6E5F' AS uuid, '12.25' AS decimal,
                12 AS optionalInt, NULL AS optionalString
                """)
        let r = try #require(record)
        #expect(r.bool && r.int == -1 && r.int8 == -8 && r.int16 == -16 && r.int32 == -32 && r.int64 == -64)
        #expect(r.uint == 1 && r.uint8 == 8 && r.uint16 == 16 && r.uint32 == 32 && r.uint64 == 64)
        #expect(r.double == 1.5 && r.float == 2.5 && r.string == "foo")
        #expect(r.data == Data([1, 2]))
        #expect(r.date == Date.fromDatabaseValue("2024-05-31 12:34:56.789".databaseValue))
        #expect(r.uuid == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(r.decimal == Decimal(string: "12.25"))
        #expect(r.optionalInt == 12 && r.optionalString == nil)
        #expect(r.missingInt == nil && r.missingDate == nil && r.missingUUID == nil)
    }

    @Test func fetchableRecordDecoder() throws {
        let row: Row = ["id": 1, "name": "Arthur", "score": 100]
        let player = try FetchableRecordDecoder().decode(Player.self, from: row)
        #expect(player == Player(id: 1, name: "Arthur", score: 100))
        #expect(try Player(row: row) == player)
    }

    @Test func rowsAreCaseInsensitive() throws {
        let row: Row = ["ID": 1, "NAME": "Arthur", "Score": 100]
        #expect(try Player(row: row) == Player(id: 1, name: "Arthur", score: 100))
    }

    @Test func leftmostColumnWins() throws {
        let dbQueue = try DatabaseQueue()
        let player = try dbQueue.read { db in
            try Player.fetchOne(db, sql: "SELECT 1 AS id, 'Arthur' AS name, 10 AS score, 'Barbara' AS name")
        }
        #expect(player?.name == "Arthur")
    }
}
