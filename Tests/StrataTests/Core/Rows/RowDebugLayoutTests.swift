import Foundation
import Strata
import StrataTestSupport
import Testing

// The layout of `Row.debugDescription` for scopes and prefetched rows.

struct RowDebugLayoutTests {
    private typealias Author = LibAuthor
    private typealias Book = LibBook

    @Test("B28: only the top row has the marker, counts say row or rows, scopes' prefetched rows are listed on top")
    func nestedRowsAndCounts() throws {
        let dbQueue = try awardLibrary(SQLLog())
        try dbQueue.read { db throws in
            // Edda's author, Anonymous, has no award and one book.
            let book = try #require(
                try Row.fetchOne(
                    db,
                    Book.filter(key: 5)
                        .including(required: Book.author.including(all: Author.awards).including(all: Author.books))
                ))
            #expect(
                book.debugDescription == """
                    ▿ [id:5 authorId:3 title:"Edda"]
                      unadapted: [id:5 authorId:3 title:"Edda" id:3 name:"Anonymous" countryCode:NULL]
                      - author: [id:3 name:"Anonymous" countryCode:NULL]
                        + awards: 0 row
                        + books: 1 row
                      + awards: 0 row
                      + books: 1 row
                    """)
            #expect(try #require(book.scopes["author"]).debugDescription.hasPrefix("▿ [id:3"))
        }
    }
}
