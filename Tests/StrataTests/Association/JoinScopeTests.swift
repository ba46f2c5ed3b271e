import Foundation
import Strata
import StrataTestSupport
import Testing

/// Scopes of joined tables that select no column (issue 17, item 8): the
/// tables they include keep their place in the tree of scopes, under an
/// empty row, instead of being hoisted to the top level.
struct JoinScopeTests: AwardLibrarySuite {
    /// The books with the country of their author, by id.
    private let booksWithCountrySQL =
        #"SELECT "book".*, "country".* FROM "book" "# + awardLibraryBookCountryJoins + #" ORDER BY "book"."id""#

    @Test func includingNestedInJoining() throws {
        try readAwardLibrary { db, log throws in
            let request = Book.joining(required: Book.author.including(required: Author.country)).order(Column("id"))
            let rows = try Row.fetchAll(db, request)
            #expect(log.statements(.user) == [booksWithCountrySQL])
            #expect(Set(rows[0].scopes.names) == ["author"])
            let author = try #require(rows[0].scopes["author"])
            #expect(author.isEmpty)
            #expect(author.scopes["country"] == ["code": "FR", "name": "France"])
            #expect(rows[0].scopesTree["country"] == ["code": "FR", "name": "France"])
            #expect(rows[0].unscoped == ["id": 1, "authorId": 1, "title": "Les Misérables"])
        }
    }

    private struct AuthorCountry: Decodable {
        var country: Country?
    }

    private struct BookAuthorCountry: Decodable, FetchableRecord {
        var book: Book
        var author: AuthorCountry?
    }

    private struct BookWithCountry: Decodable, FetchableRecord {
        var book: Book
        var country: Country?
    }

    @Test func decodableRecordsWithNestedKeys() throws {
        try readAwardLibrary { db, _ throws in
            let request = Book.joining(optional: Book.author.including(optional: Author.country)).order(Column("id"))
            // Nested keys follow the scopes.
            let nested = try request.asRequest(of: BookAuthorCountry.self).fetchAll(db)
            #expect(nested.map { $0.author?.country?.code } == ["FR", "DE", nil, "FR", nil])
            // The scope of the author is empty: it is nil when its scopes are.
            #expect(nested.map { $0.author == nil } == [false, false, true, false, true])
            // Flat keys find the scope at any depth.
            let flat = try request.asRequest(of: BookWithCountry.self).fetchAll(db)
            #expect(flat.map { $0.country?.name } == ["France", "Germany", nil, "France", nil])
        }
    }

    @Test func joiningWithoutSelectionMakesNoScope() throws {
        try readAwardLibrary { db, log throws in
            let request = Book.joining(required: Book.author.joining(required: Author.country))
            let rows = try Row.fetchAll(db, request)
            #expect(rows.allSatisfy { $0.scopes.isEmpty })
            #expect(
                log.statements(.user) == [
                    """
                    SELECT "book".* FROM "book" \
                    \(awardLibraryBookCountryJoins)
                    """
                ])
        }
    }

    private struct BookCountry: Decodable, FetchableRecord {
        var book: Book
        var country: Country
    }

    @Test func hasOneThroughPutsDestinationUnderPivotScope() throws {
        try readAwardLibrary { db, log throws in
            let request = Book.including(required: Book.country).order(Column("id"))
            let rows = try Row.fetchAll(db, request)
            #expect(log.statements(.user) == [booksWithCountrySQL])
            #expect(Set(rows[0].scopes.names) == ["author"])
            #expect(rows[0].scopes["author"]?.isEmpty == true)
            #expect(rows[0].scopes["author"]?.scopes["country"] == ["code": "FR", "name": "France"])

            // Decodable records find the destination at any depth.
            let records = try request.asRequest(of: BookCountry.self).fetchAll(db)
            #expect(records.map(\.book.id) == [1, 2, 4])
            #expect(records.map(\.country.name) == ["France", "Germany", "France"])
        }
    }

    private struct BookNation: Decodable, FetchableRecord {
        var book: Book
        var nation: Country?
    }

    @Test func forKeyRenamesPivotAndDestinationScopes() throws {
        try readAwardLibrary { db, _ throws in
            // forKey on the pivot renames the pivot scope.
            let byWriter = Book.hasOne(Country.self, through: Book.author.forKey("writer"), using: Author.country)
            let row = try #require(try Row.fetchOne(db, Book.including(required: byWriter).order(Column("id"))))
            #expect(Set(row.scopes.names) == ["writer"])
            #expect(row.scopes["writer"]?.scopes["country"]?["code"] as String? == "FR")

            // forKey on the association renames the destination scope.
            let request = Book.including(optional: Book.country.forKey("nation")).order(Column("id"))
            let rows = try Row.fetchAll(db, request)
            #expect(Set(rows[0].scopes.names) == ["author"])
            #expect(rows[0].scopes["author"]?.scopes["nation"]?["code"] as String? == "FR")
            #expect(rows[2].scopes["author"]?.scopes["nation"] == ["code": nil, "name": nil])

            let records = try request.asRequest(of: BookNation.self).fetchAll(db)
            #expect(records.map { $0.nation?.code } == ["FR", "DE", nil, "FR", nil])
        }
    }
}
