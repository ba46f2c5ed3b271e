// One article, one file: the samples of "Recommended Practices for
// Designing Record Types", in the article's order. They build on each other
// (the same authors and books from the first section to the last), so the
// file is as long as the article.

import Foundation
import Strata
import StrataTestSupport
import Testing

// The samples of the "Recommended Practices for Designing Record Types"
// article, run as written (CLLocationCoordinate2D has a local stand-in on
// platforms without CoreLocation).

fileprivate struct Author: Codable, Hashable {
    var id: Int64?
    var name: String
    var countryCode: String?
}

fileprivate struct Book: Codable, Hashable {
    enum Kind: String, Codable {
        case essay, novel, poetry, theater
    }
    var id: Int64?
    var authorId: Int64
    var title: String
    var kind: Kind
}

extension Author: FetchableRecord, MutablePersistableRecord {
    // Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Book: FetchableRecord, MutablePersistableRecord {
    // Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Book.Kind: DatabaseValueConvertible {}

extension Author {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let countryCode = Column(CodingKeys.countryCode)
    }
}

extension Book {
    enum Columns {
        static let id = Column("id")
        static let authorId = Column("authorId")
        static let title = Column("title")
        static let kind = Column("kind")
    }
}

// Author requests
extension DerivableRequest<Author> {
    /// Order authors by name, in a localized case-insensitive fashion
    func orderByName() -> Self {
        order { $0.name.collating(.localizedCaseInsensitiveCompare) }
    }

    /// Filters authors from a country
    func filter(countryCode: String) -> Self {
        filter { $0.countryCode == countryCode }
    }
}

// Book requests
extension DerivableRequest<Book> {
    /// Order books by title, in a localized case-insensitive fashion
    func orderByTitle() -> Self {
        order { $0.title.collating(.localizedCaseInsensitiveCompare) }
    }

    /// Filters books by kind
    fileprivate func filter(kind: Book.Kind) -> Self {
        filter { $0.kind == kind }
    }

    /// Filters books from a country
    func filter(authorCountryCode countryCode: String) -> Self {
        joining(required: Book.author.filter(countryCode: countryCode))
    }
}

extension QueryInterfaceRequest<Author> {
    // Selects authors' name
    func selectName() -> QueryInterfaceRequest<String> {
        select(\.name)
    }
}

extension Book {
    static let author = belongsTo(Author.self)
}

extension Author {
    static let books = hasMany(Book.self)
}

// Identifiable, for `find(_:id:)`.
fileprivate struct IdentifiedAuthor: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "author"
    var id: Int64
    var name: String
    var countryCode: String?
}

#if canImport(CoreLocation)
    import CoreLocation
#endif

fileprivate struct Place: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    private var latitude: CLLocationDegrees
    private var longitude: CLLocationDegrees

    init(name: String, coordinate: CLLocationCoordinate2D) {
        self.name = name
        self.latitude = coordinate.latitude
        self.longitude = coordinate.longitude
    }

    var coordinate: CLLocationCoordinate2D {
        get {
            CLLocationCoordinate2D(
                latitude: latitude,
                longitude: longitude)
        }
        set {
            latitude = newValue.latitude
            longitude = newValue.longitude
        }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

fileprivate struct Product: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    private var priceCents: Int

    init(name: String, price: Decimal) {
        self.name = name
        self.priceCents = Self.cents(for: price)
    }

    var price: Decimal {
        get {
            Decimal(priceCents) / 100
        }
        set {
            priceCents = Self.cents(for: newValue)
        }
    }

    private static func cents(for value: Decimal) -> Int {
        Int(Double(truncating: NSDecimalNumber(decimal: value * 100)))
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

fileprivate struct AuthorInfo: Decodable, FetchableRecord {
    var author: Author
    var bookCount: Int
}

fileprivate struct LiteraryCareer: Codable, FetchableRecord {
    var author: Author
    var books: [Book]
}

fileprivate struct Authorship: Decodable, FetchableRecord {
    var book: Book
    var author: Author
}

private func makeLibrary() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    var migrator = DatabaseMigrator()
    migrator.registerMigration("createLibrary") { db in
        try db.create(table: "author") { t in  // (1)
            t.autoIncrementedPrimaryKey("id")  // (2)
            t.column("name", .text).notNull()  // (3)
            t.column("countryCode", .text)  // (4)
        }

        try db.create(table: "book") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("title", .text).notNull()  // (5)
            t.belongsTo("author", onDelete: .cascade)  // (6)
                .notNull()  // (7)
            t.column("kind", .text).notNull()
        }

        try db.create(table: "place") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("latitude", .double).notNull()
            t.column("longitude", .double).notNull()
        }

        try db.create(table: "product") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("priceCents", .integer).notNull()
        }
    }
    try migrator.migrate(dbQueue)
    return dbQueue
}

