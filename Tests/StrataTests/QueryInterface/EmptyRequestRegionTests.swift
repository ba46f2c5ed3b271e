import Foundation
import Strata
import StrataTestSupport
import Testing

/// `none()`, and the region of the statement of requests that prefetch rows.
struct EmptyRequestRegionTests {
    @Test("B38: none() filters with a bound false value, and its region stays empty")
    func noneBindsFalse() throws {
        try assocLibrary().read { db throws in
            let request = AssocAuthor.filter(Column("countryCode") == "FR").none()
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            #expect(statement.sql == #"SELECT * FROM "author" WHERE ("countryCode" = ?) AND ?"#)
            #expect(statement.arguments == ["FR", false])
            #expect(try requestSQL(db, AssocAuthor.none()) == #"SELECT * FROM "author" WHERE ?"#)
            #expect(try request.fetchAll(db).isEmpty)
            #expect(try AssocAuthor.none().fetchCount(db) == 0)
            // The region code still knows that the request reads nothing.
            #expect(try request.databaseRegion(db).isEmpty)
            #expect(try AssocAuthor.none().databaseRegion(db).isEmpty)
            #expect(try Table("author").none().databaseRegion(db).isEmpty)
            #expect(try AssocAuthor.all().databaseRegion(db).isEmpty == false)
        }
    }

    @Test("B19: the statement region of a request with including(all:) covers the prefetched tables")
    func prefetchedTablesInStatementRegion() throws {
        try assocLibrary().read { db throws in
            let request = AssocAuthor.including(all: AssocAuthor.books)
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            #expect(
                statement.databaseRegion.description == "author(countryCode,id,name),book(authorId,id,kind,title,year)")
            #expect(statement.databaseRegion == (try request.databaseRegion(db)))
            // The same SQL without prefetch keeps the region of its own table.
            let plain = try AssocAuthor.all().makePreparedRequest(db, forSingleResult: false).statement
            #expect(plain.sql == statement.sql)
            #expect(plain.databaseRegion.description == "author(countryCode,id,name)")
            // An empty request reads nothing.
            let none = try request.none().makePreparedRequest(db, forSingleResult: false).statement
            #expect(none.databaseRegion.isEmpty)
            #expect(try request.none().fetchAll(db).isEmpty)
            #expect(try request.fetchAll(db).count == 4)
        }
    }
}
