import Foundation
import Strata
import StrataTestSupport
import Testing

private struct Member: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "member"
    var a: Int
    var b: Int
    var c: Int?
}

/// Requests by key dictionaries that hold a unique key and other columns.
struct KeyDictionaryTests {
    /// `member(a UNIQUE, b, c, d)`, with a composite unique index on `(c, b)`.
    private func makeDatabase(_ log: SQLLog) throws -> DatabaseQueue {
        try inMemoryDatabase(
            """
            CREATE TABLE member (a INTEGER UNIQUE, b INTEGER, c INTEGER, d INTEGER);
            CREATE UNIQUE INDEX member_cb ON member(c, b);
            INSERT INTO member (a, b, c) VALUES (1, 2, 3), (4, 5, NULL);
            """, recordingIn: log)
    }

    @Test("B01: a key dictionary that contains a unique key plus other columns filters on every given column")
    func uniqueKeyPlusOtherColumns() throws {
        let log = SQLLog()
        try makeDatabase(log).write { db throws in
            #expect(try Member.exists(db, key: ["a": 1, "b": 2]))
            #expect(try Member.exists(db, key: ["a": 1, "b": 3]) == false)
            #expect(try Member.fetchOne(db, key: ["b": 2, "a": 1])?.c == 3)
            #expect(try Member.fetchOne(db, key: ["A": 4, "c": nil])?.b == 5)
            #expect(
                try requestSQL(db, Member.filter(key: ["a": 1, "b": 2]))
                    == #"SELECT * FROM "member" WHERE ("a" = ?) AND ("b" = ?)"#)
            #expect(try Member.deleteOne(db, key: ["a": 1, "b": 3]) == false)
            #expect(try Member.deleteOne(db, key: ["a": 1, "b": 2]))
            #expect(try Member.fetchCount(db) == 1)
        }
        #expect(
            log.statements(.user) == [
                #"SELECT EXISTS (SELECT * FROM "member" WHERE ("a" = ?) AND ("b" = ?))"#,
                #"SELECT EXISTS (SELECT * FROM "member" WHERE ("a" = ?) AND ("b" = ?))"#,
                #"SELECT * FROM "member" WHERE ("a" = ?) AND ("b" = ?)"#,
                #"SELECT * FROM "member" WHERE ("A" = ?) AND ("c" IS NULL)"#,
                #"DELETE FROM "member" WHERE ("a" = ?) AND ("b" = ?)"#,
                #"DELETE FROM "member" WHERE ("a" = ?) AND ("b" = ?)"#,
                #"SELECT COUNT(*) FROM "member""#,
            ])
    }

    @Test("B01: the columns of a composite unique key come first, in the order of the key")
    func compositeKeyPlusOtherColumns() throws {
        let log = SQLLog()
        try makeDatabase(log).read { db throws in
            #expect(
                try requestSQL(db, Table("member").filter(key: ["d": 4, "b": 2, "c": 3]))
                    == #"SELECT * FROM "member" WHERE ("c" = ?) AND ("b" = ?) AND ("d" = ?)"#)
            #expect(
                try requestSQL(db, Table("member").filter(key: ["b": 2, "c": 3]))
                    == #"SELECT * FROM "member" WHERE ("c" = ?) AND ("b" = ?)"#)
            #expect(try Table("member").filter(key: ["d": nil, "b": 2, "c": 3]).fetchCount(db) == 1)
            #expect(try Member.filter(keys: [["b": 2, "c": 3], ["a": 4, "b": 5]]).fetchCount(db) == 2)
            // A NULL value in the key matches no row.
            #expect(try Table("member").filter(key: ["a": nil, "b": 5]).fetchCount(db) == 0)
        }
    }
}