/// Inserts authors from several countries, and their books.
private func fillLibrary(_ dbQueue: DatabaseQueue) throws {
    try dbQueue.write { db in
        let library: [(String, String?, [(String, Book.Kind)])] = [
            ("Herman Melville", "US", [("Moby-Dick", .novel)]),
            ("Victor Hugo", "FR", [("Les Misérables", .novel), ("Les Contemplations", .poetry)]),
            ("Albert Camus", "FR", [("Le Mythe de Sisyphe", .essay)]),
            ("miguel de Cervantes", "ES", [("Don Quijote", .novel)]),
            ("Federico García Lorca", "ES", [("Bodas de sangre", .theater)]),
            ("Italo Calvino", "IT", [("Il barone rampante", .novel), ("Lezioni americane", .essay)]),
            ("Gabriel García Márquez", "CO", [("Cien años de soledad", .novel)]),
            ("Thomas Mann", "DE", [("Der Zauberberg", .novel), ("Buddenbrooks", .novel)]),
            ("Günter Grass", "DE", []),
            ("Haruki Murakami", "JP", [("Norwegian Wood", .novel)]),
            ("Yukio Mishima", "JP", []),
            ("Anonymous", nil, [("Beowulf", .poetry)]),
        ]
        for (name, countryCode, books) in library {
            var author = Author(name: name, countryCode: countryCode)
            try author.insert(db)
            for (title, kind) in books {
                var book = Book(authorId: author.id!, title: title, kind: kind)
                try book.insert(db)
            }
        }
    }
}

