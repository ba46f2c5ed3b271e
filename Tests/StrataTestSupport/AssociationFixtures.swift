import Strata

/// An author of the library samples (seed 004, "Record recommended practices").
package struct AssocAuthor: Codable, FetchableRecord, TableRecord, Hashable {
    package static let databaseTableName = "author"
    package enum Columns {
        package static let id = Column("id")
        package static let name = Column("name")
        package static let countryCode = Column("countryCode")
    }
    package static let books = hasMany(AssocBook.self)

    package var id: Int64
    package var name: String
    package var countryCode: String?

    package init(id: Int64, name: String, countryCode: String? = nil) {
        self.id = id
        self.name = name
        self.countryCode = countryCode
    }
}

/// A book of the library samples.
package struct AssocBook: Codable, FetchableRecord, TableRecord, Hashable {
    package static let databaseTableName = "book"
    package enum Columns {
        package static let title = Column("title")
        package static let kind = Column("kind")
        package static let year = Column("year")
        package static let authorId = Column("authorId")
    }
    package static let author = belongsTo(AssocAuthor.self)

    package var id: Int64
    package var authorId: Int64?
    package var title: String
    package var kind: String
    package var year: Int

    package init(id: Int64, authorId: Int64? = nil, title: String, kind: String, year: Int) {
        self.id = id
        self.authorId = authorId
        self.title = title
        self.kind = kind
        self.year = year
    }
}

extension DerivableRequest<AssocAuthor> {
    package func filter(countryCode: String) -> Self {
        filter(AssocAuthor.Columns.countryCode == countryCode)
    }

    package func orderByName() -> Self {
        order(AssocAuthor.Columns.name)
    }
}

extension DerivableRequest<AssocBook> {
    package func filter(kind: String) -> Self {
        filter(AssocBook.Columns.kind == kind)
    }

    package func orderByTitle() -> Self {
        order(AssocBook.Columns.title)
    }

    /// Books do not have any country column, but their author has one.
    package func filter(authorCountryCode countryCode: String) -> Self {
        joining(required: AssocBook.author.filter(countryCode: countryCode))
    }
}

/// A library database: four authors (one without books), five books (one anonymous).
package func assocLibrary() throws -> DatabaseQueue {
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
package func parentChildDatabase(_ sql: String = "") throws -> DatabaseQueue {
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
package struct LibCountry: Codable, FetchableRecord, TableRecord, Equatable {
    package static let databaseTableName = "country"
    package static let authors = hasMany(LibAuthor.self)
    package var code: String
    package var name: String

    package init(code: String, name: String) {
        self.code = code
        self.name = name
    }
}

/// An author of ``awardLibrary(_:)``.
package struct LibAuthor: Codable, FetchableRecord, TableRecord, Equatable {
    package static let databaseTableName = "author"
    package static let awards = hasMany(LibAward.self)
    package static let books = hasMany(LibBook.self)
    package static let country = belongsTo(LibCountry.self)
    package var id: Int64
    package var name: String
    package var countryCode: String?

    package init(id: Int64, name: String, countryCode: String? = nil) {
        self.id = id
        self.name = name
        self.countryCode = countryCode
    }
}

/// An award of an author of ``awardLibrary(_:)``.
package struct LibAward: Codable, FetchableRecord, TableRecord, Equatable {
    package static let databaseTableName = "award"
    package static let author = belongsTo(LibAuthor.self)
    package var id: Int64
    package var authorId: Int64
    package var name: String

    package init(id: Int64, authorId: Int64, name: String) {
        self.id = id
        self.authorId = authorId
        self.name = name
    }
}

/// A book of ``awardLibrary(_:)``.
package struct LibBook: Codable, FetchableRecord, TableRecord, Equatable {
    package static let databaseTableName = "book"
    package static let author = belongsTo(LibAuthor.self)
    /// hasOne through a belongsTo: the country of the author.
    package static let country = hasOne(LibCountry.self, through: author, using: LibAuthor.country)
    package var id: Int64
    package var authorId: Int64?
    package var title: String

    package init(id: Int64, authorId: Int64? = nil, title: String) {
        self.id = id
        self.authorId = authorId
        self.title = title
    }
}

/// A database of countries, authors, their awards and their books, whose
/// statements are recorded in `log` (cleared once the tables are filled):
///
/// - country: FR France, DE Germany
/// - author: 1 Hugo (FR), 2 Goethe (DE), 3 Anonymous (no country)
/// - award: 1 Academy (Hugo), 2 Legion (Hugo), 3 Weimar (Goethe)
/// - book: 1 Les Misérables (Hugo), 2 Faust (Goethe), 3 Beowulf (no author),
///   4 Notre-Dame (Hugo), 5 Edda (Anonymous)
package func awardLibrary(_ log: SQLLog) throws -> DatabaseQueue {
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

/// A database of teams and their players, then `sql`:
///
/// - team(id, name): 1 Reds, 2 Blues
/// - player(id, teamId, name): 1 Arthur (Reds), 2 Barbara (Reds), 3 Craig (Blues)
package func teamPlayersDatabase(_ sql: String = "") throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.execute(
            sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT);
                INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues');
                INSERT INTO player VALUES (1, 1, 'Arthur'), (2, 1, 'Barbara'), (3, 2, 'Craig');
                """ + sql)
    }
    return dbQueue
}

/// Runs `body` in a read access of a new ``awardLibrary(_:)``, with the log
/// of its statements (empty when `body` starts).
package func readAwardLibrary<T>(_ body: (Database, SQLLog) throws -> T) throws -> T {
    let log = SQLLog()
    return try awardLibrary(log).read { db in try body(db, log) }
}

/// The joins from `book` to `country` through `author` in
/// ``awardLibrary(_:)``, as the query interface writes them.
package let awardLibraryBookCountryJoins = """
    JOIN "author" ON "author"."id" = "book"."authorId" \
    JOIN "country" ON "country"."code" = "author"."countryCode"
    """

/// A suite on ``awardLibrary(_:)``: its records go by their short names
/// (`Country`, `Author`, `Award`, `Book`) in the suites that adopt it.
package protocol AwardLibrarySuite {}

extension AwardLibrarySuite {
    /// ``LibCountry``.
    package typealias Country = LibCountry
    /// ``LibAuthor``.
    package typealias Author = LibAuthor
    /// ``LibAward``.
    package typealias Award = LibAward
    /// ``LibBook``.
    package typealias Book = LibBook
}
