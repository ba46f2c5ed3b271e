import Foundation
import Strata

/// The author of the "Recommended Practices for Designing Record Types"
/// article (seed 004), on the `author` table: for the tests that decode or
/// persist the article's records without running its samples verbatim
/// (those stay in `RecordRecommendedPracticesTests`).
package struct PracticeAuthor: Codable, Hashable, FetchableRecord, MutablePersistableRecord, Sendable {
    /// The `author` table.
    package static let databaseTableName = "author"

    package var id: Int64?
    package var name: String
    package var countryCode: String?

    package init(id: Int64? = nil, name: String, countryCode: String?) {
        (self.id, self.name, self.countryCode) = (id, name, countryCode)
    }

    /// The columns of the `author` table.
    package enum Columns {
        package static let id = Column(CodingKeys.id)
        package static let name = Column(CodingKeys.name)
        package static let countryCode = Column(CodingKeys.countryCode)
    }

    /// Keeps the id the database assigned.
    package mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// The book of the article, on the `book` table, whose kind is an enum
/// stored as text.
package struct PracticeBook: Codable, Hashable, FetchableRecord, MutablePersistableRecord, Sendable {
    /// The `book` table.
    package static let databaseTableName = "book"

    /// What a book is.
    package enum Kind: String, Codable, Sendable, DatabaseValueConvertible {
        case essay, novel, poetry, theater
    }

    package var id: Int64?
    package var authorId: Int64
    package var title: String
    package var kind: Kind

    package init(id: Int64? = nil, authorId: Int64, title: String, kind: Kind) {
        (self.id, self.authorId, self.title, self.kind) = (id, authorId, title, kind)
    }

    /// The columns of the `book` table.
    package enum Columns {
        package static let title = Column(CodingKeys.title)
        package static let kind = Column(CodingKeys.kind)
    }

    /// Keeps the id the database assigned.
    package mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
