#if STRATA
    import Strata
#else
    import GRDB
#endif
import Hummingbird

/// An author, who has many books.
public struct Author: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    public var name: String
    public var country: String?

    public static let databaseTableName = "author"
    public static let books = hasMany(Book.self)

    public init(id: Int64? = nil, name: String, country: String? = nil) {
        self.id = id
        self.name = name
        self.country = country
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A book, which belongs to its author.
public struct Book: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    public var authorId: Int64
    public var title: String
    public var year: Int?

    public static let databaseTableName = "book"
    public static let author = belongsTo(Author.self)

    public init(id: Int64? = nil, authorId: Int64, title: String, year: Int? = nil) {
        self.id = id
        self.authorId = authorId
        self.title = title
        self.year = year
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// An author and all their books: `Author.including(all: Author.books)`.
public struct AuthorInfo: Codable, Sendable, Equatable, FetchableRecord {
    public var author: Author
    public var books: [Book]

    public init(author: Author, books: [Book]) {
        self.author = author
        self.books = books
    }
}

/// A book and its author: `Book.including(required: Book.author)`.
public struct BookInfo: Codable, Sendable, Equatable, FetchableRecord {
    public var book: Book
    public var author: Author

    public init(book: Book, author: Author) {
        self.book = book
        self.author = author
    }
}

/// The body of `POST /authors`.
public struct NewAuthor: Codable, Sendable {
    public var name: String
    public var country: String?

    public init(name: String, country: String? = nil) {
        self.name = name
        self.country = country
    }
}

/// The body of `POST /authors/:id/books`.
public struct NewBook: Codable, Sendable {
    public var title: String
    public var year: Int?

    public init(title: String, year: Int? = nil) {
        self.title = title
        self.year = year
    }
}

extension Author: ResponseCodable {}
extension Book: ResponseCodable {}
extension AuthorInfo: ResponseCodable {}
extension BookInfo: ResponseCodable {}