@Suite("Recommended Practices for Designing Record Types")
struct RecordRecommendedPracticesTests {
    @Test("The schema: indexed, non-null foreign key with cascade")
    func schema() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db in
            let foreignKeys = try db.foreignKeys(on: "book")
            #expect(foreignKeys.count == 1)
            #expect(foreignKeys.first?.destinationTable == "author")
            #expect(foreignKeys.first?.mapping.map(\.origin) == ["authorId"])
            #expect(try db.indexes(on: "book").contains { $0.columns == ["authorId"] })
            #expect(try db.columns(in: "book").first { $0.name == "authorId" }?.isNotNull == true)
        }
        // SQLite guarantees that all books have an existing author, a title,
        // and deletes the books of deleted authors.
        try dbQueue.write { db in
            #expect(throws: DatabaseError.self) {
                var book = Book(authorId: 999, title: "Orphan", kind: .novel)
                try book.insert(db)
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (authorId, kind) VALUES (NULL, 'novel')")
            }
            var author = Author(name: "Herman Melville", countryCode: "US")
            try author.insert(db)
            var book = Book(authorId: author.id!, title: "Moby-Dick", kind: .novel)
            try book.insert(db)
            try author.delete(db)
            #expect(try Book.fetchCount(db) == 0)
        }
    }

    @Test("Insert sets ids; fetch books")
    func insertAndFetch() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.write { db in
            // Insert and set author's id
            var author = Author(name: "Herman Melville", countryCode: "US")
            try author.insert(db)
            #expect(author.id == 1)

            // Insert and set book's id
            var book = Book(authorId: author.id!, title: "Moby-Dick", kind: .novel)
            try book.insert(db)
            #expect(book.id == 1)
        }

        let books = try dbQueue.read { db in
            try Book.fetchAll(db)
        }
        #expect(books == [Book(id: 1, authorId: 1, title: "Moby-Dick", kind: .novel)])

        let authorID: Int64 = 1
        let author: IdentifiedAuthor = try dbQueue.read { db in
            try IdentifiedAuthor.find(db, id: authorID)
        }
        #expect(author.name == "Herman Melville")
        #expect(throws: RecordError.self) {
            try dbQueue.read { db in try IdentifiedAuthor.find(db, id: 42) }
        }
    }

    @Test("Enums, GPS coordinates and money amounts hide raw columns")
    func hiddenColumns() throws {
        let dbQueue = try makeLibrary()
        try fillLibrary(dbQueue)
        // Fetch all novels
        let novels = try dbQueue.read { db in
            try Book.filter { $0.kind == Book.Kind.novel }.fetchAll(db)
        }
        #expect(novels.count == 8)
        #expect(novels.allSatisfy { $0.kind == .novel })
        // An invalid kind stored behind the record's back does not decode.
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE book SET kind = 'comic' WHERE id = 1")
            #expect(throws: (any Error).self) { try Book.fetchAll(db) }
            try db.execute(sql: "UPDATE book SET kind = 'novel' WHERE id = 1")
        }

        try dbQueue.write { db in
            var place = Place(name: "Paris", coordinate: CLLocationCoordinate2D(latitude: 48.8566, longitude: 2.3522))
            try place.insert(db)
            place.coordinate = CLLocationCoordinate2D(latitude: 45.764, longitude: 4.8357)
            try place.update(db)
            let row = try Row.fetchOne(db, sql: "SELECT latitude, longitude FROM place")!
            #expect(row == ["latitude": 45.764, "longitude": 4.8357])
            let fetched = try Place.fetchOne(db)!
            #expect(fetched.coordinate.latitude == 45.764)

            var product = Product(name: "Book", price: Decimal(string: "12.99")!)
            try product.insert(db)
            #expect(try Int.fetchOne(db, sql: "SELECT priceCents FROM product") == 1299)
            product.price = 12
            try product.update(db)
            #expect(try Int.fetchOne(db, sql: "SELECT SUM(priceCents) FROM product") == 1200)
            #expect(try Product.fetchOne(db)!.price == 12)
        }
    }

    @Test("Column requests and request methods")
    func requests() throws {
        let dbQueue = try makeLibrary()
        try fillLibrary(dbQueue)
        try dbQueue.read { db in
            // Fetch all authors, ordered by name,
            // in a localized case-insensitive fashion
            let sortedAuthors: [Author] = try Author.all()
                .order { $0.name.collating(.localizedCaseInsensitiveCompare) }
                .fetchAll(db)
            #expect(sortedAuthors.map(\.name).first == "Albert Camus")
            #expect(sortedAuthors.map(\.name).firstIndex(of: "miguel de Cervantes")! > 5)

            // Count French authors
            let frenchAuthorCount: Int = try Author.all()
                .filter { $0.countryCode == "FR" }
                .fetchCount(db)
            #expect(frenchAuthorCount == 2)

            let sortedSpanishAuthors: [Author] = try Author.all()
                .filter(countryCode: "ES")
                .orderByName()
                .fetchAll(db)
            #expect(sortedSpanishAuthors.map(\.name) == ["Federico García Lorca", "miguel de Cervantes"])

            let novelCount: Int = try Book.all()
                .filter(kind: .novel)
                .fetchCount(db)
            #expect(novelCount == 8)

            // The names of Japanese authors
            let names: Set<String> = try Author.all()
                .filter(countryCode: "JP")
                .selectName()
                .fetchSet(db)
            #expect(names == ["Haruki Murakami", "Yukio Mishima"])
        }
    }

    @Test("Associations: an author's novels, and Italian novels")
    func associations() throws {
        let dbQueue = try makeLibrary()
        try fillLibrary(dbQueue)
        // Fetch all novels from an author
        try dbQueue.read { db in
            let author: Author = try Author.filter { $0.name == "Italo Calvino" }.fetchOne(db)!
            let novels: [Book] = try author.request(for: Author.books)
                .filter(kind: .novel)
                .orderByTitle()
                .fetchAll(db)
            #expect(novels.map(\.title) == ["Il barone rampante"])
        }

        // Fetch all Italian novels
        try dbQueue.read { db in
            let italianNovels: [Book] = try Book.all()
                .filter(kind: .novel)
                .filter(authorCountryCode: "IT")
                .fetchAll(db)
            #expect(italianNovels.map(\.title) == ["Il barone rampante"])
        }
    }

    @Test("Graphs of objects: AuthorInfo, LiteraryCareer, Authorship")
    func graphs() throws {
        let dbQueue = try makeLibrary()
        try fillLibrary(dbQueue)
        let authorInfos: [AuthorInfo] = try dbQueue.read { db in
            try Author
                .annotated(with: Author.books.count)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
        }
        #expect(authorInfos.count == 12)
        #expect(authorInfos.first { $0.author.name == "Victor Hugo" }?.bookCount == 2)
        #expect(authorInfos.first { $0.author.name == "Yukio Mishima" }?.bookCount == 0)

        let careers: [LiteraryCareer] = try dbQueue.read { db in
            // (The article writes `Author.filter(countryCode:)`: request
            // methods apply to requests, hence `all()`.)
            try Author.all()
                .filter(countryCode: "DE")
                .orderByName()
                .including(all: Author.books)
                .asRequest(of: LiteraryCareer.self)
                .fetchAll(db)
        }
        #expect(careers.map(\.author.name) == ["Günter Grass", "Thomas Mann"])
        #expect(careers.map { Set($0.books.map(\.title)) } == [[], ["Der Zauberberg", "Buddenbrooks"]])

        try dbQueue.read { db in
            let authorships: [Authorship] = try Book.all()
                .including(required: Book.author.filter(countryCode: "CO"))
                .asRequest(of: Authorship.self)
                .fetchAll(db)
            #expect(authorships.map(\.book.title) == ["Cien años de soledad"])
            #expect(authorships.map(\.author.name) == ["Gabriel García Márquez"])

            // Equivalent alternative
            let alternative = try Book.all()
                .filter(authorCountryCode: "CO")
                .including(required: Book.author)
                .asRequest(of: Authorship.self)
                .fetchAll(db)
            #expect(alternative.map(\.book) == authorships.map(\.book))
            #expect(alternative.map(\.author) == authorships.map(\.author))
        }
    }

    @Test("Eager loading of an author and its books")
    func eagerLoading() throws {
        let dbQueue = try makeLibrary()
        try fillLibrary(dbQueue)
        try dbQueue.read { db in
            let request = Author.all()
                .including(all: Author.books)  // <- Explicit request for books
                .asRequest(of: LiteraryCareer.self)

            // Fetch first author and its books in one stroke
            let career = try #require(try request.fetchOne(db))
            #expect(career.author.name == "Herman Melville")
            #expect(career.books.map(\.title) == ["Moby-Dick"])
        }
    }
}
