import Strata

/// An author of the library samples (seed 004, "Record recommended practices").
struct AssocAuthor: Codable, FetchableRecord, TableRecord, Hashable {
    static let databaseTableName = "author"
    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let countryCode = Column("countryCode")
    }
    static let books = hasMany(AssocBook.self)

    var id: Int64
    var name: String
    var countryCode: String?
}

/// A book of the library samples.
struct AssocBook: Codable, FetchableRecord, TableRecord, Hashable {
    static let databaseTableName = "book"
    enum Columns {
        static let title = Column("title")
        static let kind = Column("kind")
        static let year = Column("year")
        static let authorId = Column("authorId")
    }
    static let author = belongsTo(AssocAuthor.self)

    var id: Int64
    var authorId: Int64?
    var title: String
    var kind: String
    var year: Int
}

extension DerivableRequest<AssocAuthor> {
    func filter(countryCode: String) -> Self {
        filter(AssocAuthor.Columns.countryCode == countryCode)
    }

    func orderByName() -> Self {
        order(AssocAuthor.Columns.name)
    }
}

extension DerivableRequest<AssocBook> {
    func filter(kind: String) -> Self {
        filter(AssocBook.Columns.kind == kind)
    }

    func orderByTitle() -> Self {
        order(AssocBook.Columns.title)
    }

    /// Books do not have any country column, but their author has one.
    func filter(authorCountryCode countryCode: String) -> Self {
        joining(required: AssocBook.author.filter(countryCode: countryCode))
    }
}

/// A library database: four authors (one without books), five books (one anonymous).
func assocLibrary() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db throws in
        try db.execute(
            sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, countryCode TEXT);
                CREATE TABLE book (
                  id INTEGER PRIMARY KEY,
                  authorId INTEGER REFERENCES author(id),
                  title TEXT NOT NULL,
                  kind TEXT NOT NULL,
                  year INTEGER NOT NULL);
                INSERT INTO author VALUES (1, 'Dante', 'IT'), (2, 'Goethe', 'DE'), (3, 'García Márquez', 'CO'),
                  (4, 'Schiller', 'DE');
                INSERT INTO book VALUES
                  (1, 1, 'Inferno', 'poem', 1320),
                  (2, 2, 'Faust', 'play', 1808),
                  (3, 2, 'Werther', 'novel', 1774),
                  (4, 3, 'Cien años de soledad', 'novel', 1967),
                  (5, NULL, 'Beowulf', 'poem', 1000);
                """)
    }
    return dbQueue
}

/// A database with `parent(id)` and `child(id, parentId, score)`, then `sql`.
func parentChildDatabase(_ sql: String = "") throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.execute(
            sql: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parent(id), score INTEGER);
                """ + sql)
    }
    return dbQueue
}

/// A country of ``awardLibrary(_:)``.
struct LibCountry: Codable, FetchableRecord, TableRecord, Equatable {
    static let databaseTableName = "country"
    static let authors = hasMany(LibAuthor.self)
    var code: String
    var name: String
}

/// An author of ``awardLibrary(_:)``.
struct LibAuthor: Codable, FetchableRecord, TableRecord, Equatable {
    static let databaseTableName = "author"
    static let awards = hasMany(LibAward.self)
    static let books = hasMany(LibBook.self)
    static let country = belongsTo(LibCountry.self)
    var id: Int64
    var name: String
    var countryCode: String?
}

/// An award of an author of ``awardLibrary(_:)``.
struct LibAward: Codable, FetchableRecord, TableRecord, Equatable {
    static let databaseTableName = "award"
    static let author = belongsTo(LibAuthor.self)
    var id: Int64
    var authorId: Int64
    var name: String
}

/// A book of ``awardLibrary(_:)``.
struct LibBook: Codable, FetchableRecord, TableRecord, Equatable {
    static let databaseTableName = "book"
    static let author = belongsTo(LibAuthor.self)
    /// hasOne through a belongsTo: the country of the author.
    static let country = hasOne(LibCountry.self, through: author, using: LibAuthor.country)
    var id: Int64
    var authorId: Int64?
    var title: String
}

/// A database of countries, authors, their awards and their books, whose
/// statements are recorded in `log` (cleared once the tables are filled):
///
/// - country: FR France, DE Germany
/// - author: 1 Hugo (FR), 2 Goethe (DE), 3 Anonymous (no country)
/// - award: 1 Academy (Hugo), 2 Legion (Hugo), 3 Weimar (Goethe)
/// - book: 1 Les Misérables (Hugo), 2 Faust (Goethe), 3 Beowulf (no author),
///   4 Notre-Dame (Hugo), 5 Edda (Anonymous)
func awardLibrary(_ log: SQLLog) throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue(configuration: log.configuration())
    try dbQueue.write { db in
        try db.execute(
            sql: """
                CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE author (
                  id INTEGER PRIMARY KEY, name TEXT NOT NULL, countryCode TEXT REFERENCES country(code));
                CREATE TABLE award (
                  id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), name TEXT NOT NULL);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT NOT NULL);
                INSERT INTO country VALUES ('FR', 'France'), ('DE', 'Germany');
                INSERT INTO author VALUES (1, 'Hugo', 'FR'), (2, 'Goethe', 'DE'), (3, 'Anonymous', NULL);
                INSERT INTO award VALUES (1, 1, 'Academy'), (2, 1, 'Legion'), (3, 2, 'Weimar');
                INSERT INTO book VALUES (1, 1, 'Les Misérables'), (2, 2, 'Faust'), (3, NULL, 'Beowulf'),
                  (4, 1, 'Notre-Dame'), (5, 3, 'Edda');
                """)
    }
    log.clear()
    return dbQueue
}
