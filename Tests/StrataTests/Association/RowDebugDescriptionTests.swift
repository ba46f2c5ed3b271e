import Foundation
import Strata
import StrataTestSupport
import Testing

/// `Row.debugDescription` lays rows out as GRDB 7 (issue 17, item 15; seed
/// 000, lines 1634-1635): `▿` before the top row when it shows more than
/// its columns, the unadapted row, scopes (`-`) and prefetched rows (`+`,
/// those of scopes included) indented by two spaces per level.
struct RowDebugDescriptionTests: AwardLibrarySuite {
    @Test func adaptedRow() throws {
        try DatabaseQueue().read { db throws in
            // The sample of seed 000.
            let adapter = ColumnMapping(["consumed": "produced"])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'Hello' AS produced", adapter: adapter))
            #expect(row.description == #"[consumed:"Hello"]"#)
            #expect(
                row.debugDescription == """
                    ▿ [consumed:"Hello"]
                      unadapted: [produced:"Hello"]
                    """)
            #expect(row.unadapted.debugDescription == #"[produced:"Hello"]"#)
        }
        let plain: Row = ["a": 1, "b": nil]
        #expect(plain.debugDescription == "[a:1 b:NULL]")
    }

    @Test func scopesAndPrefetchedRows() throws {
        try readAwardLibrary { db, _ throws in
            let book = try #require(
                try Row.fetchOne(
                    db,
                    Book.filter(key: 1)
                        .including(required: Book.author.including(all: Author.awards).including(all: Author.books))
                ))
            #expect(
                book.debugDescription == """
                    ▿ [id:1 authorId:1 title:"Les Misérables"]
                      unadapted: [id:1 authorId:1 title:"Les Misérables" id:1 name:"Hugo" countryCode:"FR"]
                      - author: [id:1 name:"Hugo" countryCode:"FR"]
                        + awards: 2 rows
                        + books: 2 rows
                      + awards: 2 rows
                      + books: 2 rows
                    """)

            let author = try #require(try Row.fetchOne(db, Author.filter(key: 2).including(all: Author.awards)))
            #expect(
                author.debugDescription == """
                    ▿ [id:2 name:"Goethe" countryCode:"DE"]
                      + awards: 1 row
                    """)

            let nested = try #require(
                try Row.fetchOne(
                    db, Book.filter(key: 5).joining(required: Book.author.including(optional: Author.country))))
            #expect(
                nested.debugDescription == """
                    ▿ [id:5 authorId:3 title:"Edda"]
                      unadapted: [id:5 authorId:3 title:"Edda" code:NULL name:NULL]
                      - author: []
                        - country: [code:NULL name:NULL]
                    """)
        }
    }
}
