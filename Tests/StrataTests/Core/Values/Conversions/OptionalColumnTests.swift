import Foundation
import Strata
import StrataTestSupport
import Testing

// An optional reads its column through the wrapped type first, and asks the
// column's type only when no value came (issue 46: optional-heavy records).
// These pin what each kind of column gives, read in place from the statement
// and from a copied row.

struct OptionalColumnTests {
    static let sql = "SELECT NULL, '', x'', zeroblob(0), 0, 0.0, 'abc', 12, 1.5, x'41', '2015-07-22 01:02:03', 'x'"

    @Test func optionalColumnsReadInPlaceAsFromACopiedRow() throws {
        try DatabaseQueue().read { db throws in
            let cursor = try Row.fetchCursor(db, sql: Self.sql)
            let live = try #require(try cursor.next())
            let copy = live.copy()
            for row in [live, copy] {
                #expect(try row.decode(String?.self, atIndex: 0) == nil)
                #expect(try row.decode(String?.self, atIndex: 1) == "")
                #expect(try row.decode(String?.self, atIndex: 2) == "")
                #expect(try row.decode(String?.self, atIndex: 3) == "")
                #expect(try row.decode(Int64?.self, atIndex: 0) == nil)
                #expect(try row.decode(Int64?.self, atIndex: 4) == 0)
                #expect(try row.decode(Int?.self, atIndex: 7) == 12)
                #expect(try row.decode(Double?.self, atIndex: 0) == nil)
                #expect(try row.decode(Double?.self, atIndex: 5) == 0)
                #expect(try row.decode(Decimal?.self, atIndex: 0) == nil)
                #expect(try row.decode(Decimal?.self, atIndex: 8) == Decimal(string: "1.5"))
                #expect(try row.decode(Date?.self, atIndex: 0) == nil)
                #expect(try row.decode(Date?.self, atIndex: 10) != nil)
                #expect(try row.decode(DatabaseValue?.self, atIndex: 0) == .some(.null))
                #expect(try row.decode(Data?.self, atIndex: 9) == Data("A".utf8))
                // A value that does not decode is an error, not a nil.
                #expect(throws: RowDecodingError.self) { try row.decode(Decimal?.self, atIndex: 11) }
                #expect(throws: RowDecodingError.self) { try row.decode(Date?.self, atIndex: 11) }
            }
            // The live column reads the text of any value, as SQLite converts it.
            #expect(try live.decode(String?.self, atIndex: 7) == "12")
        }
    }

    @Test func optionalsFetchNullAsNil() throws {
        try DatabaseQueue().read { db throws in
            #expect(try String?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 'a'") == [nil, "a"])
            #expect(
                try Decimal?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 2.5") == [nil, Decimal(string: "2.5")])
            #expect(try Int64?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 0") == [nil, 0])
        }
    }
}
