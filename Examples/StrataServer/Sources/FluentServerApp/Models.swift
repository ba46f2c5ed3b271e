import FluentKit
import Hummingbird

// The models of the Fluent build of the example: the tables and columns of
// the GRDB-API build (Sources/App), written as Fluent writes them, so that
// the two builds answer the same JSON and load.sh sends them the same
// requests.

/// An author, who has many books.
public final class Author: Model, @unchecked Sendable {
    public static let schema = "author"

    @ID(custom: "id", generatedBy: .database) public var id: Int64?
    @Field(key: "name") public var name: String
    @OptionalField(key: "country") public var country: String?
    @Children(for: \.$author) public var books: [Book]

    public init() {}

    public init(name: String, country: String? = nil) {
        self.name = name
        self.country = country
    }
}

/// A book, which belongs to its author.
public final class Book: Model, @unchecked Sendable {
    public static let schema = "book"

    @ID(custom: "id", generatedBy: .database) public var id: Int64?
    @Parent(key: "authorId") public var author: Author
    @Field(key: "title") public var title: String
    @OptionalField(key: "year") public var year: Int?

    public init() {}

    public init(authorID: Int64, title: String, year: Int? = nil) {
        self.$author.id = authorID
        self.title = title
        self.year = year
    }
}

/// An author as the API shows it.
public struct AuthorResponse: ResponseCodable, Equatable {
    public var id: Int64?
    public var name: String
    public var country: String?

    public init(id: Int64?, name: String, country: String? = nil) {
        self.id = id
        self.name = name
        self.country = country
    }

    init(_ author: Author) {
        self.init(id: author.id, name: author.name, country: author.country)
    }
}

/// A book as the API shows it.
public struct BookResponse: ResponseCodable, Equatable {
    public var id: Int64?
    public var authorId: Int64
    public var title: String
    public var year: Int?

    public init(id: Int64?, authorId: Int64, title: String, year: Int? = nil) {
        self.id = id
        self.authorId = authorId
        self.title = title
        self.year = year
    }

    init(_ book: Book) {
        self.init(id: book.id, authorId: book.$author.id, title: book.title, year: book.year)
    }
}

/// An author and all their books (eager loading: `.with(\.$books)`).
public struct AuthorInfo: ResponseCodable, Equatable {
    public var author: AuthorResponse
    public var books: [BookResponse]
}

/// A book and its author (eager loading: `.with(\.$author)`).
public struct BookInfo: ResponseCodable, Equatable {
    public var book: BookResponse
    public var author: AuthorResponse
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
